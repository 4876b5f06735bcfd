/**
 * Every list query the metadata lets a screen send, enumerated from the compiled metadata: for each
 * list screen (with its fixed filter and tabs) the default sort, each declared filter with the
 * default sort, each sortable column without a user filter, and each related list. The
 * index-coverage test explains the plans of these queries; the bench times them at scale.
 *
 * Filter values come from the data itself, so the queries find rows: `typical` takes a value of a
 * row in the middle of the table; `common`/`rare` the most and least frequent value of an
 * eq/in field; `miss` a text that matches nothing (a contains filter's worst case: every row in
 * scope is read); `narrow`/`wide` a one-day and a whole-table range.
 */
import type { CompiledEntity, CompiledMetadata, CompiledScreen, FilterOp, Profile } from '../../codegen/runtime/model.ts';
import type { Principal } from '../../server/engine/principal.ts';
import type Database from 'better-sqlite3';

/** a better-sqlite3 connection (the bench reads and explains on SQLite directly) */
type DB = Database.Database;
import { sqlite as d } from '../../codegen/runtime/dialect.ts';

export type Variant = 'typical' | 'common' | 'rare' | 'miss' | 'narrow' | 'wide';

export interface ListCase {
  /** e.g. `orderShip sort=releaseDate` */
  label: string;
  screen: string;
  resource: string;
  kind: 'base' | 'filter' | 'sort' | 'related' | 'tab';
  field?: string;
  op?: FilterOp;
  variant?: Variant;
  query: { filter: string; sort: string; range: string };
}

/** A principal of a profile, as the auth plugin would build it (no token behind it). */
export function principalOf(profile: Profile, opts: { supplierCode?: string; warehouse?: string; isClaimWarehouse?: boolean } = {}): Principal {
  return {
    accountId: 0,
    userId: `bench-${profile}`,
    name: `bench ${profile}`,
    profile,
    accountType: '',
    role: profile === 'supplierAdmin' ? 'sys' : 'user',
    admin: profile === 'supplierAdmin',
    supplierCode: opts.supplierCode ?? null,
    departmentId: opts.supplierCode ?? 'D000',
    departmentName: null,
    warehouse: opts.warehouse ?? 'PDC01',
    warehouseName: opts.warehouse ?? 'PDC01',
    isClaimWarehouse: opts.isClaimWarehouse ?? true,
    accountStatus: '0',
    locale: 'en-US',
    tokenId: 'bench',
    sessionId: 'bench',
    tokenExp: Number.MAX_SAFE_INTEGER,
    authTime: Math.floor(Date.now() / 1000),
  };
}

/** The demo supplier sup01 (S001) and internal staff, both in the claim warehouse PDC01. */
export const DEMO_PRINCIPALS = {
  supplier: principalOf('supplier', { supplierCode: 'S001' }),
  internal: principalOf('internal'),
};

class Sampler {
  private readonly cache = new Map<string, unknown>();
  constructor(private readonly db: DB) {}

  private once<T>(key: string, f: () => T): T {
    if (!this.cache.has(key)) this.cache.set(key, f());
    return this.cache.get(key) as T;
  }

  /** the value of the row in the middle of the table (by id), or null */
  typical(e: CompiledEntity, field: string): unknown {
    return this.once(`t:${e.table}.${field}`, () => {
      const col = d.quote(e.fields[field].column);
      const n = (this.db.prepare(`SELECT MAX(id) AS n FROM ${d.quote(e.table)}`).get() as { n: number | null }).n ?? 0;
      const r = this.db
        .prepare(`SELECT ${col} AS v FROM ${d.quote(e.table)} WHERE id >= ? AND ${col} IS NOT NULL ORDER BY id LIMIT 1`)
        .get(Math.floor(n / 2)) as { v: unknown } | undefined;
      return r?.v ?? null;
    });
  }

  /** the most (or least) frequent value */
  frequent(e: CompiledEntity, field: string, most: boolean): unknown {
    return this.once(`f:${e.table}.${field}.${most}`, () => {
      const col = d.quote(e.fields[field].column);
      const r = this.db
        .prepare(
          `SELECT ${col} AS v, COUNT(*) AS c FROM ${d.quote(e.table)} WHERE ${col} IS NOT NULL GROUP BY ${col} ORDER BY c ${most ? 'DESC' : 'ASC'}, v LIMIT 1`,
        )
        .get() as { v: unknown } | undefined;
      return r?.v ?? null;
    });
  }

  extent(e: CompiledEntity, field: string): [unknown, unknown] {
    return this.once(`x:${e.table}.${field}`, () => {
      const col = d.quote(e.fields[field].column);
      const r = this.db.prepare(`SELECT MIN(${col}) AS lo, MAX(${col}) AS hi FROM ${d.quote(e.table)}`).get() as { lo: unknown; hi: unknown };
      return [r.lo, r.hi] as [unknown, unknown];
    });
  }
}

const asFilterValue = (e: CompiledEntity, field: string, v: unknown): unknown => (e.fields[field].type === 'boolean' ? v === 1 || v === true : v);

/** The filter entries of one declared filter, or null when the table has no value to use. */
function filterEntries(s: Sampler, e: CompiledEntity, field: string, op: FilterOp, variant: Variant): Record<string, unknown> | null {
  const f = e.fields[field];
  switch (op) {
    case 'eq':
    case 'in': {
      const v = variant === 'common' ? s.frequent(e, field, true) : variant === 'rare' ? s.frequent(e, field, false) : s.typical(e, field);
      if (v === null || v === undefined) return null;
      const value = asFilterValue(e, field, v);
      return { [field]: op === 'in' ? [value] : value };
    }
    case 'contains': {
      if (variant === 'miss') return { [`${field}_like`]: 'zq~nothing~qz' };
      const v = s.typical(e, field);
      if (v === null || v === undefined) return null;
      const t = String(v);
      // a few characters from the middle: matches this row and others like it
      const from = Math.max(0, Math.floor(t.length / 2) - 2);
      return { [`${field}_like`]: t.slice(from, from + 4) };
    }
    case 'range': {
      if (variant === 'wide') {
        const [lo, hi] = s.extent(e, field);
        if (lo === null || hi === null) return null;
        return { [`${field}_gte`]: lo, [`${field}_lte`]: hi };
      }
      const v = s.typical(e, field);
      if (v === null || v === undefined) return null;
      const day = f.type === 'date' || f.type === 'datetime' ? String(v).slice(0, 10) : v;
      return { [`${field}_gte`]: day, [`${field}_lte`]: day };
    }
  }
}

const VARIANTS: Record<FilterOp, Variant[]> = { eq: ['common', 'rare'], in: ['common', 'rare'], contains: ['typical', 'miss'], range: ['narrow', 'wide'] };

/**
 * The list queries of every list screen. `all` adds the worst-case variants of each filter
 * (bench); without it each filter appears once with a typical value (plan checks do not depend
 * on values: the database has no statistics, so plans follow from the schema alone).
 */
export function listCases(meta: CompiledMetadata, db: DB, opts: { all?: boolean; pageSize?: number } = {}): ListCase[] {
  const s = new Sampler(db);
  const size = opts.pageSize ?? meta.app.pageSize;
  const range = JSON.stringify([0, size - 1]);
  const out: ListCase[] = [];
  const screens = (meta.screens as CompiledScreen[]).filter((x) => x.kind === 'list' && x.resource);
  for (const sc of screens) {
    const e = meta.entities[meta.resources[sc.resource!]];
    const sort = sc.defaultSort ?? e.defaultSort;
    const sortParam = JSON.stringify([sort.field, sort.order]);
    const fixed = sc.fixedFilter ?? {};
    const add = (c: Omit<ListCase, 'screen' | 'resource' | 'query'> & { filter: Record<string, unknown>; sort?: string }) =>
      out.push({
        label: c.label,
        screen: sc.name,
        resource: e.resource,
        kind: c.kind,
        field: c.field,
        op: c.op,
        variant: c.variant,
        query: { filter: JSON.stringify({ ...fixed, ...c.filter }), sort: c.sort ?? sortParam, range },
      });
    add({ label: `${sc.name}`, kind: 'base', filter: {} });
    for (const t of sc.tabs ?? []) add({ label: `${sc.name} tab=${t.key}`, kind: 'tab', filter: t.filter });
    for (const f of sc.filters) {
      for (const variant of opts.all ? VARIANTS[f.op] : (['typical'] as Variant[])) {
        const v = variant === 'typical' && f.op !== 'contains' ? (f.op === 'range' ? 'narrow' : 'common') : variant;
        const entries = filterEntries(s, e, f.field, f.op, v);
        if (entries)
          add({ label: `${sc.name} ${f.field}:${f.op}${opts.all ? `(${v})` : ''}`, kind: 'filter', field: f.field, op: f.op, variant: v, filter: entries });
      }
    }
    const sortable = new Set(sc.columns.map((c) => c.field).filter((n) => e.fields[n]?.sort));
    for (const n of sortable) {
      if (n === sort.field) continue;
      add({ label: `${sc.name} sort=${n}`, kind: 'sort', field: n, filter: {}, sort: JSON.stringify([n, 'DESC']) });
    }
    for (const r of sc.related ?? []) {
      const re = meta.entities[meta.resources[r.resource]];
      const v = s.typical(re, r.target);
      if (v === null || v === undefined) continue;
      out.push({
        label: `${sc.name} related ${r.resource}`,
        screen: sc.name,
        resource: r.resource,
        kind: 'related',
        field: r.target,
        query: { filter: JSON.stringify({ [r.target]: v }), sort: JSON.stringify([re.defaultSort.field, re.defaultSort.order]), range },
      });
    }
  }
  return out;
}
