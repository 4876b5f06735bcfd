/**
 * A list page as JSON built by the database itself: the page statement of Engine.listStatements
 * wrapped in a query that returns one row, `{ body, n }`, where `body` is the page's JSON array
 * as text (sent as is: no row objects in JavaScript, no serialiser) and `n` the number of rows (a
 * full page still needs the bounded count, as Engine.list does).
 *
 * The text is meant to be byte for byte what the generic route sends for the same page (records
 * through Fastify's response-schema serialiser): keys in field order, booleans as true/false,
 * numbers as numbers, null for nulls. Per dialect that takes:
 *  - SQLite: json_group_array(json_object(...)). Booleans are stored 0/1 and become JSON
 *    true/false through json('true')/json('false'), written inside json_object's own argument list
 *    (a JSON subtype does not survive a subquery column). A REAL that holds a whole number prints
 *    as `2.0` in SQLite's JSON and `2` in JavaScript: decimals are cast to INTEGER when whole.
 *  - PostgreSQL: row_to_json per row, joined by string_agg with ',' (json_agg would put ", \n "
 *    between rows: the same JSON, not the same bytes). TIMESTAMPTZ becomes the ISO text the driver
 *    gives the engine (`2026-11-22T10:00:00.000Z`, not row_to_json's `+00:00` form), NUMERIC a
 *    float8, which prints as JavaScript prints the Number the driver makes of it (`1.5`, not
 *    `1.5000`). Microseconds are cut to milliseconds on both paths (to_char's MS, Date).
 * Left as they are (same value, not the same bytes): numbers JavaScript writes in exponent form
 * (1e21, 1e-7; SQLite writes 1.0e+21, PostgreSQL 1e-07).
 *
 * The rows are aggregated in the order the page's subquery delivers them (its ORDER BY ... LIMIT):
 * neither database reorders the rows of a subquery feeding a single aggregate without GROUP BY
 * (PostgREST builds its answers the same way). The bench checks the bytes against the generic
 * route on every declared list query (tests/bench/steps.ts, JSON check).
 *
 * Private fields never appear: the page statement selects visible fields only (selectList), or a
 * lean page's fields (selectFields, the screen's projection).
 */
import type { CompiledEntity, CompiledField } from '../../codegen/runtime/model.ts';
import { quote, type Dialect } from '../../codegen/runtime/dialect.ts';
import type { Engine, ListStatements } from './engine.ts';
import type { SqlPart } from './access.ts';
import type { Queryable } from '../db/types.ts';
import type { Principal } from './principal.ts';
import { COUNT_LOOKAHEAD, contentRange } from './query.ts';
import { recordKeys } from './json-types.ts';

/** One field of row `t` as a SQLite JSON value that prints like the generic route's. */
function sqliteValue(f: CompiledField): string {
  const c = `t.${quote(f.name)}`;
  switch (f.type) {
    case 'boolean':
      return `CASE WHEN ${c} IS NULL THEN NULL WHEN ${c} = 1 THEN json('true') ELSE json('false') END`;
    case 'decimal':
      return `CASE WHEN ${c} = CAST(${c} AS INTEGER) THEN CAST(${c} AS INTEGER) ELSE ${c} END`;
    default:
      return c;
  }
}

/** One field of row `t` as a PostgreSQL column whose row_to_json form matches the generic route's. */
function postgresColumn(f: CompiledField): string {
  const c = `t.${quote(f.name)}`;
  switch (f.type) {
    case 'datetime':
      return `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ${quote(f.name)}`;
    case 'decimal':
      return `${c}::float8 AS ${quote(f.name)}`;
    default:
      return c;
  }
}

const cache = new WeakMap<CompiledEntity, Map<string, string>>();
const projectedCache = new WeakMap<readonly string[], Map<string, string>>();

/**
 * The projection part of the JSON query, per entity (or lean page's `names`) and dialect (the page
 * SQL varies, this does not).
 */
function projection(e: CompiledEntity, d: Dialect, names?: readonly string[]): string {
  let byDialect = names ? projectedCache.get(names) : cache.get(e);
  if (!byDialect) {
    byDialect = new Map();
    if (names) projectedCache.set(names, byDialect);
    else cache.set(e, byDialect);
  }
  let p = byDialect.get(d.name);
  if (!p) {
    // a lean page's keys: its fields, and the names of the people its fields hold
    const keys = recordKeys(e).filter((k) => !names || names.includes(k.field ? k.key : k.nameOf));
    p =
      d.name === 'sqlite'
        ? `json_object(${keys.map((k) => `'${k.key}', ${k.field ? sqliteValue(k.field) : `t.${quote(k.key)}`}`).join(', ')})`
        : keys.map((k) => (k.field ? postgresColumn(k.field) : `t.${quote(k.key)}`)).join(', ');
    byDialect.set(d.name, p);
  }
  return p;
}

/**
 * The statement that returns the page of `st` as one row `{ body: string, n: number }`, with the
 * page statement's own parameters.
 */
export function listJsonStatement(st: Pick<ListStatements, 'page'>, e: CompiledEntity, d: Dialect, fields?: readonly string[]): SqlPart {
  const page = st.page.sql;
  const sql =
    d.name === 'sqlite'
      ? `SELECT json_group_array(${projection(e, d, fields)}) AS body, COUNT(*) AS n FROM (${page}) t`
      : // ::text: node-postgres would parse a json column back into objects
        `SELECT COALESCE('[' || string_agg(row_to_json(j)::text, ',') || ']', '[]') AS body, COUNT(*) AS n FROM (SELECT ${projection(e, d, fields)} FROM (${page}) t) j`;
  return { sql, params: st.page.params };
}

/** A list page as the database wrote it, and what Content-Range needs. */
export interface JsonPage {
  /** the JSON array of the page's records, as text or its UTF-8 bytes */
  body: string | Buffer;
  /** records in `body` */
  count: number;
  total: number;
  totalIsLowerBound: boolean;
  start: number;
  end: number;
}

/**
 * Engine.list's page as JSON, written by `write` from the page statement: the same statements,
 * scope and checks (listStatements), the same bounded count, the same answer.
 */
export async function jsonPage(
  engine: Engine,
  p: Principal | null,
  e: CompiledEntity,
  query: Record<string, unknown>,
  fields: readonly string[] | undefined,
  write: (st: ListStatements) => Promise<{ body: string | Buffer; count: number }>,
): Promise<JsonPage> {
  const st = engine.listStatements(p, e, query, 'read', undefined, fields);
  const { body, count } = await write(st);
  return { body, count, ...(await pageTotal(engine.db, st, count)) };
}

/** Engine.list with the JSON built by the database. */
export const listJson = (engine: Engine, p: Principal | null, e: CompiledEntity, query: Record<string, unknown>, fields?: readonly string[]) =>
  jsonPage(engine, p, e, query, fields, async (st) => {
    const j = listJsonStatement(st, e, engine.d, fields);
    const row = (await engine.db.get<{ body: string; n: number }>(j.sql, j.params))!;
    return { body: row.body, count: Number(row.n) };
  });

/**
 * The total of a page of `count` rows, as every list route reports it: a short page is the last
 * one; a full one (or an empty page past the start) needs the bounded count, whose excess over
 * COUNT_LOOKAHEAD rows past the page's start makes the total a lower bound.
 */
export async function pageTotal(
  db: Queryable,
  st: Pick<ListStatements, 'count' | 'start' | 'end'>,
  count: number,
): Promise<Pick<JsonPage, 'total' | 'totalIsLowerBound' | 'start' | 'end'>> {
  let total: number;
  let totalIsLowerBound = false;
  if (count > 0 && count < st.end - st.start + 1) total = st.start + count;
  else if (count === 0 && st.start === 0) total = 0;
  else {
    const n = Number((await db.get<{ n: number }>(st.count.sql, st.count.params))!.n);
    const cap = st.start + COUNT_LOOKAHEAD;
    totalIsLowerBound = n > cap;
    total = totalIsLowerBound ? cap : n;
  }
  return { total, totalIsLowerBound, start: st.start, end: count ? st.start + count - 1 : st.start };
}

/** The Content-Range header of a JSON page (contentRange of query.ts reads only the record count). */
export const jsonContentRange = (resource: string, r: JsonPage): string => contentRange(resource, { ...r, records: { length: r.count } as unknown[] });
