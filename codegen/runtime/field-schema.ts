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

export interface EntitySchemas {
  record: JsonSchema;
  create: JsonSchema;
  update: JsonSchema;
  actions: Record<string, JsonSchema>;
}

const RULE_KEYWORDS = ['pattern', 'minLength', 'maxLength', 'maxBytes', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'maxDecimals', 'format', 'notBeforeToday'] as const;

export function ruleFragment(rule: CompiledRule): JsonSchema {
  const out: JsonSchema = { $comment: `rule:${rule.name}` };
  for (const k of RULE_KEYWORDS) if (rule[k] !== undefined) out[k] = rule[k];
  return out;
}

function baseType(f: CompiledField, meta: CompiledMetadata): JsonSchema {
  switch (f.type) {
    case 'string':
    case 'text':
      return { type: 'string', ...(f.maxLength ? { maxLength: f.maxLength } : {}) };
    case 'integer':
      return { type: 'integer', ...(f.minimum !== undefined ? { minimum: f.minimum } : {}), ...(f.maximum !== undefined ? { maximum: f.maximum } : {}) };
    case 'decimal':
      return {
        type: 'number',
        ...(f.minimum !== undefined ? { minimum: f.minimum } : {}),
        ...(f.maximum !== undefined ? { maximum: f.maximum } : {}),
        ...(f.scale !== undefined ? { maxDecimals: f.scale } : {}),
        ...(f.precision !== undefined ? { exclusiveMaximum: 10 ** (f.precision - (f.scale ?? 0)) } : {}),
      };
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
  const rules = f.rules.map((r) => ruleFragment(meta.rules[r]));
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
  for (const a of Object.values(e.actions)) {
    const inputProps = Object.fromEntries(a.inputOrder.map((n) => [n, fieldSchema(a.input[n], meta, true)]));
    const required = a.inputOrder.filter((n) => a.input[n].required);
    if (a.to && a.to.length > 1) (inputProps.target as JsonSchema).enum = a.to;
    if (a.bulk || a.collection) inputProps.ids = { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: a.collection ? 0 : 1, maxItems: meta.app.maxPageSize };
    if (e.versioned && !a.collection) inputProps.version = { type: 'integer', minimum: 1 };
    actions[a.name] = { title: `${e.name}_${a.name}_input`, type: 'object', additionalProperties: false, required, properties: inputProps };
  }
  return {
    record,
    create: { title: `${e.name}_create`, type: 'object', additionalProperties: false, required: create.filter((n) => e.fields[n].required && e.fields[n].default === undefined), properties: props(create, true) },
    update: {
      title: `${e.name}_update`,
      type: 'object',
      additionalProperties: false,
      required: e.versioned ? ['version'] : [],
      properties: { ...props(update, true), ...(e.versioned ? { version: { type: 'integer', minimum: 1 } } : {}) },
    },
    actions,
  };
}

export function allSchemas(meta: CompiledMetadata): Record<string, EntitySchemas> {
  return Object.fromEntries(Object.values(meta.entities).map((e) => [e.name, entitySchemas(e, meta)]));
}
