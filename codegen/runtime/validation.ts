/**
 * One validator for every layer: the server checks bodies with it and the admin checks forms with
 * it, against the same generated JSON Schemas. Errors come out as message keys (with their
 * placeholder values), never as English text, so each side translates them into the user's language.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { CompiledMetadata } from './model.ts';
import type { JsonSchema } from './field-schema.ts';

export interface FieldError {
  key: string;
  args?: Record<string, string | number>;
}
export type FieldErrors = Record<string, FieldError>;

/** The server's "today" for notBeforeToday; tests may pin it. */
let todayProvider = (): string => new Date().toISOString().slice(0, 10);
export const setToday = (fn: () => string): void => {
  todayProvider = fn;
};

const utf8Length = (s: string): number => new TextEncoder().encode(s).length;
const decimals = (n: number): number => {
  if (!Number.isFinite(n)) return Infinity;
  const s = String(n);
  if (s.includes('e-')) return Number(s.split('e-')[1]);
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
};

export function createAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false, removeAdditional: false });
  (addFormats as unknown as (a: Ajv, f: string[]) => void)(ajv, ['date', 'date-time', 'email']);
  ajv.addKeyword({ keyword: 'notBlank', type: 'string', schemaType: 'boolean', validate: (on: boolean, v: string) => !on || v.trim().length > 0 });
  ajv.addKeyword({ keyword: 'maxBytes', type: 'string', schemaType: 'number', validate: (max: number, v: string) => utf8Length(v) <= max });
  ajv.addKeyword({ keyword: 'maxDecimals', type: 'number', schemaType: 'number', validate: (max: number, v: number) => decimals(v) <= max });
  ajv.addKeyword({ keyword: 'notBeforeToday', type: 'string', schemaType: 'boolean', validate: (on: boolean, v: string) => !on || v.slice(0, 10) >= todayProvider() });
  return ajv;
}

/** Maps one ajv error to the field it concerns and a message key. */
function mapError(e: ErrorObject, schema: JsonSchema, meta: CompiledMetadata): [string, FieldError] {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'required') return [String(p.missingProperty), { key: 'validation.required' }];
  if (e.keyword === 'additionalProperties') return [String(p.additionalProperty), { key: 'validation.unknownField' }];
  const field = e.instancePath.split('/')[1] ?? '';
  // a failure inside a named rule carries the rule's own message
  const m = /\/properties\/[^/]+\/allOf\/(\d+)\//.exec(e.schemaPath);
  if (m) {
    const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const fragment = (props[field]?.allOf as JsonSchema[] | undefined)?.[Number(m[1])];
    const ruleName = String(fragment?.$comment ?? '').replace(/^rule:/, '');
    const rule = meta.rules[ruleName];
    if (rule) return [field, { key: rule.messageKey, ...(Object.keys(rule.params).length ? { args: rule.params } : {}) }];
  }
  switch (e.keyword) {
    case 'notBlank':
      return [field, { key: 'validation.required' }];
    case 'maxLength':
      return [field, { key: 'validation.maxLength', args: { max: Number(p.limit) } }];
    case 'minLength':
      return [field, { key: 'validation.minLength', args: { min: Number(p.limit) } }];
    case 'maxBytes':
      return [field, { key: 'validation.maxBytes', args: { max: Number(e.schema) } }];
    case 'minimum':
    case 'exclusiveMinimum':
      return [field, { key: 'validation.minimum', args: { min: Number(p.limit) } }];
    case 'maximum':
    case 'exclusiveMaximum':
      return [field, { key: 'validation.maximum', args: { max: Number(p.limit) } }];
    case 'maxDecimals':
      return [field, { key: 'validation.decimals', args: { digits: Number(e.schema) } }];
    case 'enum':
      return [field, { key: 'validation.code' }];
    case 'format':
      return [field, { key: p.format === 'date' ? 'validation.date' : p.format === 'date-time' ? 'validation.datetime' : 'validation.invalid' }];
    case 'type': {
      const t = String(p.type).split(',')[0];
      return [field, { key: t === 'integer' ? 'validation.integer' : t === 'number' ? 'validation.number' : t === 'boolean' ? 'validation.boolean' : 'validation.string' }];
    }
    default:
      return [field, { key: 'validation.invalid' }];
  }
}

export class SchemaValidator {
  private readonly ajv = createAjv();
  private readonly cache = new WeakMap<JsonSchema, ValidateFunction>();
  constructor(private readonly meta: CompiledMetadata) {}

  /** null when valid; otherwise the first error of each field */
  validate(schema: JsonSchema, data: unknown): FieldErrors | null {
    let fn = this.cache.get(schema);
    if (!fn) {
      fn = this.ajv.compile(schema);
      this.cache.set(schema, fn);
    }
    if (fn(data)) return null;
    const out: FieldErrors = {};
    for (const e of fn.errors ?? []) {
      const [field, fe] = mapError(e, schema, this.meta);
      // the type error of a field explains more than the nested keyword errors that follow it
      if (!(field in out)) out[field] = fe;
    }
    return out;
  }
}
