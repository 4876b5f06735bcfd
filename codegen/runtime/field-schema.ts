/**
 * JSON Schemas for records, create/update bodies and action inputs, built from the compiled
 * model. Codegen emits them; the server (ajv) and the admin forms validate with the very same
 * documents, so a rule is written once, in metadata/rules.
 *
 * Each named rule becomes one item of the field's `allOf`, tagged with `$comment: "rule:<name>"`,
 * so a failure can be traced back to the rule and its message key (see validation.ts).
 */
import type { CompiledEntity, CompiledField, CompiledMetadata, CompiledRule } from './model.ts';

export type JsonSchema = Record<string, unknown>;

/** The rule the engine gives every field of type string (single-line text; `text` is multi-line). */
export const SINGLE_LINE_RULE = 'singleLine';

export interface EntitySchemas {
  record: JsonSchema;
  create: JsonSchema;
  update: JsonSchema;
  actions: Record<string, JsonSchema>;
  /**
   * Actions with per-record inputs: the complete input of ONE record (the body's shared values
   * merged with the record's entry of `perRecord`), which the engine checks for every record and
   * the dialog's grid for every row.
   */
  recordInputs?: Record<string, JsonSchema>;
}

/** `not` (a rule's `"not": { "const": n }`, e.g. nonZero) is standard JSON Schema; validate-lite interprets it too. */
const RULE_KEYWORDS = [
  'pattern',
  'minLength',
  'maxLength',
  'maxBytes',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'maxDecimals',
  'format',
  'notBeforeToday',
  'not',
] as const;

export function ruleFragment(rule: CompiledRule): JsonSchema {
  const out: JsonSchema = { $comment: `rule:${rule.name}` };
  const r = rule as unknown as Record<string, unknown>;
  for (const k of RULE_KEYWORDS) if (r[k] !== undefined) out[k] = r[k];
  return out;
}

/** The largest integer a JavaScript number (and so JSON, ajv and the admin) holds exactly: 2^53-1. */
export const MAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER;
/** Decimal digits a double always keeps exactly (a NUMERIC(p, s) read into a number must round-trip). */
export const MAX_DECIMAL_PRECISION = 15;

/** The largest magnitude a decimal of `precision` digits, `scale` of them after the point, holds: 999999999999.99 for (14, 2). */
export function decimalLimit(precision: number, scale: number): number {
  const whole = '9'.repeat(Math.max(0, precision - scale)) || '0';
  return Number(scale > 0 ? `${whole}.${'9'.repeat(scale)}` : whole);
}

/**
 * The declared range of a numeric field: an integer's minimum and maximum, a decimal's minimum and
 * maximum or else what its precision and scale hold. Null for other types (and for the engine's own
 * id and version columns, which declare none). Validation, the forms and the DDL's CHECK all follow it.
 */
export function numericRange(f: { type: string; minimum?: number; maximum?: number; precision?: number; scale?: number }): { min: number; max: number } | null {
  if (f.type === 'integer') return f.minimum !== undefined && f.maximum !== undefined ? { min: f.minimum, max: f.maximum } : null;
  if (f.type === 'decimal' && f.precision !== undefined) {
    const limit = decimalLimit(f.precision, f.scale ?? 0);
    return { min: f.minimum ?? -limit, max: f.maximum ?? limit };
  }
  return null;
}

function baseType(f: CompiledField, meta: CompiledMetadata): JsonSchema {
  switch (f.type) {
    case 'string':
    case 'text':
      return { type: 'string', ...(f.maxLength ? { maxLength: f.maxLength } : {}) };
    case 'integer':
      return { type: 'integer', ...(f.minimum !== undefined ? { minimum: f.minimum } : {}), ...(f.maximum !== undefined ? { maximum: f.maximum } : {}) };
    case 'decimal': {
      // the range follows from precision and scale unless a narrower one is declared
      const r = numericRange(f);
      return {
        type: 'number',
        ...(r ? { minimum: r.min, maximum: r.max } : {}),
        ...(f.scale !== undefined ? { maxDecimals: f.scale } : {}),
      };
    }
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'code':
      return { type: 'string', enum: meta.codeTables[f.codeTable!].values.map((v) => v.code) };
    case 'ref':
      return { type: 'integer', minimum: 1 };
  }
}

/** The schema of one writable field; `forWrite` adds the not-blank rule of required strings. */
export function fieldSchema(f: CompiledField, meta: CompiledMetadata, forWrite: boolean): JsonSchema {
  const s = baseType(f, meta);
  if (forWrite && f.required && (f.type === 'string' || f.type === 'text')) s.notBlank = true;
  // every single-line string refuses control characters and bidirectional overrides (metadata/rules/text.json)
  const engineRules = f.type === 'string' && meta.rules[SINGLE_LINE_RULE] ? [SINGLE_LINE_RULE] : [];
  const rules = [...engineRules, ...f.rules].map((r) => ruleFragment(meta.rules[r]));
  if (rules.length) s.allOf = rules;
  if (!f.required || !forWrite) {
    s.type = [s.type as string, 'null'];
    if (s.enum) s.enum = [...(s.enum as unknown[]), null];
  }
  return s;
}

/** Fields a client may send on create: declared, not read-only. */
export const creatableFields = (e: CompiledEntity): string[] => e.fieldOrder.filter((n) => !e.fields[n].system && !e.fields[n].readOnly);
/** Fields a client may change on update: creatable minus create-only. */
export const updatableFields = (e: CompiledEntity): string[] => creatableFields(e).filter((n) => !e.fields[n].createOnly);
/** Fields a client may see. */
export const visibleFields = (e: CompiledEntity): string[] => e.fieldOrder.filter((n) => !e.fields[n].private);

export function entitySchemas(e: CompiledEntity, meta: CompiledMetadata): EntitySchemas {
  const props = (names: string[], forWrite: boolean) => Object.fromEntries(names.map((n) => [n, fieldSchema(e.fields[n], meta, forWrite)]));
  const create = creatableFields(e);
  const update = updatableFields(e);
  const record: JsonSchema = {
    title: e.name,
    type: 'object',
    additionalProperties: false,
    required: visibleFields(e).filter((n) => e.fields[n].system && n !== 'createdBy' && n !== 'updatedBy'),
    properties: Object.fromEntries(visibleFields(e).map((n) => [n, fieldSchema(e.fields[n], meta, false)])),
  };
  const actions: Record<string, JsonSchema> = {};
  const recordInputs: Record<string, JsonSchema> = {};
  for (const a of Object.values(e.actions)) {
    const inputProps = Object.fromEntries(a.inputOrder.map((n) => [n, fieldSchema(a.input[n], meta, true)]));
    const required = a.inputOrder.filter((n) => a.input[n].required);
    if (a.to && a.to.length > 1) (inputProps.target as JsonSchema).enum = a.to;
    if (a.perRecord) {
      recordInputs[a.name] = {
        title: `${e.name}_${a.name}_record_input`,
        type: 'object',
        additionalProperties: false,
        required: [...required],
        properties: { ...inputProps },
      };
    }
    // a per-record input may come in perRecord instead: whether every record has one is checked
    // per record, against recordInputs (each entry's values are checked there too)
    const perRecord = new Set(a.perRecord?.fields ?? []);
    const sharedRequired = required.filter((n) => !perRecord.has(n));
    if (a.perRecord) inputProps.perRecord = { type: 'object' };
    if (a.bulk || a.collection)
      inputProps.ids = { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: a.collection ? 0 : 1, maxItems: meta.app.maxPageSize };
    if (e.versioned && !a.collection) inputProps.version = { type: 'integer', minimum: 1 };
    actions[a.name] = { title: `${e.name}_${a.name}_input`, type: 'object', additionalProperties: false, required: sharedRequired, properties: inputProps };
  }
  return {
    record,
    create: {
      title: `${e.name}_create`,
      type: 'object',
      additionalProperties: false,
      required: create.filter((n) => e.fields[n].required && e.fields[n].default === undefined),
      properties: props(create, true),
    },
    update: {
      title: `${e.name}_update`,
      type: 'object',
      additionalProperties: false,
      required: e.versioned ? ['version'] : [],
      properties: { ...props(update, true), ...(e.versioned ? { version: { type: 'integer', minimum: 1 } } : {}) },
    },
    actions,
    ...(Object.keys(recordInputs).length ? { recordInputs } : {}),
  };
}

/**
 * A copy of a schema without `notBeforeToday`, the one keyword judged against the clock: demo data
 * (server/seed/generic.ts, codegen's check of seed hints) lives on the demo's own calendar.
 */
export function withoutClock(s: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'notBeforeToday') continue;
    out[k] = Array.isArray(v)
      ? v.map((x) => (x && typeof x === 'object' ? withoutClock(x as JsonSchema) : x))
      : v && typeof v === 'object'
        ? withoutClock(v as JsonSchema)
        : v;
  }
  return out;
}

export function allSchemas(meta: CompiledMetadata): Record<string, EntitySchemas> {
  return Object.fromEntries(Object.values(meta.entities).map((e) => [e.name, entitySchemas(e, meta)]));
}
