/**
 * Plan and timing of every list query the metadata declares (tests/bench/list-cases.ts), run
 * through the engine's own SQL (Engine.listStatements) for a supplier and an internal user.
 * The index-coverage test uses `planProblems` on a small database; the bench times every case on
 * the large one and reports the slowest.
 */
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import type Database from 'better-sqlite3';

/** a better-sqlite3 connection (the bench reads and explains on SQLite directly) */
type DB = Database.Database;
import type { Engine } from '../../server/engine/engine.ts';
import type { Principal } from '../../server/engine/principal.ts';
import { AppError } from '../../server/engine/errors.ts';
import type { ListCase } from './list-cases.ts';
import { metadata } from '../../server/generated/index.ts';
import { percentile } from './lib.ts';

export interface PlannedCase {
  case: ListCase;
  principal: string;
  page: { sql: string; params: unknown[]; plan: string[] };
  count: { sql: string; params: unknown[]; plan: string[] };
}

export function explain(db: DB, sql: string, params: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
}

/** The statements and plans of each case for each principal that may read the resource. */
export function planCases(engine: Engine, db: DB, cases: ListCase[], principals: Record<string, Principal>): PlannedCase[] {
  const out: PlannedCase[] = [];
  for (const c of cases) {
    const e = engine.entityOf(c.resource);
    for (const [name, p] of Object.entries(principals)) {
      let st;
      try {
        st = engine.listStatements(p, e, c.query);
      } catch (err) {
        if (err instanceof AppError && (err.statusCode === 403 || err.statusCode === 401)) continue; // this profile may not read it
        throw err;
      }
      out.push({
        case: c,
        principal: name,
        page: { ...st.page, plan: explain(db, st.page.sql, st.page.params) },
        count: { ...st.count, plan: explain(db, st.count.sql, st.count.params) },
      });
    }
  }
  return out;
}

/** Tables large enough that reading them whole is a problem: rows per unit of seed scale. */
export function largeTables(db: DB, meta: CompiledMetadata, scale: number, minRowsPerScale = 50): Set<string> {
  const out = new Set<string>();
  for (const e of Object.values(meta.entities)) {
    const n = (db.prepare(`SELECT COUNT(*) AS n FROM "${e.table}"`).get() as { n: number }).n;
    if (n / scale >= minRowsPerScale) out.add(e.table);
  }
  return out;
}

/**
 * What is wrong with a planned case, judged from EXPLAIN QUERY PLAN alone:
 *  - a full-table scan (`SCAN a`, no index) of a large table, in the page or in the count;
 *  - a page that sorts every row in scope (`USE TEMP B-TREE FOR ORDER BY`) although the user set
 *    no filter that an index seeks on: the sort must come from an index walked in order, which
 *    stops after one page. (`... FOR LAST TERM OF ORDER BY` only orders ties of the sort column.)
 */
export function planProblems(pc: PlannedCase, large: Set<string>, tableOf: (resource: string) => string): string[] {
  const problems: string[] = [];
  if (!large.has(tableOf(pc.case.resource))) return problems;
  for (const [what, plan] of [
    ['page', pc.page.plan],
    ['count', pc.count.plan],
  ] as const) {
    for (const line of plan) if (/^SCAN a$/.test(line) || /^SCAN a (?!USING)/.test(line)) problems.push(`${what}: full table scan (${line})`);
  }
  const sorts = pc.page.plan.some((l) => l === 'USE TEMP B-TREE FOR ORDER BY');
  if (sorts) {
    const field = pc.case.field;
    const seeks = pc.case.kind === 'filter' && pc.case.op !== 'contains' && field !== undefined && seeksOn(pc.page.plan, field);
    // a substring search narrowed by its trigram index (server/db/trigram.ts) sorts its matches, not the scope
    const narrowed = pc.case.kind === 'filter' && pc.case.op === 'contains' && pc.page.plan.some((l) => /^SCAN \S+__trgm VIRTUAL TABLE/.test(l));
    if (!seeks && !narrowed && pc.case.kind !== 'related') problems.push(`page: sorts every row in scope (${pc.page.plan.join(' | ')})`);
  }
  return problems;
}

/** Whether a plan's index search constrains `field` (its column name in snake case). */
function seeksOn(plan: string[], field: string): boolean {
  const col = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return plan.some((l) => l.startsWith('SEARCH a') && new RegExp(`\\(.*\\b${col}[=><]`).test(l));
}

export interface TimedCase {
  label: string;
  principal: string;
  /** best of the runs, ms */
  pageMs: number;
  countMs: number;
  /** what list() would run: the page, then the count only when the page is full */
  listMs: number;
  rows: number;
  total: number;
  totalIsLowerBound: boolean;
  pagePlan: string;
  countPlan: string;
}

/** Times each planned case with the engine itself (list() = page + bounded count when needed). */
export async function timeCases(engine: Engine, db: DB, planned: PlannedCase[], principals: Record<string, Principal>, runs = 2): Promise<TimedCase[]> {
  const out: TimedCase[] = [];
  for (const pc of planned) {
    const e = engine.entityOf(pc.case.resource);
    const page = db.prepare(pc.page.sql);
    const count = db.prepare(pc.count.sql);
    let pageMs = Infinity;
    let countMs = Infinity;
    let listMs = Infinity;
    let r: Awaited<ReturnType<Engine['list']>> | undefined;
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      page.all(...pc.page.params);
      pageMs = Math.min(pageMs, performance.now() - t);
      t = performance.now();
      count.get(...pc.count.params);
      countMs = Math.min(countMs, performance.now() - t);
      t = performance.now();
      r = await engine.list(principals[pc.principal], e, pc.case.query);
      listMs = Math.min(listMs, performance.now() - t);
    }
    out.push({
      label: pc.case.label,
      principal: pc.principal,
      pageMs: round(pageMs),
      countMs: round(countMs),
      listMs: round(listMs),
      rows: r!.records.length,
      total: r!.total,
      totalIsLowerBound: r!.totalIsLowerBound,
      pagePlan: pc.page.plan.join(' | '),
      countPlan: pc.count.plan.join(' | '),
    });
  }
  return out;
}

const round = (x: number) => Math.round(x * 100) / 100;

const TRIGRAM_NARROWING = / AND a\."id" IN \(SELECT rowid FROM "[^"]+__trgm" WHERE "[^"]+__trgm" MATCH \?\)/;

/**
 * A statement without the trigram narrowing of its `contains` filter (server/db/trigram.ts): the
 * plain LIKE the engine ran before, with the narrowing's parameter taken out. Null when it has none.
 */
export function withoutTrigram(sql: string, params: readonly unknown[]): { sql: string; params: unknown[] } | null {
  const m = TRIGRAM_NARROWING.exec(sql);
  if (!m) return null;
  const at = sql.slice(0, m.index + m[0].length).split('?').length - 2;
  // the table's NOT INDEXED goes with the narrowing (engine/query.ts tableSource): the plain LIKE keeps its indexes
  const plain = (sql.slice(0, m.index) + sql.slice(m.index + m[0].length)).replace(/ a NOT INDEXED\b/, ' a');
  return { sql: plain, params: params.filter((_, i) => i !== at) };
}

/**
 * The sweep's `contains` cases timed with their trigram index and without it (page + count, as
 * list() runs them, best of `runs`), and whether both answered the same rows.
 */
export function containsWithAndWithout(db: DB, planned: PlannedCase[], runs = 3) {
  const rows: { label: string; principal: string; withMs: number; withoutMs: number; same: boolean; narrowed: boolean }[] = [];
  const best = (sql: { sql: string; params: readonly unknown[] }, count: { sql: string; params: readonly unknown[] }) => {
    const p = db.prepare(sql.sql);
    const c = db.prepare(count.sql);
    let ms = Infinity;
    let out: unknown[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      out = p.all(...sql.params);
      if (out.length >= metadata.app.pageSize) c.get(...count.params);
      ms = Math.min(ms, performance.now() - t);
    }
    return { ms, ids: JSON.stringify(out.map((r) => (r as { id: unknown }).id)) };
  };
  for (const pc of planned) {
    if (pc.case.kind !== 'filter' || pc.case.op !== 'contains') continue;
    // a search the engine runs without the index (too short, or too common: its probe) is its own "without"
    const page = withoutTrigram(pc.page.sql, pc.page.params) ?? pc.page;
    const count = withoutTrigram(pc.count.sql, pc.count.params) ?? pc.count;
    const a = best(pc.page, pc.count);
    const b = best(page, count);
    rows.push({
      label: pc.case.label,
      principal: pc.principal,
      withMs: round(a.ms),
      withoutMs: round(b.ms),
      same: a.ids === b.ids,
      narrowed: page !== pc.page,
    });
  }
  const stat = (xs: number[]) => (xs.length ? { p50: round(percentile(xs, 50)), p95: round(percentile(xs, 95)), max: round(Math.max(...xs)) } : null);
  return {
    cases: rows.length,
    narrowed: rows.filter((r) => r.narrowed).length,
    withIndexMs: stat(rows.map((r) => r.withMs)),
    withoutIndexMs: stat(rows.map((r) => r.withoutMs)),
    different: rows.filter((r) => !r.same).map((r) => `${r.label} [${r.principal}]`),
    all: rows,
  };
}
