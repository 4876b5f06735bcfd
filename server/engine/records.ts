/** Rows in, records out: the column list a client may see, and the conversions a database needs (SQLite keeps booleans as 0/1). */
import type { CompiledEntity } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';

const selectCache = new WeakMap<CompiledEntity, string>();
const boolCache = new WeakMap<CompiledEntity, string[]>();

/** `a."notice_id" AS "noticeId", ...` for every non-private field */
export function selectList(e: CompiledEntity, alias = 'a', includePrivate = false): string {
  if (!includePrivate) {
    const hit = selectCache.get(e);
    if (hit) return hit;
  }
  const sql = e.fieldOrder
    .filter((n) => includePrivate || !e.fields[n].private)
    .map((n) => `${alias}.${quote(e.fields[n].column)} AS ${quote(n)}`)
    .join(', ');
  if (!includePrivate) selectCache.set(e, sql);
  return sql;
}

const projectedCache = new WeakMap<readonly string[], string>();

/** The select list of a lean page (codegen/runtime/list-projection.ts): `fields` only, as selectList names them. */
export function selectFields(e: CompiledEntity, fields: readonly string[], alias = 'a'): string {
  let sql = projectedCache.get(fields);
  if (!sql) {
    sql = fields
      .filter((n) => Object.hasOwn(e.fields, n) && !e.fields[n].private)
      .map((n) => `${alias}.${quote(e.fields[n].column)} AS ${quote(n)}`)
      .join(', ');
    projectedCache.set(fields, sql);
  }
  return sql;
}

function boolFields(e: CompiledEntity): string[] {
  let b = boolCache.get(e);
  if (!b) {
    b = e.fieldOrder.filter((n) => e.fields[n].type === 'boolean');
    boolCache.set(e, b);
  }
  return b;
}

/** SQLite keeps booleans as 0/1; records carry true/false. Mutates and returns the row. */
export function toRecord<T extends Record<string, unknown>>(e: CompiledEntity, row: T): T {
  for (const f of boolFields(e)) {
    const v = row[f];
    if (v !== null && v !== undefined) (row as Record<string, unknown>)[f] = v === 1 || v === true;
  }
  return row;
}

export const column = (e: CompiledEntity, field: string): string => quote(e.fields[field].column);

/**
 * The field a client-supplied name refers to, or undefined. Own properties only: a name such as
 * "__proto__" or "constructor" must never resolve to something of Object.prototype.
 */
export const fieldOf = (e: CompiledEntity, name: string) => (Object.hasOwn(e.fields, name) ? e.fields[name] : undefined);
