/**
 * The ra-data-simple-rest list protocol: sort=["field","ASC"], range=[start,end], filter={...}.
 * Only what metadata declares is accepted: a sort on a sortable field, a filter with an operator
 * the field declares. Anything else is a 400 with a code, never a 500 and never raw SQL.
 *
 * Filter keys: `field` (eq, or in when the value is an array), `field_like` (contains),
 * `field_gte` / `field_lte` (range), `q` (quick search over the fields marked search),
 * `id` (getMany), `includeDeleted` (soft-deleted rows too).
 */
import type { CompiledEntity, CompiledField, CompiledMetadata } from '../../codegen/runtime/model.ts';
import { likePattern, quote, type Dialect } from '../../codegen/runtime/dialect.ts';
import { trigramCondition, type TrigramProbe } from '../db/trigram.ts';
import { badRequest } from './errors.ts';
import { toStored, type SqlPart } from './access.ts';
import { fieldOf } from './records.ts';

/**
 * How far past the start of a page a list counts: 20 pages of 500. Counting further would read
 * every matching row (a million on the orders list); beyond it the total is sent as a lower bound.
 */
export const COUNT_LOOKAHEAD = 10_000;

/**
 * The Content-Range header of a list answer: `orders 0-499/1234` (an empty page has `*` for its
 * range), and `orders 0-499/10000+` when the total is a lower bound (more than 10000 rows).
 * ra-data-simple-rest reads the total with parseInt, which stops at the '+'.
 */
export function contentRange(resource: string, r: { records: unknown[]; start: number; end: number; total: number; totalIsLowerBound?: boolean }): string {
  const total = `${r.total}${r.totalIsLowerBound ? '+' : ''}`;
  return r.records.length ? `${resource} ${r.start}-${r.end}/${total}` : `${resource} */${total}`;
}

export interface ListParams {
  where: SqlPart;
  orderBy: string;
  start: number;
  end: number;
  /** SQLite: a trigram index's row list drives the search (see tableSource) */
  indexDriven: boolean;
}

/**
 * The FROM item of a list, count or export: the table under `alias`, and on SQLite `NOT INDEXED`
 * when a trigram index's row list drives the search. Without it SQLite's planner prefers the sort
 * index (walk the scope's rows in page order, test each against the index's list, stop at a full
 * page): for a rare search that walks every row in scope, 239 ms on the million lines for a search
 * the index answers in 0.3 ms. NOT INDEXED leaves it the rowid (`id IN (...)` is a rowid lookup),
 * so the plan starts from the index's list and sorts those few rows. The probe
 * (db/trigram.ts sqliteTrigramProbe) lets the index drive only when its list is short enough.
 */
export function tableSource(e: CompiledEntity, alias: string, indexDriven: boolean): string {
  return `${quote(e.table)} ${alias}${indexDriven ? ' NOT INDEXED' : ''}`;
}

function parseJson(raw: unknown, name: string): unknown {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw badRequest('error.malformedQuery', { param: name });
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest('error.malformedQuery', { param: name });
  }
}

/** yyyy-MM-dd, optionally with a time and a zone (ISO 8601 as the API writes dates) */
const DATE_VALUE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/;

const isScalar = (v: unknown): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v);

/** Checks a filter value against the field's type; returns the stored form. */
function filterValue(d: Dialect, e: CompiledEntity, f: CompiledField, v: unknown, key: string): unknown {
  if (!isScalar(v)) throw badRequest('error.malformedQuery', { param: key });
  switch (f.type) {
    case 'integer':
    case 'ref':
    case 'decimal': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
      if (!Number.isFinite(n)) throw badRequest('error.malformedQuery', { param: key });
      return n;
    }
    case 'boolean':
      if (typeof v === 'boolean') return toStored(d, e, f.name, v);
      if (v === 'true' || v === 1 || v === '1') return d.bool(true);
      if (v === 'false' || v === 0 || v === '0') return d.bool(false);
      throw badRequest('error.malformedQuery', { param: key });
    case 'date':
    case 'datetime':
      // a typed column (PostgreSQL DATE, TIMESTAMPTZ) refuses anything else: say so as a 400, not a 500
      if (typeof v !== 'string' || !DATE_VALUE.test(v) || Number.isNaN(Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v)))
        throw badRequest('error.malformedQuery', { param: key });
      return v;
    default:
      if (typeof v !== 'string' && typeof v !== 'number') throw badRequest('error.malformedQuery', { param: key });
      if (String(v).length > 200) throw badRequest('error.malformedQuery', { param: key });
      return String(v);
  }
}

/**
 * A range filter as the SQLite planner should weigh it. The database keeps no statistics, so the
 * planner takes every range for a narrow one: it would seek the range on a date index and then
 * sort every row in it, which for "this year" of a million order lines means sorting 800,000 rows
 * (a second or more) to send 500. Telling it that a range keeps most rows (likelihood 0.9) makes it
 * walk the index of the page's sort order instead and check the range in that index (the sort
 * indexes carry the filter columns), which stops after one page: a few ms for a wide range, at
 * worst one pass over the index for a range that matches almost nothing. When the range is on the
 * sort column itself the walk still seeks it. likelihood() only changes the estimate, never the
 * result; PostgreSQL keeps per-value statistics and needs no such hint (dialect.broadRange).
 */

export function parseFilter(
  meta: CompiledMetadata,
  d: Dialect,
  e: CompiledEntity,
  filter: unknown,
  alias = 'a',
  narrows?: TrigramProbe,
): { where: SqlPart; includeDeleted: boolean; indexDriven: boolean } {
  const parts: string[] = [];
  const params: unknown[] = [];
  let includeDeleted = false;
  let indexDriven = false;
  if (filter === undefined || filter === null) return { where: { sql: '', params }, includeDeleted, indexDriven };
  if (typeof filter !== 'object' || Array.isArray(filter)) throw badRequest('error.malformedQuery', { param: 'filter' });
  const col = (f: CompiledField) => `${alias}.${quote(f.column)}`;
  // the bounds of each range filter, to refuse an inverted range (spec point 5)
  const bounds = new Map<CompiledField, { gte?: unknown; lte?: unknown }>();
  for (const [key, value] of Object.entries(filter as Record<string, unknown>)) {
    if (value === undefined || value === null || value === '') continue;
    if (key === 'includeDeleted' && e.softDelete) {
      includeDeleted = value === true || value === 'true';
      continue;
    }
    if (key === 'q') {
      const fields = e.fieldOrder.filter((n) => e.fields[n].search);
      if (!fields.length) throw badRequest('error.unknownFilter', { field: key });
      if (typeof value !== 'string' || value.length > 200) throw badRequest('error.malformedQuery', { param: key });
      parts.push(`(${fields.map((n) => d.containsOp(col(e.fields[n]), '?')).join(' OR ')})`);
      params.push(...fields.map(() => likePattern(value)));
      continue;
    }
    const m = /^(.+?)(_like|_gte|_lte)?$/.exec(key);
    if (!m) throw badRequest('error.unknownFilter', { field: key });
    const fieldName = m[1];
    const suffix = m[2] ?? '';
    const f = fieldOf(e, fieldName);
    if (!f || f.private) throw badRequest('error.unknownFilter', { field: key });
    const ops = f.filter;
    if (suffix === '_like') {
      if (!ops.includes('contains')) throw badRequest('error.unknownFilter', { field: key });
      const text = String(filterValue(d, e, f, value, key));
      parts.push(d.containsOp(col(f), '?'));
      params.push(likePattern(text));
      // SQLite: the field's trigram index narrows the rows LIKE reads (PostgreSQL's planner uses its own for ILIKE)
      const narrowed = d.name === 'sqlite' ? trigramCondition(e, f.name, alias, text, narrows) : null;
      if (narrowed) {
        parts.push(narrowed.sql);
        params.push(...narrowed.params);
        indexDriven = true;
      }
    } else if (suffix === '_gte' || suffix === '_lte') {
      if (!ops.includes('range')) throw badRequest('error.unknownFilter', { field: key });
      parts.push(d.broadRange(`${col(f)} ${suffix === '_gte' ? '>=' : '<='} ?`));
      let v = filterValue(d, e, f, value, key);
      bounds.set(f, { ...bounds.get(f), [suffix === '_gte' ? 'gte' : 'lte']: v });
      // an end date includes the whole day of a datetime column
      if (suffix === '_lte' && f.type === 'datetime' && typeof v === 'string' && v.length === 10) v = `${v}T23:59:59.999Z`;
      params.push(v);
    } else if (Array.isArray(value)) {
      if (!ops.includes('in') && !(fieldName === 'id')) throw badRequest('error.unknownFilter', { field: key });
      if (value.length === 0) {
        parts.push('0 = 1');
        continue;
      }
      if (value.length > meta.app.maxPageSize) throw badRequest('error.rangeTooLarge', { max: meta.app.maxPageSize });
      parts.push(`${col(f)} IN (${value.map(() => '?').join(', ')})`);
      params.push(...value.map((v) => filterValue(d, e, f, v, key)));
    } else {
      if (!ops.includes('eq') && !ops.includes('in')) throw badRequest('error.unknownFilter', { field: key });
      parts.push(`${col(f)} = ?`);
      params.push(filterValue(d, e, f, value, key));
    }
  }
  for (const [f, b] of bounds) assertRangeOrder(f, b.gte, b.lte);
  return { where: { sql: parts.join(' AND '), params }, includeDeleted, indexDriven };
}

/**
 * "Start date must not be after end date" (spec point 5), for every declared range filter: an
 * inverted range would silently match nothing, so it is a 400 naming the field (error.dateRange
 * for dates and date-times, error.numberRange for numbers). Dates compare by their instant, so a
 * plain date and a date-time of the same day are in order.
 */
export function assertRangeOrder(f: CompiledField, from: unknown, to: unknown): void {
  if (from === undefined || to === undefined) return;
  const dated = f.type === 'date' || f.type === 'datetime';
  const instant = (v: unknown) => Date.parse(String(v).length === 10 ? `${String(v)}T00:00:00Z` : String(v));
  const inverted = dated ? instant(from) > instant(to) : Number(from) > Number(to);
  if (inverted) throw badRequest(dated ? 'error.dateRange' : 'error.numberRange', { field: f.name, from: String(from), to: String(to) });
}

export function parseSort(e: CompiledEntity, raw: unknown, fallback?: { field: string; order: 'ASC' | 'DESC' }, alias = 'a'): string {
  const sort = parseJson(raw, 'sort');
  let field = (fallback ?? e.defaultSort).field;
  let order: 'ASC' | 'DESC' = (fallback ?? e.defaultSort).order;
  if (sort !== undefined) {
    if (!Array.isArray(sort) || sort.length !== 2 || typeof sort[0] !== 'string' || typeof sort[1] !== 'string')
      throw badRequest('error.malformedQuery', { param: 'sort' });
    const o = sort[1].toUpperCase();
    if (o !== 'ASC' && o !== 'DESC') throw badRequest('error.malformedQuery', { param: 'sort' });
    const f = fieldOf(e, sort[0]);
    if (!f || f.private || !(f.sort || sort[0] === e.defaultSort.field || sort[0] === 'id')) throw badRequest('error.unknownSortField', { field: sort[0] });
    field = sort[0];
    order = o;
  }
  const c = `${alias}.${quote(e.fields[field].column)}`;
  // id breaks ties so that pages never overlap or skip rows
  return field === 'id' ? `${c} ${order}` : `${c} ${order}, ${alias}.${quote('id')} ${order}`;
}

export function parseRange(meta: CompiledMetadata, raw: unknown): { start: number; end: number } {
  const range = parseJson(raw, 'range');
  if (range === undefined) return { start: 0, end: meta.app.pageSize - 1 };
  if (!Array.isArray(range) || range.length !== 2 || !range.every((x) => Number.isSafeInteger(x) && x >= 0) || range[1] < range[0])
    throw badRequest('error.malformedQuery', { param: 'range' });
  if (range[1] - range[0] + 1 > meta.app.maxPageSize) throw badRequest('error.rangeTooLarge', { max: meta.app.maxPageSize });
  return { start: range[0], end: range[1] };
}

export function parseListQuery(
  meta: CompiledMetadata,
  d: Dialect,
  e: CompiledEntity,
  query: Record<string, unknown>,
  screenSort?: { field: string; order: 'ASC' | 'DESC' },
  narrows?: TrigramProbe,
): ListParams & { includeDeleted: boolean } {
  const filter = parseJson(query.filter, 'filter');
  const { where, includeDeleted, indexDriven } = parseFilter(meta, d, e, filter, 'a', narrows);
  const orderBy = parseSort(e, query.sort, screenSort);
  const { start, end } = parseRange(meta, query.range);
  return { where, orderBy, start, end, includeDeleted, indexDriven };
}
