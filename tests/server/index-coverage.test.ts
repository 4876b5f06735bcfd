/**
 * Every filter and sort the metadata declares is served by an index. For each list screen (its
 * fixed filter, tabs and related lists), each declared filter with the default sort and each
 * sortable column, the engine's own SQL (page and bounded count) is explained for a supplier and an
 * internal user, and the test fails on:
 *  - a full-table scan of a large table (one the demo seeder fills in proportion to its scale);
 *  - a page that sorts every row in scope although the user set no filter an index seeks on
 *    (sorting is what makes a 500-row page cost seconds at a million rows; an index walked in
 *    sort order stops after one page).
 * The database has no statistics (nothing runs ANALYZE), so plans follow from the schema alone and
 * a small database plans exactly as the million-row one does. Timings are the bench's business.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, build, listUrl, login, type TestApp } from './helpers.ts';
import type { SqliteDb } from '../../server/db/sqlite.ts';
import { metadata } from '../../server/generated/index.ts';
import { COUNT_LOOKAHEAD } from '../../server/engine/query.ts';
import { listCases, DEMO_PRINCIPALS } from '../bench/list-cases.ts';
import { explain, largeTables, planCases, planProblems, type PlannedCase } from '../bench/sweep.ts';
import { chartStatement } from '../../server/home/charts.ts';
import { sumsScope, sumsStatement } from '../../server/home/chart-sums-read.ts';
import { windowDays } from '../../codegen/runtime/charts.ts';
import { tileListFilter } from '../../codegen/runtime/tiles.ts';

let t: TestApp;
let planned: PlannedCase[];
let large: Set<string>;

// scale 20: about 12,000 order lines, so that staff01 in PDC01 sees more than COUNT_LOOKAHEAD of them
const SCALE = 20;

beforeAll(async () => {
  t = await build({ scale: SCALE });
  // SQLite's planner is what this file checks (EXPLAIN QUERY PLAN on the raw connection)
  const raw = (t.app.db as SqliteDb).raw;
  const cases = listCases(metadata, raw);
  planned = planCases(t.app.engine, raw, cases, DEMO_PRINCIPALS);
  large = largeTables(raw, metadata, SCALE);
});
afterAll(async () => t?.close());

describe('index coverage of declared filters and sorts', () => {
  it('covers the large tables and every list screen', () => {
    // the seeder fills these in proportion to its scale; if this changes, the test must follow
    for (const table of ['order', 'dfs_order', 'claim', 'child_part_movement', 'child_part_stock', 'stock_adjustment'])
      expect(large.has(table), table).toBe(true);
    const screens = new Set(planned.map((p) => p.case.screen));
    for (const s of metadata.screens.filter((x) => x.kind === 'list' && x.resource)) expect(screens.has(s.name), s.name).toBe(true);
    // both kinds of user, every kind of case
    expect(new Set(planned.map((p) => p.principal))).toEqual(new Set(['supplier', 'internal']));
    const kinds = new Set(planned.map((p) => p.case.kind));
    for (const k of ['base', 'filter', 'sort', 'related', 'tab']) expect(kinds.has(k as never), k).toBe(true);
  });

  it('never scans a large table and never sorts a whole scope for a page', () => {
    const tableOf = (resource: string) => t.app.engine.entityOf(resource).table;
    const problems = planned.flatMap((p) => planProblems(p, large, tableOf).map((x) => `${p.case.label} [${p.principal}]: ${x}`));
    expect(problems).toEqual([]);
  });

  it('counts with a bound', () => {
    for (const p of planned) {
      expect(p.count.sql).toMatch(/^SELECT COUNT\(\*\) AS n FROM \(SELECT 1 AS x FROM .* LIMIT \?\) t$/);
      expect(p.count.params.at(-1)).toBeGreaterThan(metadata.app.pageSize);
    }
  });
});

describe('bounded count', () => {
  const list = async (range: [number, number]) => {
    const token = await login(t.app, 'staff01');
    const r = await t.app.inject({ method: 'GET', url: listUrl('orders', { range, sort: ['orderNo', 'ASC'] }), headers: bearer(token) });
    expect(r.statusCode).toBe(200);
    return { rows: r.json() as unknown[], range: String(r.headers['content-range']) };
  };
  const visible = async () => Number((await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM "order" WHERE warehouse_code = 'PDC01'`))!.n);

  it('sends a lower bound with + beyond the look-ahead, which the client reads as a number', async () => {
    expect(await visible()).toBeGreaterThan(COUNT_LOOKAHEAD);
    const r = await list([0, 499]);
    expect(r.rows).toHaveLength(500);
    expect(r.range).toBe(`orders 0-499/${COUNT_LOOKAHEAD}+`);
    // ra-data-simple-rest: parseInt(header.split('/').pop(), 10)
    expect(parseInt(r.range.split('/').pop()!, 10)).toBe(COUNT_LOOKAHEAD);
  });

  it('counts exactly once the rest is within the look-ahead of the page', async () => {
    const n = await visible();
    expect((await list([1000, 1499])).range).toBe(`orders 1000-1499/${n}`);
  });

  it('needs no count for a short last page, and counts for a page past the end', async () => {
    const n = await visible();
    const last = await list([n - 100, n + 399]);
    expect(last.rows).toHaveLength(100);
    expect(last.range).toBe(`orders ${n - 100}-${n - 1}/${n}`);
    expect((await list([n + 500, n + 999])).range).toBe(`orders */${n}`);
  });
});

describe('index coverage of the home page (issue 22)', () => {
  const dashboard = metadata.screens.find((s) => s.name === 'dashboard')!;
  const now = new Date();

  it("each chart's aggregate reads an index, never the table, for a supplier", () => {
    const raw = (t.app.db as SqliteDb).raw;
    for (const chart of dashboard.charts!) {
      const screen = metadata.screens.find((s) => s.name === chart.screen)!;
      const e = t.app.engine.entityOf(screen.resource!);
      const st = chartStatement(t.app.engine, DEMO_PRINCIPALS.supplier, e, chart, screen, now);
      const plan = explain(raw, st.sql, st.params);
      // a covering index: the rows counted or summed are never read from the table itself
      expect([chart.key, plan.some((l) => /^(SEARCH|SCAN) a USING COVERING INDEX/.test(l))]).toEqual([chart.key, true]);
      expect([chart.key, plan.filter((l) => /^SCAN a$/.test(l) || /^SCAN a (?!USING)/.test(l))]).toEqual([chart.key, []]);
    }
  });

  it("each summed chart reads only its caller's key of the sums, through their covering index", () => {
    const raw = (t.app.db as SqliteDb).raw;
    const summed = dashboard.charts!.filter((c) => c.summary);
    expect(summed.map((c) => c.key)).toEqual(dashboard.charts!.map((c) => c.key));
    for (const chart of summed) {
      const e = metadata.entities[chart.summary!.entity];
      const key = sumsScope(metadata, e, chart.summary!, DEMO_PRINCIPALS.supplier)!;
      const st = sumsStatement(chart, key, chart.groupBy.bucket === 'day' ? windowDays(chart.groupBy.lastDays!, now) : []);
      const plan = explain(raw, st.sql, st.params);
      const seek =
        chart.groupBy.bucket === 'day' ? 'chart=? AND warehouse=? AND supplier=? AND bucket>? AND bucket<?' : 'chart=? AND warehouse=? AND supplier=?';
      expect([chart.key, plan]).toEqual([chart.key, [`SEARCH _chart_sums USING COVERING INDEX ix_chart_sums_key (${seek})`]]);
    }
  });

  it("each tile's bounded count seeks an index for its own profile", () => {
    const raw = (t.app.db as SqliteDb).raw;
    for (const tile of dashboard.tiles!) {
      const screen = metadata.screens.find((s) => s.name === tile.screen)!;
      const e = t.app.engine.entityOf(screen.resource!);
      const p = tile.profiles.includes('supplier') ? DEMO_PRINCIPALS.supplier : DEMO_PRINCIPALS.internal;
      const st = t.app.engine.listStatements(p, e, { filter: JSON.stringify(tileListFilter(tile, screen, now)), range: '[0,0]' });
      const plan = explain(raw, st.count.sql, st.count.params);
      if (large.has(e.table)) expect([tile.key, plan.filter((l) => /^SCAN a$/.test(l) || /^SCAN a (?!USING)/.test(l))]).toEqual([tile.key, []]);
    }
  });
});
