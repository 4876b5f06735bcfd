/**
 * Checks metadata (meta-schema first, then every cross-reference) and compiles it into the model
 * of codegen/runtime/model.ts. Every problem becomes a MetadataError naming the file, the JSON
 * pointer and what was expected; compilation only succeeds when there are none.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { MetadataError, ptr, type MetadataSources, type SourceFile } from './load.ts';
import { checkFileSize, checkInputWithinField, checkNumericRange } from './numeric-ranges.ts';
import {
  LOCALES,
  OPERATIONS,
  PROFILES,
  codeLabelKey,
  codeTableLabelKey,
  type AppConstants,
  type Catalogues,
  type CompiledAccess,
  type CompiledAction,
  type CompiledCodeTable,
  type CompiledColumn,
  type CompiledEntity,
  type CompiledField,
  type CompiledFilter,
  type CompiledGrant,
  type CompiledMetadata,
  type CompiledRule,
  type CompiledScreen,
  type FieldType,
  type FilterOp,
  type Locale,
  type Operation,
  type Profile,
  type Role,
} from './runtime/model.ts';

/* ---------------------------------------------------------------- raw metadata shapes */
interface RawField {
  type: FieldType; labelKey?: string; maxLength?: number; precision?: number; scale?: number; minimum?: number; maximum?: number;
  codeTable?: string; ref?: string; required?: boolean; unique?: boolean; default?: unknown; readOnly?: boolean; createOnly?: boolean;
  private?: boolean; rules?: string[]; index?: boolean; filter?: FilterOp[]; sort?: boolean; search?: boolean;
  autoNumber?: { prefix: string; digits: number }; sessionDefault?: CompiledField['sessionDefault'];
}
interface RawAction {
  labelKey?: string; statusField?: string; from?: string[]; to?: string | string[]; allow: RawGrant; button?: string;
  input?: Record<string, RawField | RawInputSameAsField>; set?: Record<string, unknown>; handler?: boolean; bulk?: boolean; collection?: boolean; confirm?: boolean; successKey?: string; illegalTransitionKey?: string; internal?: boolean; upload?: { rule: string; template?: boolean };
}
/** an action input that takes the definition of the entity field of its name (one source for both); `required` and `default` may differ */
interface RawInputSameAsField { sameAsField: true; required?: boolean; default?: unknown; description?: string }
/** What an input named like an entity field inherits from it: its type and its validation, none of the field's storage or list settings. */
const INHERITED: (keyof RawField)[] = ['type', 'labelKey', 'maxLength', 'precision', 'scale', 'minimum', 'maximum', 'codeTable', 'ref', 'required', 'default', 'rules'];
type RawGrant = Partial<Record<Profile, true | { where?: Record<string, unknown[]> }>>;
interface RawEntity {
  name: string; resource: string; table?: string; labelKey?: string; titleField?: string; statusField?: string; versioned?: boolean; audit?: boolean;
  softDelete?: string; scope?: { supplierFields?: string[]; warehouseField?: string; parent?: string }; claimWarehouseOnly?: boolean; public?: boolean;
  file?: { rule: string; overwriteKey?: string[]; onUpload?: { action: string; setParent?: Record<string, string> } }; fields: Record<string, RawField>; indexes?: { fields: string[]; unique?: boolean }[];
  defaultSort?: { field: string; order: 'ASC' | 'DESC' }; access: Partial<Record<Operation, RawGrant>>;
  editableWhen?: Record<string, string[]>; deletableWhen?: Record<string, string[]>; actions?: Record<string, RawAction>;
}
type RawColumn = string | { field: string; labelKey?: string; width?: number; format?: CompiledColumn['format'] };
interface RawScreen {
  name: string; path: string; kind: CompiledScreen['kind']; titleKey: string; public?: boolean; roles?: Role[]; hidden?: boolean; activeMenu?: string;
  pinned?: boolean; menu?: { group?: string; order: number; icon?: string }; claimWarehouseOnly?: boolean; resource?: string;
  fixedFilter?: Record<string, unknown>; defaultSort?: { field: string; order: 'ASC' | 'DESC' }; columns?: RawColumn[];
  filters?: (string | { field: string; op?: FilterOp; alwaysOn?: boolean })[]; requireFilter?: boolean; buttons?: string[]; form?: string[];
  editScreen?: string; listScreen?: string; tabs?: { key: string; titleKey: string; filter: Record<string, unknown> }[];
  related?: { resource: string; target: string; source?: string; titleKey?: string; columns: RawColumn[] }[]; component?: string;
}

export const SYSTEM_FIELDS = ['id', 'version', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'] as const;
export const snake = (s: string): string => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/* ---------------------------------------------------------------- meta-schema validation */
const SCHEMA_DIR = 'schema';
const SCHEMA_FILES = ['common', 'app', 'access', 'codes', 'rules', 'screen', 'entity', 'i18n', 'migration'].map((n) => `${n}.schema.json`);
/** Compiled meta-schemas, kept while the schema files are unchanged (watch mode regenerates fast). */
const validatorCache = new Map<string, ReturnType<typeof buildValidators>>();
function metaValidators(metadataDir: string) {
  const key = metadataDir + '\0' + SCHEMA_FILES.map((f) => readFileSync(join(metadataDir, SCHEMA_DIR, f), 'utf8')).join('\0');
  let v = validatorCache.get(key);
  if (!v) {
    v = buildValidators(metadataDir);
    validatorCache.clear();
    validatorCache.set(key, v);
  }
  return v;
}
function buildValidators(metadataDir: string) {
  const ajv = new Ajv({ allErrors: true, strict: false, formats: { regex: true } });
  const load = (f: string) => JSON.parse(readFileSync(join(metadataDir, SCHEMA_DIR, f), 'utf8'));
  ajv.addSchema(load('common.schema.json'));
  // entity files may embed screens, so the screen schema is known by its $id before entities compile
  ajv.addSchema(load('screen.schema.json'));
  const compile = (f: string) => ajv.compile(load(f));
  return {
    app: compile('app.schema.json'),
    access: compile('access.schema.json'),
    codes: compile('codes.schema.json'),
    rules: compile('rules.schema.json'),
    entity: compile('entity.schema.json'),
    screen: ajv.getSchema('screen.schema.json')!,
    i18n: compile('i18n.schema.json'),
    migration: compile('migration.schema.json'),
  };
}

function schemaErrors(file: string, errs: ErrorObject[] | null | undefined): MetadataError[] {
  if (!errs) return [];
  // oneOf failures are noisy: keep the most specific error per pointer
  const seen = new Set<string>();
  const out: MetadataError[] = [];
  for (const e of errs) {
    if (e.keyword === 'oneOf' || e.keyword === 'if') continue;
    let detail = `${e.message ?? 'invalid'}`;
    if (e.keyword === 'additionalProperties') detail = `unknown property "${(e.params as { additionalProperty: string }).additionalProperty}" (not allowed by the meta-schema)`;
    if (e.keyword === 'enum') detail = `${e.message}: ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    const k = `${e.instancePath}|${detail}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(new MetadataError(file, e.instancePath, `expected by the meta-schema: ${detail}`));
  }
  return out;
}

/* ---------------------------------------------------------------- catalogues */
function flatten(node: Record<string, unknown>, prefix: string, out: Map<string, string>, dup: (k: string) => void): void {
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema' && !prefix) continue;
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') {
      if (out.has(key)) dup(key);
      out.set(key, v);
    } else if (v && typeof v === 'object') flatten(v as Record<string, unknown>, key, out, dup);
  }
}

export interface CompileResult {
  model: CompiledMetadata | null;
  catalogues: Catalogues | null;
  errors: MetadataError[];
}

export function compileMetadata(src: MetadataSources): CompileResult {
  const errors: MetadataError[] = [];
  const err = (file: string, pointer: string, detail: string) => errors.push(new MetadataError(file, pointer, detail));
  const v = metaValidators(src.root);

  /* 1. meta-schema */
  const check = (fn: ReturnType<typeof metaValidators>[keyof ReturnType<typeof metaValidators>], f: SourceFile) => {
    if (!fn(f.data)) errors.push(...schemaErrors(f.file, fn.errors));
  };
  check(v.app, src.app);
  check(v.access, src.access);
  src.codes.forEach((f) => check(v.codes, f));
  src.rules.forEach((f) => check(v.rules, f));
  src.entities.forEach((f) => check(v.entity, f));
  src.screens.forEach((f) => check(v.screen, f));
  Object.values(src.i18n).flat().forEach((f) => check(v.i18n, f));
  src.migrations.forEach((f) => check(v.migration, f));
  if (errors.length) return { model: null, catalogues: null, errors };

  /* 2. catalogues: every locale present, the same keys in each */
  const cat = new Map<Locale, Map<string, string>>();
  const keyFile = new Map<string, string>();
  for (const loc of LOCALES) {
    const files = src.i18n[loc];
    if (!files || files.length === 0) {
      err(`metadata/i18n/${loc}`, '', `the ${loc} catalogue is missing (expected JSON files in metadata/i18n/${loc}/)`);
      continue;
    }
    const m = new Map<string, string>();
    for (const f of files) {
      flatten(f.data as Record<string, unknown>, '', m, (k) => err(f.file, ptr(...k.split('.')), `key "${k}" is defined twice in the ${loc} catalogue`));
      const one = new Map<string, string>();
      flatten(f.data as Record<string, unknown>, '', one, () => {});
      for (const k of one.keys()) if (!keyFile.has(`${loc}:${k}`)) keyFile.set(`${loc}:${k}`, f.file);
    }
    cat.set(loc, m);
  }
  for (const loc of LOCALES) {
    const mine = cat.get(loc);
    if (!mine) continue;
    for (const other of LOCALES) {
      if (other === loc) continue;
      const theirs = cat.get(other);
      if (!theirs) continue;
      for (const k of mine.keys())
        if (!theirs.has(k)) err(keyFile.get(`${loc}:${k}`) ?? `metadata/i18n/${loc}`, ptr(...k.split('.')), `key "${k}" has no ${other} translation (expected it in metadata/i18n/${other}/)`);
    }
  }
  const hasKey = (k: string) => LOCALES.every((l) => cat.get(l)?.has(k));
  /** requires a label key in both languages */
  const needKey = (file: string, pointer: string, key: string, what: string) => {
    const missing = LOCALES.filter((l) => !cat.get(l)?.has(key));
    if (missing.length) err(file, pointer, `${what}: label key "${key}" is missing in ${missing.join(' and ')}`);
  };
  /** first key of the candidates that exists; the first is reported when none does */
  const labelOf = (file: string, pointer: string, what: string, explicit: string | undefined, ...candidates: string[]): string => {
    if (explicit) {
      needKey(file, pointer, explicit, what);
      return explicit;
    }
    const found = candidates.find(hasKey);
    if (found) return found;
    err(file, pointer, `${what}: no label; expected one of the keys ${candidates.map((c) => `"${c}"`).join(', ')} in both zh-CN and en-US`);
    return candidates[0];
  };

  /* 3. app, access */
  const appRaw = src.app.data as AppConstants & { $schema?: string };
  const { $schema: _s, ...appRest } = appRaw;
  const app: AppConstants = { ...appRest, constants: appRest.constants ?? {}, menuGroups: appRest.menuGroups ?? [] };
  needKey(src.app.file, '/titleKey', app.titleKey, 'app title');
  app.menuGroups.forEach((g, i) => needKey(src.app.file, ptr('menuGroups', i, 'titleKey'), g.titleKey, `menu group "${g.key}"`));
  if (!app.locales.includes(app.defaultLocale)) err(src.app.file, '/defaultLocale', `"${app.defaultLocale}" is not one of locales`);
  if (app.pageSize > app.maxPageSize) err(src.app.file, '/pageSize', `pageSize ${app.pageSize} exceeds maxPageSize ${app.maxPageSize}`);
  const menuGroups = new Set(app.menuGroups.map((g) => g.key));

  const accessRaw = src.access.data as { profiles: CompiledAccess['profiles']; buttons: CompiledAccess['buttons'] };
  const access: CompiledAccess = { profiles: {} as CompiledAccess['profiles'], buttons: {} };
  for (const p of PROFILES) {
    const raw = accessRaw.profiles[p];
    if (!raw) {
      err(src.access.file, ptr('profiles'), `profile "${p}" is missing`);
      continue;
    }
    access.profiles[p] = { accountType: raw.accountType, role: raw.role, admin: !!raw.admin, supplierScoped: !!raw.supplierScoped };
  }
  for (const [b, def] of Object.entries(accessRaw.buttons)) {
    needKey(src.access.file, ptr('buttons', b, 'labelKey'), def.labelKey, `button "${b}"`);
    access.buttons[b] = { labelKey: def.labelKey, ...(def.operation ? { operation: def.operation } : {}) };
  }

  /* 4. code tables */
  const codeTables: Record<string, CompiledCodeTable> = {};
  const codeTableFile: Record<string, string> = {};
  for (const f of src.codes) {
    const tables = (f.data as { codeTables: Record<string, { label: CompiledCodeTable['label']; values: CompiledCodeTable['values']; groups?: Record<string, string[]> }> }).codeTables;
    for (const [name, t] of Object.entries(tables)) {
      const p = ptr('codeTables', name);
      if (codeTables[name]) {
        err(f.file, p, `code table "${name}" is already defined in ${codeTableFile[name]}`);
        continue;
      }
      const codes = new Set<string>();
      const keys = new Map<string, string>();
      t.values.forEach((val, i) => {
        if (codes.has(val.code)) err(f.file, ptr('codeTables', name, 'values', i, 'code'), `code "${val.code}" appears twice in table "${name}"`);
        if (keys.has(val.key)) err(f.file, ptr('codeTables', name, 'values', i, 'key'), `key "${val.key}" appears twice in table "${name}"`);
        codes.add(val.code);
        keys.set(val.key, val.code);
      });
      const groups: Record<string, string[]> = {};
      for (const [g, members] of Object.entries(t.groups ?? {})) {
        groups[g] = members.map((k, i) => {
          const c = keys.get(k);
          if (c === undefined) err(f.file, ptr('codeTables', name, 'groups', g, i), `unknown code key "${k}" of table "${name}" (expected one of: ${[...keys.keys()].join(', ')})`);
          return c ?? k;
        });
      }
      codeTables[name] = { name, label: t.label, values: t.values.map((x) => ({ code: x.code, key: x.key, label: x.label })), groups };
      codeTableFile[name] = f.file;
    }
  }
  if (!codeTables.accountType) err('metadata/codes', '', 'the code table "accountType" is required (access profiles refer to it)');
  for (const p of PROFILES) {
    const prof = access.profiles[p];
    if (prof && codeTables.accountType && !codeTables.accountType.values.some((x) => x.code === prof.accountType))
      err(src.access.file, ptr('profiles', p, 'accountType'), `account type "${prof.accountType}" is not a code of table "accountType"`);
  }
  /** code key -> stored code, reporting unknown keys */
  const codeOf = (file: string, pointer: string, table: string, key: unknown): string => {
    const t = codeTables[table];
    const hit = t?.values.find((x) => x.key === key);
    if (!hit) {
      err(file, pointer, `unknown code key ${JSON.stringify(key)} of table "${table}" (expected one of: ${t ? t.values.map((x) => x.key).join(', ') : '?'})`);
      return String(key);
    }
    return hit.code;
  };

  /* 5. rules */
  const rules: Record<string, CompiledRule> = {};
  for (const f of src.rules) {
    for (const [name, r] of Object.entries((f.data as { rules: Record<string, Omit<CompiledRule, 'name'>> }).rules)) {
      if (rules[name]) {
        err(f.file, ptr('rules', name), `rule "${name}" is defined twice`);
        continue;
      }
      needKey(f.file, ptr('rules', name, 'messageKey'), r.messageKey, `rule "${name}"`);
      if (r.pattern) {
        try {
          new RegExp(r.pattern, 'u');
        } catch (e) {
          err(f.file, ptr('rules', name, 'pattern'), `not a valid regular expression: ${(e as Error).message}`);
        }
      }
      rules[name] = { name, ...r, params: r.params ?? {} };
    }
  }

  /* 6. entities (two passes: names first, so refs can point forward) */
  const rawEntities = new Map<string, { f: SourceFile; e: RawEntity }>();
  const resources: Record<string, string> = {};
  for (const f of src.entities) {
    const e = f.data as RawEntity;
    if (rawEntities.has(e.name)) err(f.file, '/name', `entity "${e.name}" is already defined in ${rawEntities.get(e.name)!.f.file}`);
    else rawEntities.set(e.name, { f, e });
    if (resources[e.resource]) err(f.file, '/resource', `resource "${e.resource}" is already used by entity "${resources[e.resource]}"`);
    else resources[e.resource] = e.name;
  }
  const entities: Record<string, CompiledEntity> = {};
  const tables = new Map<string, string>();

  const compileField = (file: string, base: string[], entity: string, name: string, f: RawField, labelCandidates: string[]): CompiledField => {
    const p = ptr(...base, name);
    if (f.type === 'string' && !f.maxLength) err(file, p, `string field "${name}" needs a maxLength`);
    // every integer declares its range, every decimal its precision and scale (numeric-ranges.ts)
    checkNumericRange(file, p, base[0] === 'actions' ? `input "${name}" of action "${base[1]}"` : `field "${name}"`, f, err);
    if (f.autoNumber && f.type !== 'string') err(file, `${p}/autoNumber`, `autoNumber is only for string fields`);
    if (f.autoNumber && f.maxLength && f.autoNumber.prefix.length + 8 + f.autoNumber.digits > f.maxLength) err(file, `${p}/autoNumber`, `prefix + date + ${f.autoNumber.digits} digits do not fit maxLength ${f.maxLength}`);
    if (f.type === 'code') {
      if (!f.codeTable) err(file, p, `code field "${name}" needs a codeTable`);
      else if (!codeTables[f.codeTable]) err(file, `${p}/codeTable`, `unknown code table "${f.codeTable}" (expected one of the tables in metadata/codes)`);
    } else if (f.codeTable) err(file, `${p}/codeTable`, `codeTable is only for code fields`);
    if (f.type === 'ref') {
      if (!f.ref) err(file, p, `ref field "${name}" needs a ref`);
      else if (!rawEntities.has(f.ref)) err(file, `${p}/ref`, `unknown entity "${f.ref}" (expected one of: ${[...rawEntities.keys()].join(', ')})`);
    }
    (f.rules ?? []).forEach((r, i) => {
      const rule = rules[r];
      if (!rule) err(file, `${p}/rules/${i}`, `unknown rule "${r}" (expected one of: ${Object.keys(rules).join(', ')})`);
      else if (rule.appliesTo && !rule.appliesTo.includes(f.type)) err(file, `${p}/rules/${i}`, `rule "${r}" applies to ${rule.appliesTo.join('/')} fields, not to ${f.type}`);
    });
    let def = f.default;
    if (def !== undefined && f.type === 'code' && f.codeTable && codeTables[f.codeTable]) def = codeOf(file, `${p}/default`, f.codeTable, def);
    const filter = f.filter ?? [];
    if (filter.includes('contains') && !['string', 'text'].includes(f.type)) err(file, `${p}/filter`, `"contains" only applies to string and text fields`);
    if (filter.includes('range') && !['integer', 'decimal', 'date', 'datetime'].includes(f.type)) err(file, `${p}/filter`, `"range" only applies to numbers and dates`);
    return {
      name,
      column: snake(name),
      type: f.type,
      labelKey: labelOf(file, p, `field "${name}" of ${entity}`, f.labelKey, ...labelCandidates),
      ...(f.maxLength !== undefined ? { maxLength: f.maxLength } : {}),
      ...(f.precision !== undefined ? { precision: f.precision } : {}),
      ...(f.scale !== undefined ? { scale: f.scale } : {}),
      ...(f.minimum !== undefined ? { minimum: f.minimum } : {}),
      ...(f.maximum !== undefined ? { maximum: f.maximum } : {}),
      ...(f.codeTable ? { codeTable: f.codeTable } : {}),
      ...(f.ref ? { ref: f.ref } : {}),
      required: !!f.required,
      unique: !!f.unique,
      ...(def !== undefined ? { default: def } : {}),
      readOnly: !!f.readOnly,
      createOnly: !!f.createOnly,
      private: !!f.private,
      rules: f.rules ?? [],
      filter,
      sort: !!f.sort,
      search: !!f.search,
      system: false,
      ...(f.autoNumber ? { autoNumber: f.autoNumber } : {}),
      ...(f.sessionDefault ? { sessionDefault: f.sessionDefault } : {}),
    };
  };

  const systemField = (name: (typeof SYSTEM_FIELDS)[number], entity: string, file: string): CompiledField => {
    const type: FieldType = name === 'id' || name === 'version' ? 'integer' : name.endsWith('At') ? 'datetime' : 'string';
    return {
      name, column: snake(name), type,
      labelKey: labelOf(file, '', `system field "${name}"`, undefined, `field.${entity}.${name}`, `field.common.${name}`),
      ...(type === 'string' ? { maxLength: 30 } : {}),
      required: false, unique: name === 'id', readOnly: true, createOnly: false, private: false, rules: [],
      filter: name === 'id' ? ['eq', 'in'] : name.endsWith('At') ? ['range'] : [],
      sort: name === 'id' || name.endsWith('At'), search: false, system: true,
    };
  };

  for (const [name, { f, e }] of rawEntities) {
    const file = f.file;
    const table = e.table ?? snake(name);
    if (tables.has(table)) err(file, '/table', `table "${table}" is already used by entity "${tables.get(table)}"`);
    tables.set(table, name);
    const labelKey = labelOf(file, '/name', `entity "${name}"`, e.labelKey, `entity.${name}`);
    const fields: Record<string, CompiledField> = {};
    for (const [fname, fdef] of Object.entries(e.fields)) {
      fields[fname] = compileField(file, ['fields'], name, fname, fdef, [`field.${name}.${fname}`, `field.common.${fname}`]);
    }
    const versioned = e.versioned !== false;
    const audit = e.audit !== false;
    const sys: (typeof SYSTEM_FIELDS)[number][] = ['id', ...(versioned ? (['version'] as const) : []), ...(audit ? (['createdAt', 'createdBy', 'updatedAt', 'updatedBy'] as const) : [])];
    for (const s of sys) fields[s] = systemField(s, name, file);
    const fieldOrder = [...Object.keys(e.fields), ...sys];
    const hasField = (fn: string, pointer: string, what: string, check?: (fd: CompiledField) => string | null): CompiledField | null => {
      const fd = fields[fn];
      if (!fd) {
        err(file, pointer, `${what}: unknown field "${fn}" of entity "${name}" (expected one of: ${fieldOrder.join(', ')})`);
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
    const scope = { supplierFields: e.scope?.supplierFields ?? [], ...(e.scope?.warehouseField ? { warehouseField: e.scope.warehouseField } : {}), ...(e.scope?.parent ? { parent: e.scope.parent } : {}) };
    scope.supplierFields.forEach((sf, i) => hasField(sf, ptr('scope', 'supplierFields', i), 'supplier scope'));
    if (scope.warehouseField) hasField(scope.warehouseField, '/scope/warehouseField', 'warehouse scope');
    if (scope.parent) hasField(scope.parent, '/scope/parent', 'parent scope', (fd) => (fd.type === 'ref' ? null : 'must be a ref field'));
    if (e.file) {
      const rule = rules[e.file.rule];
      if (!rule) err(file, '/file/rule', `unknown rule "${e.file.rule}"`);
      else if (!rule.fileTypes) err(file, '/file/rule', `rule "${e.file.rule}" is not a file rule (it has no fileTypes)`);
      (e.file.overwriteKey ?? []).forEach((k, i) => hasField(k, ptr('file', 'overwriteKey', i), 'file overwrite key'));
      for (const need of ['fileName', 'fileSize', 'storageName'])
        if (!fields[need]) err(file, '/fields', `a file entity needs a "${need}" field`);
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

    const actions: Record<string, CompiledAction> = {};
    for (const [an, a] of Object.entries(e.actions ?? {})) {
      const p = ptr('actions', an);
      const sf = a.statusField ?? (a.from || a.to ? statusField : undefined);
      if ((a.from || a.to) && !sf) err(file, p, `action "${an}" moves a state but the entity has no statusField and the action names none`);
      const sfd = sf ? hasField(sf, `${p}/statusField`, `action "${an}"`, isCode) : null;
      const table = sfd?.codeTable;
      const from = a.from && table ? a.from.map((k, i) => codeOf(file, `${p}/from/${i}`, table, k)) : a.from;
      const toList = a.to === undefined ? undefined : Array.isArray(a.to) ? a.to : [a.to];
      const to = toList && table ? toList.map((k, i) => codeOf(file, Array.isArray(a.to) ? `${p}/to/${i}` : `${p}/to`, table, k)) : toList;
      const input: Record<string, CompiledField> = {};
      for (const [inName, rawIn] of Object.entries(a.input ?? {})) {
        let inDef: RawField;
        if ('sameAsField' in rawIn) {
          const src = e.fields[inName];
          if (!src || src.private) {
            err(file, ptr('actions', an, 'input', inName, 'sameAsField'), `input "${inName}" of action "${an}" takes the definition of the field "${inName}", which ${src ? 'is private' : 'the entity does not have'}`);
            continue;
          }
          const { sameAsField: _same, description: _d, ...overrides } = rawIn;
          inDef = { ...(Object.fromEntries(INHERITED.filter((k) => src[k] !== undefined).map((k) => [k, src[k]])) as unknown as RawField), ...overrides };
        } else inDef = rawIn;
        input[inName] = compileField(file, ['actions', an, 'input'], name, inName, inDef, [`field.${name}.${inName}`, `field.common.${inName}`]);
        const target = e.fields[inName];
        if (target) checkInputWithinField(file, ptr('actions', an, 'input', inName), inDef, target, { input: inName, action: an }, err);
      }
      if (to && to.length > 1 && !input.target) {
        input.target = {
          name: 'target', column: 'target', type: 'code', codeTable: table, labelKey: labelOf(file, `${p}/to`, `choice of action "${an}"`, undefined, `field.${name}.${an}Target`, 'field.common.target'),
          required: true, unique: false, readOnly: false, createOnly: false, private: false, rules: [], filter: [], sort: false, search: false, system: false,
        };
      }
      const set: Record<string, unknown> = {};
      for (const [sk, sv] of Object.entries(a.set ?? {})) {
        const fd = hasField(sk, `${p}/set/${sk}`, `action "${an}" set`);
        set[sk] = fd?.type === 'code' && fd.codeTable && typeof sv === 'string' && !sv.startsWith('$') ? codeOf(file, `${p}/set/${sk}`, fd.codeTable, sv) : sv;
      }
      if (a.collection && !a.handler) err(file, `${p}/collection`, `a collection action needs a handler (it has no record to change)`);
      const button = a.button ?? an;
      actions[an] = {
        name: an,
        labelKey: labelOf(file, p, `action "${an}"`, a.labelKey, `action.${name}.${an}`, `action.common.${an}`),
        ...(sf ? { statusField: sf } : {}),
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        allow: grantOf(a.allow, `${p}/allow`),
        button,
        input,
        inputOrder: Object.keys(input),
        set,
        handler: !!a.handler,
        bulk: !!a.bulk,
        collection: !!a.collection,
        confirm: !!a.confirm,
        successKey: a.successKey ?? 'message.actionSuccess',
        illegalTransitionKey: a.illegalTransitionKey ?? 'error.illegalTransition',
        internal: !!a.internal,
        ...(a.upload ? { upload: { rule: a.upload.rule, template: !!a.upload.template } } : {}),
      };
      if (a.upload) {
        const r = rules[a.upload.rule];
        if (!r) err(file, `${p}/upload/rule`, `unknown rule "${a.upload.rule}"`);
        else if (!r.fileTypes) err(file, `${p}/upload/rule`, `rule "${a.upload.rule}" is not a file rule (it has no fileTypes)`);
      }
      if (a.illegalTransitionKey) needKey(file, `${p}/illegalTransitionKey`, a.illegalTransitionKey, `action "${an}"`);
      if (a.successKey) needKey(file, `${p}/successKey`, a.successKey, `action "${an}"`);
      if (!access.buttons[button] && !hasKey(`button.${button}`) && !hasKey(actions[an].labelKey))
        err(file, `${p}/button`, `button "${button}" has no label (expected "button.${button}" in both languages)`);
    }
    entities[name] = {
      name, resource: e.resource, table, labelKey, titleField: e.titleField ?? 'id',
      ...(statusField ? { statusField } : {}),
      versioned, audit,
      ...(e.softDelete ? { softDelete: e.softDelete } : {}),
      scope, claimWarehouseOnly: !!e.claimWarehouseOnly, public: !!e.public,
      ...(e.file ? { file: { rule: e.file.rule, overwriteKey: e.file.overwriteKey ?? [], ...(e.file.onUpload ? { onUpload: { action: e.file.onUpload.action, setParent: e.file.onUpload.setParent ?? {} } } : {}) } } : {}),
      fields, fieldOrder, indexes, defaultSort, access: accessC,
      editableWhen: stateCodes(e.editableWhen, '/editableWhen'),
      deletableWhen: stateCodes(e.deletableWhen, '/deletableWhen'),
      actions,
    };
  }
  // an upload's parent action must exist on the parent, and the fields it sets too
  for (const ent of Object.values(entities)) {
    const ou = ent.file?.onUpload;
    if (!ou) continue;
    const file = rawEntities.get(ent.name)!.f.file;
    const parent = ent.scope.parent ? entities[ent.fields[ent.scope.parent]?.ref ?? ''] : undefined;
    if (!parent) err(file, '/file/onUpload', 'onUpload needs scope.parent (the entity whose action runs)');
    else {
      if (!parent.actions[ou.action]) err(file, '/file/onUpload/action', `unknown action "${ou.action}" of entity "${parent.name}"`);
      for (const f of Object.keys(ou.setParent)) if (!parent.fields[f]) err(file, `/file/onUpload/setParent/${f}`, `unknown field "${f}" of entity "${parent.name}"`);
    }
  }
  // parent scopes must point at entities whose rows can be scoped
  for (const ent of Object.values(entities)) {
    if (ent.scope.parent) {
      const target = ent.fields[ent.scope.parent]?.ref;
      if (target && !entities[target]) err(rawEntities.get(ent.name)!.f.file, '/scope/parent', `parent entity "${target}" is unknown`);
    }
  }

  /* 7. screens */
  const screens: CompiledScreen[] = [];
  const paths = new Map<string, string>();
  const screenNames = new Map<string, string>();
  const allButtons = (ent: CompiledEntity | undefined) => new Set([...Object.keys(access.buttons), ...Object.values(ent?.actions ?? {}).map((a) => a.button)]);
  // screens come from metadata/screens/ and from the "screens" of entity files
  const screenSources: { s: RawScreen; file: string; base: string }[] = [
    ...src.screens.map((f) => ({ s: f.data as RawScreen, file: f.file, base: '' })),
    ...src.entities.flatMap((f) => ((f.data as RawEntity & { screens?: RawScreen[] }).screens ?? []).map((s, i) => ({ s: { resource: (f.data as RawEntity).resource, ...s }, file: f.file, base: `/screens/${i}` }))),
  ];
  const outerErr = err;
  const outerNeedKey = needKey;
  const outerCodeOf = codeOf;
  for (const { s, file, base } of screenSources) {
    // pointers inside an entity file's "screens" start at /screens/<i>
    const err = (fl: string, pointer: string, detail: string) => outerErr(fl, base + pointer, detail);
    const needKey = (fl: string, pointer: string, key: string, what: string) => outerNeedKey(fl, base + pointer, key, what);
    const codeOf = (fl: string, pointer: string, table: string, key: unknown) => outerCodeOf(fl, base + pointer, table, key);
    if (paths.has(s.path)) err(file, '/path', `duplicate route path "${s.path}" (also in ${paths.get(s.path)})`);
    paths.set(s.path, file);
    if (screenNames.has(s.name)) err(file, '/name', `duplicate screen name "${s.name}" (also in ${screenNames.get(s.name)})`);
    screenNames.set(s.name, file);
    needKey(file, '/titleKey', s.titleKey, `screen "${s.name}"`);
    if (s.menu?.group && !menuGroups.has(s.menu.group)) err(file, '/menu/group', `unknown menu group "${s.menu.group}" (expected one of: ${[...menuGroups].join(', ')})`);
    let ent: CompiledEntity | undefined;
    if (s.resource) {
      const en = resources[s.resource];
      if (!en) err(file, '/resource', `unknown resource "${s.resource}" (expected one of: ${Object.keys(resources).join(', ')})`);
      else ent = entities[en];
    }
    const needsResource = (key: string) => {
      if (!s.resource) err(file, `/${key}`, `"${key}" needs the screen to name a resource`);
    };
    const columnOf = (c: RawColumn, pointer: string, e2: CompiledEntity | undefined): CompiledColumn => {
      const c2 = typeof c === 'string' ? { field: c } : c;
      const fd = e2?.fields[c2.field];
      if (e2 && !fd) err(file, pointer, `unknown field "${c2.field}" of entity "${e2.name}" (expected one of: ${e2.fieldOrder.join(', ')})`);
      if (fd?.private) err(file, pointer, `field "${c2.field}" is private and can never be shown`);
      if (c2.labelKey) needKey(file, pointer, c2.labelKey, `column "${c2.field}"`);
      const fmt = c2.format ?? (fd?.type === 'date' ? 'date' : fd?.type === 'datetime' ? 'datetime' : undefined);
      return { field: c2.field, labelKey: c2.labelKey ?? fd?.labelKey ?? c2.field, ...(c2.width ? { width: c2.width } : {}), ...(fmt ? { format: fmt } : {}) };
    };
    const filterOf = (raw: Record<string, unknown> | undefined, pointer: string, e2: CompiledEntity | undefined): Record<string, unknown> => {
      const out: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(raw ?? {})) {
        const fd = e2?.fields[k];
        if (!e2) continue;
        if (!fd) {
          err(file, `${pointer}/${k}`, `unknown field "${k}" of entity "${e2.name}"`);
          continue;
        }
        if (fd.type === 'code' && fd.codeTable) {
          out[k] = Array.isArray(val) ? val.map((x, i) => codeOf(file, `${pointer}/${k}/${i}`, fd.codeTable!, x)) : codeOf(file, `${pointer}/${k}`, fd.codeTable, val);
        } else out[k] = val;
      }
      return out;
    };
    if (s.columns) needsResource('columns');
    if (s.filters) needsResource('filters');
    const columns = (s.columns ?? []).map((c, i) => columnOf(c, `/columns/${i}`, ent));
    const filters: CompiledFilter[] = (s.filters ?? []).map((raw, i) => {
      const fl = typeof raw === 'string' ? { field: raw } : raw;
      const fd = ent?.fields[fl.field];
      if (ent && !fd) err(file, `/filters/${i}`, `unknown field "${fl.field}" of entity "${ent.name}" (expected one of: ${ent.fieldOrder.join(', ')})`);
      const op = fl.op ?? fd?.filter[0] ?? 'eq';
      if (fd && !fd.filter.includes(op)) err(file, `/filters/${i}`, `field "${fl.field}" of entity "${ent!.name}" does not declare the filter "${op}" (it declares: ${fd.filter.join(', ') || 'none'})`);
      return { field: fl.field, op, alwaysOn: !!fl.alwaysOn, labelKey: fd?.labelKey ?? fl.field };
    });
    const btns = allButtons(ent);
    (s.buttons ?? []).forEach((b, i) => {
      if (!btns.has(b)) err(file, `/buttons/${i}`, `unknown button "${b}" (expected one of: ${[...btns].join(', ')})`);
    });
    (s.form ?? []).forEach((fn, i) => {
      const fd = ent?.fields[fn];
      if (ent && !fd) err(file, `/form/${i}`, `unknown field "${fn}" of entity "${ent.name}" (expected one of: ${ent.fieldOrder.join(', ')})`);
      if (fd?.private) err(file, `/form/${i}`, `field "${fn}" is private and can never be shown`);
    });
    if (s.defaultSort && ent) {
      const fd = ent.fields[s.defaultSort.field];
      if (!fd) err(file, '/defaultSort/field', `unknown field "${s.defaultSort.field}" of entity "${ent.name}"`);
      else if (!fd.sort && s.defaultSort.field !== ent.defaultSort.field) err(file, '/defaultSort/field', `field "${fd.name}" is not sortable (declare "sort": true on it)`);
    }
    const related = (s.related ?? []).map((r, i) => {
      const en = resources[r.resource];
      const re = en ? entities[en] : undefined;
      if (!re) err(file, `/related/${i}/resource`, `unknown resource "${r.resource}"`);
      else if (!re.fields[r.target]) err(file, `/related/${i}/target`, `unknown field "${r.target}" of entity "${re.name}"`);
      if (r.source && ent && !ent.fields[r.source]) err(file, `/related/${i}/source`, `unknown field "${r.source}" of entity "${ent.name}"`);
      if (r.titleKey) needKey(file, `/related/${i}/titleKey`, r.titleKey, 'related list');
      return { resource: r.resource, target: r.target, source: r.source ?? 'id', titleKey: r.titleKey ?? re?.labelKey ?? r.resource, columns: r.columns.map((c, j) => columnOf(c, `/related/${i}/columns/${j}`, re)) };
    });
    const tabs = (s.tabs ?? []).map((t, i) => {
      needKey(file, `/tabs/${i}/titleKey`, t.titleKey, `tab "${t.key}"`);
      return { key: t.key, titleKey: t.titleKey, filter: filterOf(t.filter, `/tabs/${i}/filter`, ent) };
    });
    (s.roles ?? []).forEach((r, i) => {
      if (!['sys', 'user', 'admin'].includes(r)) err(file, `/roles/${i}`, `unknown role "${r}" (expected sys, user or admin)`);
    });
    screens.push({
      name: s.name, path: s.path, kind: s.kind, titleKey: s.titleKey, public: !!s.public, roles: s.roles ?? [], hidden: !!s.hidden,
      ...(s.activeMenu ? { activeMenu: s.activeMenu } : {}),
      pinned: !!s.pinned,
      ...(s.menu ? { menu: s.menu } : {}),
      claimWarehouseOnly: !!s.claimWarehouseOnly,
      ...(s.resource ? { resource: s.resource } : {}),
      fixedFilter: filterOf(s.fixedFilter, '/fixedFilter', ent),
      ...(s.defaultSort ? { defaultSort: s.defaultSort } : {}),
      columns, filters, requireFilter: !!s.requireFilter, buttons: s.buttons ?? [], form: s.form ?? [],
      ...(s.editScreen ? { editScreen: s.editScreen } : {}),
      ...(s.listScreen ? { listScreen: s.listScreen } : {}),
      tabs, related,
      ...(s.component ? { component: s.component } : {}),
    });
  }
  for (const [i, s] of screens.entries()) {
    const file = screenSources[i].file;
    const base = screenSources[i].base;
    if (s.editScreen && !screenNames.has(s.editScreen)) err(file, `${base}/editScreen`, `unknown screen "${s.editScreen}"`);
    if (s.listScreen && !screenNames.has(s.listScreen)) err(file, `${base}/listScreen`, `unknown screen "${s.listScreen}"`);
    if (s.activeMenu && !paths.has(s.activeMenu)) err(file, `${base}/activeMenu`, `unknown route path "${s.activeMenu}"`);
  }
  screens.sort((a, b) => a.path.localeCompare(b.path));

  /* 8. catalogues with code labels */
  const catalogues = {} as Catalogues;
  for (const loc of LOCALES) {
    const m: Record<string, string> = {};
    const base = cat.get(loc) ?? new Map<string, string>();
    for (const k of [...base.keys()].sort()) m[k] = base.get(k)!;
    for (const t of Object.values(codeTables).sort((a, b) => a.name.localeCompare(b.name))) {
      m[codeTableLabelKey(t.name)] = t.label[loc];
      for (const val of t.values) m[codeLabelKey(t.name, val.code)] = val.label[loc];
    }
    catalogues[loc] = m;
  }

  const hash = createHash('sha256');
  for (const f of [src.app, src.access, ...src.codes, ...src.rules, ...src.entities, ...src.screens, ...Object.values(src.i18n).flat(), ...src.migrations]) {
    hash.update(f.file);
    hash.update('\0');
    hash.update(f.text);
  }
  if (errors.length) return { model: null, catalogues: null, errors };
  return {
    model: { hash: hash.digest('hex').slice(0, 16), app, access, codeTables, rules, entities, resources, screens },
    catalogues,
    errors,
  };
}
