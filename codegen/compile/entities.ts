/**
 * metadata/entities: names, resources and tables unique; fields compiled (fields.ts) and the
 * system fields added; every field an entity part names (status, title, soft delete, scope, file
 * keys, indexes, sort, grant conditions, editable/deletable states) exists and has the right type;
 * actions compiled (actions.ts). Two passes: names first, so refs can point forward.
 */
import { compileActionDialogs } from './action-dialogs.ts';
import { compileCompares } from './compare-rules.ts';
import { compileFileParentStates } from './file-parent.ts';
import { compileView } from './view-entities.ts';
import { ptr, type SourceFile } from '../load.ts';
import { checkFileSize } from '../numeric-ranges.ts';
import {
  HOOKS,
  OPERATIONS,
  type CompiledAccess,
  type CompiledEntity,
  type CompiledField,
  type CompiledGrant,
  type CompiledRule,
  type Operation,
  type Profile,
} from '../runtime/model.ts';
import { compileActions } from './actions.ts';
import { compileSeedHint } from '../seed-hints.ts';
import type { CompileContext } from './context.ts';
import { compileField, snake, systemField, type FieldEnv, type SystemField } from './fields.ts';
import type { RawEntity, RawGrant } from './raw.ts';

/** What the parts of one entity are checked against while it compiles (actions.ts uses it too). */
export interface EntityScope {
  ctx: CompileContext;
  env: FieldEnv;
  access: CompiledAccess;
  file: string;
  name: string;
  raw: RawEntity;
  fields: Record<string, CompiledField>;
  fieldOrder: string[];
  /** the field, or an "unknown field" error (with did-you-mean) and null; `check` may add a problem of its own */
  hasField(fn: string, pointer: string, what: string, check?: (fd: CompiledField) => string | null): CompiledField | null;
  isCode(fd: CompiledField): string | null;
  grantOf(g: RawGrant | undefined, pointer: string): CompiledGrant;
}

export interface CompiledEntities {
  entities: Record<string, CompiledEntity>;
  /** resource name -> entity name */
  resources: Record<string, string>;
  /** entity name -> the file that declares it */
  files: Map<string, string>;
}

export function compileEntities(ctx: CompileContext, rules: Record<string, CompiledRule>, access: CompiledAccess): CompiledEntities {
  const { err } = ctx;
  const rawEntities = new Map<string, { f: SourceFile; e: RawEntity }>();
  const resources: Record<string, string> = {};
  for (const f of ctx.src.entities) {
    const e = f.data as RawEntity;
    if (rawEntities.has(e.name)) err(f.file, '/name', `entity "${e.name}" is already defined in ${rawEntities.get(e.name)!.f.file}`);
    else rawEntities.set(e.name, { f, e });
    if (resources[e.resource]) err(f.file, '/resource', `resource "${e.resource}" is already used by entity "${resources[e.resource]}"`);
    else resources[e.resource] = e.name;
  }
  const env: FieldEnv = { ctx, rules, entityNames: new Set(rawEntities.keys()) };
  const entities: Record<string, CompiledEntity> = {};
  const tables = new Map<string, string>();
  for (const [name, { f, e }] of rawEntities) {
    const table = e.table ?? snake(name);
    if (tables.has(table)) err(f.file, '/table', `table "${table}" is already used by entity "${tables.get(table)}"`);
    tables.set(table, name);
    entities[name] = compileEntity(ctx, env, access, f.file, name, table, e);
  }
  // what needs every entity compiled first: dialogs (perRecord, show, supplierFields, identifyBy),
  // the parent states files follow, view entities over their source
  for (const [name, { f, e }] of rawEntities) {
    compileActionDialogs(f.file, e, entities[name], err);
    compileFileParentStates(f.file, e, entities[name], entities, err, ctx.codeOf);
    compileView(f.file, e as Parameters<typeof compileView>[1], entities[name], entities, err);
    compileCompares(ctx, f.file, e, entities[name]);
  }
  return { entities, resources, files: new Map([...rawEntities].map(([n, { f }]) => [n, f.file])) };
}

function compileEntity(ctx: CompileContext, env: FieldEnv, access: CompiledAccess, file: string, name: string, table: string, e: RawEntity): CompiledEntity {
  const { err, codeOf } = ctx;
  const labelKey = ctx.labelOf(file, '/name', `entity "${name}"`, e.labelKey, `entity.${name}`);
  const fields: Record<string, CompiledField> = {};
  for (const [fname, fdef] of Object.entries(e.fields)) {
    fields[fname] = compileField(env, file, ['fields'], name, fname, fdef, [`field.${name}.${fname}`, `field.common.${fname}`]);
  }
  const versioned = e.versioned !== false;
  const audit = e.audit !== false;
  const sys: SystemField[] = [
    'id',
    ...(versioned ? (['version'] as const) : []),
    ...(audit ? (['createdAt', 'createdBy', 'updatedAt', 'updatedBy'] as const) : []),
  ];
  for (const s of sys) fields[s] = systemField(ctx, s, name, file);
  const fieldOrder = [...Object.keys(e.fields), ...sys];
  const hasField: EntityScope['hasField'] = (fn, pointer, what, check) => {
    const fd = fields[fn];
    if (!fd) {
      ctx.unknown(file, pointer, 'field', fn, fieldOrder, { of: `of entity "${name}"`, prefix: `${what}: ` });
      return null;
    }
    const problem = check?.(fd);
    if (problem) err(file, pointer, `${what}: ${problem}`);
    return fd;
  };
  const isCode = (fd: CompiledField) => (fd.type === 'code' ? null : `field "${fd.name}" is not a code field`);
  const statusField = e.statusField;
  if (statusField) hasField(statusField, '/statusField', 'statusField', isCode);
  if (e.titleField) hasField(e.titleField, '/titleField', 'titleField');
  if (e.softDelete) hasField(e.softDelete, '/softDelete', 'softDelete', (fd) => (fd.type === 'boolean' ? null : 'must be a boolean field'));
  const scope = {
    supplierFields: e.scope?.supplierFields ?? [],
    ...(e.scope?.warehouseField ? { warehouseField: e.scope.warehouseField } : {}),
    ...(e.scope?.parent ? { parent: e.scope.parent } : {}),
  };
  scope.supplierFields.forEach((sf, i) => hasField(sf, ptr('scope', 'supplierFields', i), 'supplier scope'));
  if (scope.warehouseField) hasField(scope.warehouseField, '/scope/warehouseField', 'warehouse scope');
  if (scope.parent) hasField(scope.parent, '/scope/parent', 'parent scope', (fd) => (fd.type === 'ref' ? null : 'must be a ref field'));
  if (e.file) {
    const rule = env.rules[e.file.rule];
    if (!rule)
      ctx.unknown(
        file,
        '/file/rule',
        'rule',
        e.file.rule,
        Object.keys(env.rules).filter((r) => env.rules[r].fileTypes),
      );
    else if (!rule.fileTypes) err(file, '/file/rule', `rule "${e.file.rule}" is not a file rule (it has no fileTypes)`);
    (e.file.overwriteKey ?? []).forEach((k, i) => hasField(k, ptr('file', 'overwriteKey', i), 'file overwrite key'));
    for (const need of ['fileName', 'fileSize', 'storageName']) if (!fields[need]) err(file, '/fields', `a file entity needs a "${need}" field`);
    if (rule) checkFileSize(file, e.fields.fileSize, rule, err);
  }
  const indexes = (e.indexes ?? []).map((ix, i) => {
    ix.fields.forEach((fn, j) => hasField(fn, ptr('indexes', i, 'fields', j), 'index'));
    return { name: `ix_${table}_${ix.fields.map(snake).join('_')}`, fields: ix.fields, unique: !!ix.unique };
  });
  for (const fd of Object.values(fields)) {
    if (fd.system) continue;
    const raw = e.fields[fd.name];
    if (raw.index || raw.unique) indexes.push({ name: `${raw.unique ? 'ux' : 'ix'}_${table}_${fd.column}`, fields: [fd.name], unique: !!raw.unique });
  }
  const defaultSort = e.defaultSort ?? { field: 'id', order: 'ASC' as const };
  hasField(defaultSort.field, '/defaultSort/field', 'defaultSort');

  const whereOf = (where: Record<string, unknown[]>, pointer: string, what: string): Record<string, unknown[]> => {
    const out: Record<string, unknown[]> = {};
    for (const [wf, vals] of Object.entries(where)) {
      const fd = hasField(wf, `${pointer}/${wf}`, what);
      out[wf] = fd?.type === 'code' && fd.codeTable ? vals.map((x, i) => codeOf(file, `${pointer}/${wf}/${i}`, fd.codeTable!, x)) : vals;
    }
    return out;
  };
  const grantOf = (g: RawGrant | undefined, pointer: string): CompiledGrant => {
    const out: CompiledGrant = {};
    for (const [p, val] of Object.entries(g ?? {}) as [Profile, true | { where?: Record<string, unknown[]> }][]) {
      out[p] = { where: val === true || !val.where ? null : whereOf(val.where, `${pointer}/${p}/where`, 'grant condition') };
    }
    return out;
  };
  const accessC: Partial<Record<Operation, CompiledGrant>> = {};
  for (const op of OPERATIONS) if (e.access[op]) accessC[op] = grantOf(e.access[op], `/access/${op}`);

  const stateCodes = (m: Record<string, string[]> | undefined, pointer: string): Record<string, string[]> => {
    const out: Record<string, string[]> = {};
    for (const [sf, keys] of Object.entries(m ?? {})) {
      const fd = hasField(sf, `${pointer}/${sf}`, pointer.slice(1), isCode);
      out[sf] = fd?.codeTable ? keys.map((k, i) => codeOf(file, `${pointer}/${sf}/${i}`, fd.codeTable!, k)) : keys;
    }
    return out;
  };

  const scopeOfEntity: EntityScope = { ctx, env, access, file, name, raw: e, fields, fieldOrder, hasField, isCode, grantOf };
  const actions = compileActions(scopeOfEntity);
  // a lookup's `when` names code fields of this entity by their keys: the engine compares stored codes
  for (const [pointer, fd] of [
    ...Object.values(fields).map((f) => [`/fields/${f.name}/lookup/when`, f] as const),
    ...Object.values(actions).flatMap((a) => Object.values(a.input).map((f) => [`/actions/${a.name}/input/${f.name}/lookup/when`, f] as const)),
  ])
    if (fd.lookup?.when) fd.lookup.when = stateCodes(fd.lookup.when, pointer);
  if (e.seed?.files && !e.file) ctx.err(file, '/seed/files', 'demo files are for file entities (with "file"): this entity stores no files');
  return {
    name,
    resource: e.resource,
    table,
    labelKey,
    titleField: e.titleField ?? 'id',
    ...(statusField ? { statusField } : {}),
    versioned,
    audit,
    ...(e.softDelete ? { softDelete: e.softDelete } : {}),
    scope,
    claimWarehouseOnly: !!e.claimWarehouseOnly,
    public: !!e.public,
    ...(e.file
      ? {
          file: {
            rule: e.file.rule,
            overwriteKey: e.file.overwriteKey ?? [],
            ...(e.file.onUpload ? { onUpload: { action: e.file.onUpload.action, setParent: e.file.onUpload.setParent ?? {} } } : {}),
          },
        }
      : {}),
    fields,
    fieldOrder,
    indexes,
    defaultSort,
    access: accessC,
    editableWhen: stateCodes(e.editableWhen, '/editableWhen'),
    deletableWhen: stateCodes(e.deletableWhen, '/deletableWhen'),
    actions,
    hooks: HOOKS.filter((h) => e.hooks?.includes(h)),
    ...(e.seed ? { seed: compileSeedHint(file, e.seed, fields, { rules: env.rules, codeTables: ctx.codeTables }, ctx.codeOf, ctx.err) } : {}),
  };
}
