/**
 * One field (of an entity, or an input of an action): type-specific parts present and valid
 * (maxLength, numeric range, code table, referenced entity, lookup target), rules that apply to its type, filters
 * that fit it, its default as a stored code, its label. Also the engine's own system fields.
 */
import { ptr } from '../load.ts';
import { checkNumericRange } from '../numeric-ranges.ts';
import type { CompiledField, CompiledRule, FieldType } from '../runtime/model.ts';
import type { CompileContext } from './context.ts';
import type { RawField } from './raw.ts';

export const SYSTEM_FIELDS = ['id', 'version', 'createdAt', 'createdBy', 'updatedAt', 'updatedBy'] as const;
export type SystemField = (typeof SYSTEM_FIELDS)[number];
export const snake = (s: string): string => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** What a field may refer to: rules, and the names of every entity (refs may point forward). */
export interface FieldEnv {
  ctx: CompileContext;
  rules: Record<string, CompiledRule>;
  entityNames: ReadonlySet<string>;
}

/** `base`: the pointer of the field's parent (['fields'] or ['actions', a, 'input']). */
export function compileField(env: FieldEnv, file: string, base: string[], entity: string, name: string, f: RawField, labelCandidates: string[]): CompiledField {
  const { ctx, rules } = env;
  const { err } = ctx;
  const p = ptr(...base, name);
  if (f.type === 'string' && !f.maxLength) err(file, p, `string field "${name}" needs a maxLength`);
  // every integer declares its range, every decimal its precision and scale (numeric-ranges.ts)
  checkNumericRange(file, p, base[0] === 'actions' ? `input "${name}" of action "${base[1]}"` : `field "${name}"`, f, err);
  if (f.autoNumber && f.type !== 'string') err(file, `${p}/autoNumber`, `autoNumber is only for string fields`);
  if (f.identifier && f.type !== 'string') err(file, `${p}/identifier`, `identifier is only for string fields (a column as wide as maxLength characters)`);
  if (f.holds && f.type !== 'string') err(file, `${p}/holds`, `holds "${f.holds}" is only for string fields (a user ID is text)`);
  if (f.sessionDefault === 'userId' && f.holds !== 'userId')
    err(file, `${p}/sessionDefault`, `a field filled with the user ID needs "holds": "userId" (screens show the person's name)`);
  if (f.autoNumber && f.maxLength && f.autoNumber.prefix.length + 8 + f.autoNumber.digits > f.maxLength)
    err(file, `${p}/autoNumber`, `prefix + date + ${f.autoNumber.digits} digits do not fit maxLength ${f.maxLength}`);
  if (f.type === 'code') {
    if (!f.codeTable) err(file, p, `code field "${name}" needs a codeTable`);
    else if (!ctx.codeTables[f.codeTable]) ctx.unknown(file, `${p}/codeTable`, 'code table', f.codeTable, Object.keys(ctx.codeTables));
  } else if (f.codeTable) err(file, `${p}/codeTable`, `codeTable is only for code fields`);
  if (f.type === 'ref') {
    if (!f.ref) err(file, p, `ref field "${name}" needs a ref`);
    else if (!env.entityNames.has(f.ref)) ctx.unknown(file, `${p}/ref`, 'entity', f.ref, env.entityNames);
  }
  (f.rules ?? []).forEach((r, i) => {
    const rule = rules[r];
    if (!rule) ctx.unknown(file, `${p}/rules/${i}`, 'rule', r, Object.keys(rules));
    else if (rule.appliesTo && !rule.appliesTo.includes(f.type))
      err(file, `${p}/rules/${i}`, `rule "${r}" applies to ${rule.appliesTo.join('/')} fields, not to ${f.type}`);
  });
  if (f.lookup) {
    // the rest of a lookup is checked against the built model (checks/lookups.ts)
    if (!env.entityNames.has(f.lookup.entity)) ctx.unknown(file, `${p}/lookup/entity`, 'entity', f.lookup.entity, env.entityNames);
    if (!['string', 'code', 'integer'].includes(f.type))
      err(file, `${p}/lookup`, `a lookup is for string, code and integer fields, not ${f.type} (a reference by id is a "ref" field)`);
  }
  let def = f.default;
  if (def !== undefined && f.type === 'code' && f.codeTable && ctx.codeTables[f.codeTable]) def = ctx.codeOf(file, `${p}/default`, f.codeTable, def);
  const filter = f.filter ?? [];
  if (filter.includes('contains') && !['string', 'text'].includes(f.type)) err(file, `${p}/filter`, `"contains" only applies to string and text fields`);
  if (filter.includes('range') && !['integer', 'decimal', 'date', 'datetime'].includes(f.type))
    err(file, `${p}/filter`, `"range" only applies to numbers and dates`);
  return {
    name,
    column: snake(name),
    type: f.type,
    labelKey: ctx.labelOf(file, p, `field "${name}" of ${entity}`, f.labelKey, ...labelCandidates),
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
    ...(f.identifier || f.autoNumber ? { identifier: true } : {}),
    ...(f.autoNumber ? { autoNumber: f.autoNumber } : {}),
    ...(f.holds ? { holds: f.holds } : {}),
    ...(f.sessionDefault ? { sessionDefault: f.sessionDefault } : {}),
    ...(f.lookup
      ? {
          lookup: {
            entity: f.lookup.entity,
            field: f.lookup.field,
            scopedBy: f.lookup.scopedBy ?? {},
            messageKey: f.lookup.messageKey ?? 'validation.lookup',
            // code keys here; entities.ts turns them into stored codes once every field is known
            ...(f.lookup.when ? { when: f.lookup.when } : {}),
            ...(f.lookup.fills ? { fills: f.lookup.fills } : {}),
          },
        }
      : {}),
  };
}

/** id, version and the audit columns the engine writes itself. */
export function systemField(ctx: CompileContext, name: SystemField, entity: string, file: string): CompiledField {
  const type: FieldType = name === 'id' || name === 'version' ? 'integer' : name.endsWith('At') ? 'datetime' : 'string';
  return {
    name,
    column: snake(name),
    type,
    labelKey: ctx.labelOf(file, '', `system field "${name}"`, undefined, `field.${entity}.${name}`, `field.common.${name}`),
    ...(type === 'string' ? { maxLength: 30 } : {}),
    required: false,
    unique: name === 'id',
    readOnly: true,
    createOnly: false,
    private: false,
    rules: [],
    filter: name === 'id' ? ['eq', 'in'] : name.endsWith('At') ? ['range'] : [],
    sort: name === 'id' || name.endsWith('At'),
    search: false,
    system: true,
  };
}
