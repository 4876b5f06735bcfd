/**
 * A tiny JSON-Schema interpreter for the browser. The server validates with ajv (validation.ts),
 * which compiles schemas to code with `new Function`; the admin is served with a CSP that forbids
 * eval, so ajv cannot run there. This module interprets exactly the subset of JSON Schema that
 * field-schema.ts generates and answers the SAME FieldErrors (same field, same message key, same
 * placeholder values) as SchemaValidator, so a form refuses exactly what the server would refuse.
 *
 * Why not ajv's standalone mode (schemas compiled to modules at build time, no eval): the admin gets
 * the schemas as data from GET /api/meta after login (admin/src/providers/sessionMetadata.ts), so that
 * the public bundle carries no entity; compiled validators would have to ship in that bundle.
 *
 * "Same" includes which error wins when a field breaks several keywords: SchemaValidator keeps the
 * first ajv error per field, so the evaluation order below mirrors ajv 8's generated code:
 *   1. an up-front type check, unless the schema has a single type whose keyword group is used
 *      (then the type error is reported in that group's "else" branch, after the untyped group);
 *   2. the untyped group: const, enum, not, then allOf (named rules, "$comment": "rule:<name>");
 *   3. the typed groups number, string, array, object, each in ajv's keyword registration order,
 *      custom keywords (notBlank, maxBytes, maxDecimals, notBeforeToday) last in their group.
 * tests/codegen/validate-lite.test.ts checks the two agree on random input (fast-check).
 */
import { fieldErrorOf, type FieldError, type FieldErrors, type KeywordFailure, type RuleCatalogue } from './error-keys.ts';
import type { JsonSchema } from './field-schema.ts';

export type { FieldError, FieldErrors, RuleCatalogue };

/** The compiled rules the `$comment: "rule:<name>"` tags point at (only messageKey and params matter). */

/** "Today" for notBeforeToday: UTC like the server's default; tests pin it with setLiteToday. */
let todayProvider = (): string => new Date().toISOString().slice(0, 10);
export const setLiteToday = (fn: () => string): void => {
  todayProvider = fn;
};
/** "YYYY-MM-DD" as the browser's notBeforeToday sees it (the forms' compare rules against $today use it too) */
export const liteToday = (): string => todayProvider();

// ---- keyword groups, in ajv 8 registration order (draft-07 vocabularies, then our custom ones) ----
type Group = 'number' | 'string' | 'array' | 'object';
const GROUPS: Record<Group, readonly string[]> = {
  number: ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'format', 'maxDecimals'],
  string: ['maxLength', 'minLength', 'pattern', 'format', 'notBlank', 'maxBytes', 'notBeforeToday'],
  array: ['maxItems', 'minItems', 'uniqueItems', 'items'],
  object: ['maxProperties', 'minProperties', 'required', 'additionalProperties', 'properties'],
};
const GROUP_ORDER: readonly Group[] = ['number', 'string', 'array', 'object'];

// ---- primitive checks, copied in behaviour from ajv / ajv-formats ("full" formats) ----
/** ajv's type test with strictNumbers off (our createAjv sets strict: false) */
function isType(t: string, d: unknown): boolean {
  switch (t) {
    case 'null':
      return d === null;
    case 'array':
      return Array.isArray(d);
    case 'object':
      return !!d && typeof d === 'object' && !Array.isArray(d);
    case 'integer':
      return typeof d === 'number' && !(d % 1) && !Number.isNaN(d);
    case 'number':
      return typeof d === 'number';
    default:
      return typeof d === t;
  }
}
const isAnyType = (types: string[], d: unknown): boolean => types.some((t) => isType(t, d));

/** code points, as ajv's ucs2length counts them */
const ucs2length = (s: string): number => [...s].length;
const utf8Length = (s: string): number => new TextEncoder().encode(s).length;
function decimals(n: number): number {
  if (!Number.isFinite(n)) return Infinity;
  const s = String(n);
  if (s.includes('e-')) return Number(s.split('e-')[1]);
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
}

const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (y: number): boolean => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
function isDate(str: string): boolean {
  const m = /^(\d\d\d\d)-(\d\d)-(\d\d)$/.exec(str);
  if (!m) return false;
  const year = +m[1];
  const month = +m[2];
  const day = +m[3];
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month]);
}
function isTime(str: string): boolean {
  const m = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i.exec(str);
  if (!m) return false;
  const hr = +m[1];
  const min = +m[2];
  const sec = +m[3];
  const tz = m[4];
  const tzSign = m[5] === '-' ? -1 : 1;
  const tzH = +(m[6] || 0);
  const tzM = +(m[7] || 0);
  // date-time uses the strict time zone variant: a zone is mandatory
  if (tzH > 23 || tzM > 59 || !tz) return false;
  if (hr <= 23 && min <= 59 && sec < 60) return true;
  const utcMin = min - tzM * tzSign;
  const utcHr = hr - tzH * tzSign - (utcMin < 0 ? 1 : 0);
  return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
}
function isDateTime(str: string): boolean {
  const parts = str.split(/t|\s/i);
  return parts.length === 2 && isDate(parts[0]) && isTime(parts[1]);
}
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
/** only the formats createAjv registers; any other format is ignored, as ajv does with strict off */
const STRING_FORMATS: Record<string, (s: string) => boolean> = { date: isDate, 'date-time': isDateTime, email: (s) => EMAIL.test(s) };

const patternCache = new Map<string, RegExp>();
function regex(p: string): RegExp {
  let r = patternCache.get(p);
  if (!r) {
    r = new RegExp(p, 'u');
    patternCache.set(p, r);
  }
  return r;
}

// ---- evaluation ----
/** An error as ajv would report it, reduced to what SchemaValidator's mapping reads. */
type RawError = KeywordFailure;

interface Ctx {
  field: string;
  /** true while evaluating the schema of a top-level property (its allOf items are named rules) */
  atProperty: boolean;
  ruleIndex?: number;
  out: RawError[];
}

const has = (s: JsonSchema, k: string): boolean => s[k] !== undefined;
const push = (c: Ctx, e: Omit<RawError, 'field' | 'ruleIndex'>): void => {
  c.out.push({ field: c.field, ...(c.ruleIndex !== undefined ? { ruleIndex: c.ruleIndex } : {}), ...e });
};

function evalSchema(s: JsonSchema, d: unknown, c: Ctx): void {
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  const groupUsed = (g: Group): boolean => GROUPS[g].some((k) => has(s, k));
  const single = types.length === 1 ? types[0] : undefined;
  // ajv checks the type up front unless a single type's own keyword group will report it
  const checkedUpFront = types.length > 0 && !(single !== undefined && single in GROUPS && groupUsed(single as Group));
  const typeName = Array.isArray(s.type) ? (s.type as string[]).join(',') : String(s.type);
  if (checkedUpFront && !isAnyType(types, d)) push(c, { keyword: 'type', typeName });

  // untyped group (ajv's order: const, enum, not, allOf)
  if (has(s, 'const') && !deepEqual(d, s.const)) push(c, { keyword: 'const' });
  if (has(s, 'enum') && !(s.enum as unknown[]).some((v) => (typeof v === 'object' && v !== null ? deepEqual(d, v) : d === v))) push(c, { keyword: 'enum' });
  if (has(s, 'not')) {
    // a rule's { "not": { "const": 0 } } (nonZero): fails when the inner schema passes
    const inner: RawError[] = [];
    evalSchema(s.not as JsonSchema, d, { ...c, atProperty: false, out: inner });
    if (!inner.length) push(c, { keyword: 'not' });
  }
  if (has(s, 'allOf')) {
    (s.allOf as JsonSchema[]).forEach((sub, i) => evalSchema(sub, d, { ...c, atProperty: false, ruleIndex: c.atProperty ? i : c.ruleIndex }));
  }

  for (const g of GROUP_ORDER) {
    if (!groupUsed(g)) continue;
    if (!isType(g, d)) {
      if (single === g && !checkedUpFront) push(c, { keyword: 'type', typeName });
      continue;
    }
    for (const k of GROUPS[g]) if (has(s, k)) keyword(g, k, s, d, c);
  }
}

function keyword(g: Group, k: string, s: JsonSchema, d: unknown, c: Ctx): void {
  const v = s[k];
  if (g === 'number') {
    const n = d as number;
    const lim = v as number;
    switch (k) {
      case 'maximum':
        if (n > lim || Number.isNaN(n)) push(c, { keyword: k, limit: lim });
        return;
      case 'minimum':
        if (n < lim || Number.isNaN(n)) push(c, { keyword: k, limit: lim });
        return;
      case 'exclusiveMaximum':
        if (n >= lim || Number.isNaN(n)) push(c, { keyword: k, limit: lim });
        return;
      case 'exclusiveMinimum':
        if (n <= lim || Number.isNaN(n)) push(c, { keyword: k, limit: lim });
        return;
      case 'multipleOf': {
        const res = n / lim;
        if (lim === 0 || res !== parseInt(String(res))) push(c, { keyword: k, limit: lim });
        return;
      }
      case 'maxDecimals':
        if (!(decimals(n) <= lim)) push(c, { keyword: k, schemaValue: lim });
        return;
      default:
        return; // format: our formats are string formats, a no-op on numbers
    }
  }
  if (g === 'string') {
    const str = d as string;
    switch (k) {
      case 'maxLength':
        if (ucs2length(str) > (v as number)) push(c, { keyword: k, limit: v as number });
        return;
      case 'minLength':
        if (ucs2length(str) < (v as number)) push(c, { keyword: k, limit: v as number });
        return;
      case 'pattern':
        if (!regex(v as string).test(str)) push(c, { keyword: k });
        return;
      case 'format': {
        const f = STRING_FORMATS[v as string];
        if (f && !f(str)) push(c, { keyword: k, typeName: v as string });
        return;
      }
      case 'notBlank':
        if (v && str.trim().length === 0) push(c, { keyword: k });
        return;
      case 'maxBytes':
        if (!(utf8Length(str) <= (v as number))) push(c, { keyword: k, schemaValue: v });
        return;
      case 'notBeforeToday':
        if (v && !(str.slice(0, 10) >= todayProvider())) push(c, { keyword: k });
        return;
      default:
        return;
    }
  }
  if (g === 'array') {
    const arr = d as unknown[];
    switch (k) {
      case 'maxItems':
        if (arr.length > (v as number)) push(c, { keyword: k, limit: v as number });
        return;
      case 'minItems':
        if (arr.length < (v as number)) push(c, { keyword: k, limit: v as number });
        return;
      case 'uniqueItems':
        if (v && arr.some((x, i) => arr.findIndex((y) => deepEqual(x, y)) !== i)) push(c, { keyword: k });
        return;
      case 'items':
        // items errors keep the array's field (SchemaValidator maps by the first path segment)
        if (v && typeof v === 'object' && !Array.isArray(v)) arr.forEach((x) => evalSchema(v as JsonSchema, x, { ...c, atProperty: false }));
        return;
      default:
        return;
    }
  }
  // object group: only ever the top-level body
  const obj = d as Record<string, unknown>;
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  switch (k) {
    case 'required':
      for (const p of s.required as string[]) if (obj[p] === undefined) c.out.push({ field: p, keyword: k, missing: p });
      return;
    case 'additionalProperties':
      if (v === false) {
        for (const key in obj) if (!Object.prototype.hasOwnProperty.call(props, key)) c.out.push({ field: key, keyword: k, additional: key });
      }
      return;
    case 'properties':
      for (const p of Object.keys(props)) {
        if (p === '__proto__' || obj[p] === undefined) continue;
        evalSchema(props[p], obj[p], { field: c.field === '' ? p : c.field, atProperty: c.field === '', out: c.out });
      }
      return;
    default:
      return;
  }
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a as object);
    const kb = Object.keys(b as object);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a !== a && b !== b; // NaN equals NaN for fast-deep-equal
}

/** Validates `data` against one generated schema: null when valid, else the first error of each field. */
export function validateLite(schema: JsonSchema, data: unknown, rules: RuleCatalogue): FieldErrors | null {
  const raw: RawError[] = [];
  evalSchema(schema, data, { field: '', atProperty: false, out: raw });
  if (!raw.length) return null;
  const out: FieldErrors = {};
  for (const e of raw) {
    const [field, fe] = fieldErrorOf(e, schema, rules);
    // same precedence rule as SchemaValidator (including its use of `in`)
    if (!(field in out)) out[field] = fe;
  }
  return out;
}

/** Drop-in counterpart of SchemaValidator for code that holds the metadata. */
export class LiteValidator {
  constructor(private readonly meta: { rules: RuleCatalogue }) {}
  validate(schema: JsonSchema, data: unknown): FieldErrors | null {
    return validateLite(schema, data, this.meta.rules);
  }
}
