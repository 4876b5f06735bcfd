/**
 * The checks behind the generic demo-data generator (server/seed/generic.ts), run by compile.ts:
 *  - a rule with a `pattern` lists `examples` that pass it (the generator cannot invent a value
 *    for an arbitrary regular expression; it varies the digits of the examples instead), and every
 *    example of every rule passes the rule;
 *  - an entity's optional `seed` hint names its own fields, gives values that pass their
 *    validation (code fields: code keys, turned into stored codes here) and ranges that lie inside
 *    the field's own range.
 */
import { createAjv } from './runtime/validation.ts';
import { fieldSchema, numericRange, ruleFragment, withoutClock, type JsonSchema } from './runtime/field-schema.ts';
import { SEED_DAYS, type CompiledCodeTable, type CompiledField, type CompiledMetadata, type CompiledRule, type CompiledSeedHint } from './runtime/model.ts';
import { ptr } from './load.ts';

type Report = (file: string, pointer: string, detail: string) => void;

export interface RawSeedHint {
  rows?: number;
  files?: number;
  values?: Record<string, unknown[]>;
  ranges?: Record<string, { min: number; max: number }>;
}

const ajv = createAjv();
/** compiled once per distinct schema (watch mode compiles the same rules again and again) */
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
function passes(schema: JsonSchema, value: unknown): boolean {
  const key = JSON.stringify(schema);
  let fn = compiled.get(key);
  if (!fn) compiled.set(key, (fn = ajv.compile(withoutClock(schema))));
  return fn(value) as boolean;
}

export function checkRuleExamples(file: string, rule: CompiledRule, err: Report): void {
  const p = ptr('rules', rule.name);
  if (rule.pattern && !rule.examples?.length) {
    err(
      file,
      p,
      `rule "${rule.name}" has a pattern but no "examples": list a few values that pass it (the demo-data generator and the metadata reference use them)`,
    );
  }
  const fragment = ruleFragment(rule);
  (rule.examples ?? []).forEach((x, i) => {
    if (!passes(fragment, x)) err(file, `${p}/examples/${i}`, `example ${JSON.stringify(x)} does not pass rule "${rule.name}"`);
  });
}

/**
 * Compiles an entity's `seed` hint. `meta` needs only the rules and code tables (the entity itself
 * is still being compiled).
 */
export function compileSeedHint(
  file: string,
  raw: RawSeedHint,
  fields: Record<string, CompiledField>,
  meta: { rules: Record<string, CompiledRule>; codeTables: Record<string, CompiledCodeTable> },
  codeOf: (file: string, pointer: string, table: string, key: unknown) => string,
  err: Report,
): CompiledSeedHint {
  const field = (name: string, pointer: string): CompiledField | null => {
    const f = fields[name];
    if (!f)
      err(
        file,
        pointer,
        `unknown field "${name}" (expected one of: ${Object.keys(fields)
          .filter((n) => !fields[n].system)
          .join(', ')})`,
      );
    else if (f.system) err(file, pointer, `"${name}" is filled by the engine; the demo data cannot choose it`);
    else return f;
    return null;
  };
  const values: Record<string, unknown[]> = {};
  for (const [name, pool] of Object.entries(raw.values ?? {})) {
    const p = ptr('seed', 'values', name);
    const f = field(name, p);
    if (!f) continue;
    const stored = f.type === 'code' && f.codeTable ? pool.map((k, i) => codeOf(file, `${p}/${i}`, f.codeTable!, k)) : pool;
    const schema = fieldSchema(f, meta as CompiledMetadata, true);
    stored.forEach((v, i) => {
      if (f.type === 'code') return; // codeOf has judged it
      if (!passes(schema, v)) err(file, `${p}/${i}`, `value ${JSON.stringify(v)} does not pass the validation of ${f.type} field "${name}"`);
    });
    values[name] = stored;
  }
  const ranges: Record<string, { min: number; max: number }> = {};
  for (const [name, r] of Object.entries(raw.ranges ?? {})) {
    const p = ptr('seed', 'ranges', name);
    const f = field(name, p);
    if (!f) continue;
    if (r.min > r.max) err(file, p, `min ${r.min} is greater than max ${r.max}`);
    if (f.type === 'integer' || f.type === 'decimal') {
      const own = numericRange(f);
      if (own && (r.min < own.min || r.max > own.max)) err(file, p, `range ${r.min} to ${r.max} leaves the field's own range ${own.min} to ${own.max}`);
      if (f.type === 'integer' && (!Number.isInteger(r.min) || !Number.isInteger(r.max))) err(file, p, `an integer field's range takes whole numbers`);
    } else if (f.type === 'date' || f.type === 'datetime') {
      if (!Number.isInteger(r.min) || !Number.isInteger(r.max)) err(file, p, `a date range is whole days relative to the demo's today`);
      else if (r.min < SEED_DAYS.min || r.max > SEED_DAYS.max)
        err(
          file,
          p,
          `day offsets ${r.min} to ${r.max} leave the demo calendar: field "${name}" can draw from ${SEED_DAYS.min} to ${SEED_DAYS.max} days relative to the demo's today`,
        );
    } else err(file, p, `ranges apply to numbers, dates and datetimes, not to ${f.type} field "${name}"`);
    ranges[name] = { min: r.min, max: r.max };
  }
  return { ...(raw.rows !== undefined ? { rows: raw.rows } : {}), ...(raw.files ? { files: raw.files } : {}), values, ranges };
}
