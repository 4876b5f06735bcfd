/**
 * One validator for every layer: the server checks bodies with it and the admin checks forms with
 * it, against the same generated JSON Schemas. Errors come out as message keys (with their
 * placeholder values), never as English text, so each side translates them into the user's language.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { CompiledMetadata } from './model.ts';
import type { JsonSchema } from './field-schema.ts';
import { fieldErrorOf, type FieldError, type FieldErrors, type KeywordFailure } from './error-keys.ts';

export type { FieldError, FieldErrors };

/** The server's "today" for notBeforeToday; tests may pin it. */
let todayProvider = (): string => new Date().toISOString().slice(0, 10);
export const setToday = (fn: () => string): void => {
  todayProvider = fn;
};
/** "YYYY-MM-DD" as notBeforeToday sees it (compare rules against $today use it too) */
export const today = (): string => todayProvider();

const utf8Length = (s: string): number => new TextEncoder().encode(s).length;
const decimals = (n: number): number => {
  if (!Number.isFinite(n)) return Infinity;
  const s = String(n);
  if (s.includes('e-')) return Number(s.split('e-')[1]);
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
};

export function createAjv(): Ajv {
  // verbose: errors carry the failing keyword's schema value (maxBytes, maxDecimals placeholders)
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, coerceTypes: false, useDefaults: false, removeAdditional: false });
  (addFormats as unknown as (a: Ajv, f: string[]) => void)(ajv, ['date', 'date-time', 'email']);
  ajv.addKeyword({ keyword: 'notBlank', type: 'string', schemaType: 'boolean', validate: (on: boolean, v: string) => !on || v.trim().length > 0 });
  ajv.addKeyword({ keyword: 'maxBytes', type: 'string', schemaType: 'number', validate: (max: number, v: string) => utf8Length(v) <= max });
  ajv.addKeyword({ keyword: 'maxDecimals', type: 'number', schemaType: 'number', validate: (max: number, v: number) => decimals(v) <= max });
  ajv.addKeyword({
    keyword: 'notBeforeToday',
    type: 'string',
    schemaType: 'boolean',
    validate: (on: boolean, v: string) => !on || v.slice(0, 10) >= todayProvider(),
  });
  return ajv;
}

/** An ajv error in the shape both validators share (see error-keys.ts). */
function failureOf(e: ErrorObject): KeywordFailure {
  const p = e.params as Record<string, unknown>;
  const m = /\/properties\/[^/]+\/allOf\/(\d+)\//.exec(e.schemaPath);
  return {
    field: e.instancePath.split('/')[1] ?? '',
    keyword: e.keyword,
    ...(m ? { ruleIndex: Number(m[1]) } : {}),
    ...(p.limit !== undefined ? { limit: Number(p.limit) } : {}),
    schemaValue: e.schema,
    typeName: String(e.keyword === 'format' ? p.format : p.type),
    ...(p.missingProperty !== undefined ? { missing: String(p.missingProperty) } : {}),
    ...(p.additionalProperty !== undefined ? { additional: String(p.additionalProperty) } : {}),
  };
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
      const [field, fe] = fieldErrorOf(failureOf(e), schema, this.meta.rules);
      // the type error of a field explains more than the nested keyword errors that follow it
      if (!(field in out)) out[field] = fe;
    }
    return out;
  }
}
