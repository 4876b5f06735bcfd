/**
 * Bench step "home": the home page's API calls on the demo data at scale (1,000,200 order lines at
 * the default scale), on every setup side by side. For a supplier (sup01, whose tiles and charts
 * read the most rows) and internal staff (staff01): the work tiles, the charts, the notification
 * feed and the notice centre's list, each timed over loopback HTTP (an upper bound of the server
 * time: the target is at most 50 ms for the calls together) one after another and all four
 * at once, as the page sends them. The first call of each is the uncached one (the home's counts
 * and sums are kept until the next write: server/home/stamped-cache.ts), reported apart; the
 * medians are of the calls after it, as a supplier coming back to its home with no write in
 * between gets them. Then, on each setup, the page ready after login in Chromium on the loopback
 * (pageReady below). Then, on each backend's one-process setup, the charts without the indexes
 * declared for them (dropped, timed, created again): the before/after of those indexes in the
 * same run. No timing is asserted.
 */
import { chromium, type Browser } from '@playwright/test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumPath } from '../e2e/chromium.ts';
import { ROOT, login, percentile, round } from './lib.ts';
import { withSetups, type Ctx } from './steps.ts';
import type { StepResult } from './report.ts';
import type { Running } from './setups.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';
import { openDb } from '../../server/db/open.ts';
import { metadata, tables } from '../../server/generated/index.ts';

const notices = `/api/notices?${new URLSearchParams({ filter: JSON.stringify({ status: '0' }), range: '[0,49]', sort: JSON.stringify(['publishedAt', 'DESC']) })}`;
export const HOME_CALLS = { tiles: '/api/home/tiles', charts: '/api/home/charts', notifications: '/api/notifications', notices } as const;
type Call = keyof typeof HOME_CALLS;
const USERS = ['sup01', 'staff01'] as const;
const ADMIN_DIST = join(ROOT, 'admin', 'dist');
/** BENCH_HOME_INDEX_DROP=off leaves out the charts' indexes before/after (rebuilding them on a million lines takes minutes) */
const INDEX_DROP = process.env.BENCH_HOME_INDEX_DROP !== 'off';
/** the indexes declared for the charts' aggregates (metadata/entities/order.json), by their columns */
const CHART_INDEXES = [
  ['warehouse_code', 'last_shipped_at', 'direct_supplier_code', 'production_supplier_code', 'purchasing_supplier_code'],
  ['warehouse_code', 'status', 'forecast_receive_date', 'direct_supplier_code', 'production_supplier_code', 'purchasing_supplier_code', 'unsent_qty'],
];

interface Timing {
  /** the first call (after a login, whose writes leave nothing cached), not in the median */
  first: number;
  median: number;
  p95: number;
}

async function timed(base: string, url: string, token: string): Promise<number> {
  const t0 = performance.now();
  const r = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
  return performance.now() - t0;
}

async function sample(runs: number, f: () => Promise<number>): Promise<Timing> {
  const xs: number[] = [];
  let first = 0;
  for (let i = 0; i < runs + 3; i++) {
    const ms = await f();
    if (i === 0) first = round(ms);
    if (i >= 3) xs.push(ms);
  }
  return { first, median: round(percentile(xs, 50)), p95: round(percentile(xs, 95)) };
}

/**
 * Page ready after login, as a supplier sees it: in a fresh browser context (nothing cached) on
 * the sign-in page, from the click on "log in" until the home's tiles show their counts (as many
 * as GET /api/home/tiles answers) and every chart has drawn its SVG. Median of `runs` visits.
 */
async function pageReady(browser: Browser, base: string, runs: number): Promise<Timing & { tiles: number; charts: number }> {
  const token = await login(base, 'sup01', DEMO_PASSWORD, 'PDC01');
  const get = async (url: string) => (await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } })).json();
  const tiles = ((await get(HOME_CALLS.tiles)) as { tiles: unknown[] }).tiles.length;
  const charts = ((await get(HOME_CALLS.charts)) as { charts: { key: string }[] }).charts.map((c) => c.key);
  const visit = async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    try {
      const page = await context.newPage();
      await page.goto(`${base}/login`, { timeout: 120_000 });
      await page.getByTestId('login-username').waitFor({ timeout: 120_000 });
      await page.getByTestId('login-username').fill('sup01');
      await page.getByTestId('login-password').fill(DEMO_PASSWORD);
      await page.getByTestId('login-warehouse').click();
      await page.getByTestId('login-warehouse-PDC01').click();
      await page.getByTestId('login-warehouse-PDC01').waitFor({ state: 'hidden' });
      const t0 = performance.now();
      await page.getByTestId('login-submit').click();
      await page.waitForFunction(
        ([n, keys]) =>
          document.querySelectorAll('[data-testid^="tile-count-"]').length === n &&
          keys.every((k) => document.querySelector(`[data-testid="chart-canvas-${k}"] svg`)),
        [tiles, charts] as const,
        { timeout: 60_000, polling: 'raf' },
      );
      return performance.now() - t0;
    } finally {
      await context.close();
    }
  };
  const xs: number[] = [];
  let first = 0;
  for (let i = 0; i < runs + 1; i++) {
    const ms = await visit();
    if (i === 0) first = round(ms);
    else xs.push(ms);
  }
  return { first, median: round(percentile(xs, 50)), p95: round(percentile(xs, 95)), tiles, charts: charts.length };
}

async function homeOf(r: Running, user: string, runs: number) {
  const base = r.server.base;
  const token = await login(base, user, DEMO_PASSWORD, 'PDC01');
  const calls = {} as Record<Call, Timing>;
  for (const [name, url] of Object.entries(HOME_CALLS) as [Call, string][]) calls[name] = await sample(runs, () => timed(base, url, token));
  const together = await sample(runs, async () => {
    const t0 = performance.now();
    await Promise.all(Object.values(HOME_CALLS).map((url) => timed(base, url, token)));
    return performance.now() - t0;
  });
  const sumOfMedians = round(Object.values(calls).reduce((n, x) => n + x.median, 0));
  return { calls, sumOfMedians, together };
}

/** the charts timed without their indexes, then the indexes created again */
async function withoutChartIndexes(ctx: Ctx, r: Running, runs: number): Promise<{ withIndexes: Timing; withoutIndexes: Timing; ratio: number }> {
  const base = r.server.base;
  const token = await login(base, 'sup01', DEMO_PASSWORD, 'PDC01');
  const withIndexes = await sample(runs, () => timed(base, HOME_CALLS.charts, token));
  const db = await openDb(r.setup.backend === 'postgres' ? { url: ctx.pg!.url } : { file: ctx.db });
  const order = tables[db.kind].find((t) => t.name === 'order')!;
  const chartIndexes = order.indexes.filter((ix) => CHART_INDEXES.some((cols) => cols.join() === ix.columns.join()));
  if (chartIndexes.length !== CHART_INDEXES.length) throw new Error("the charts' indexes are not declared as this step expects");
  try {
    for (const ix of chartIndexes) await db.exec(`DROP INDEX ${db.dialect.quote(db.dialect.identifier(ix.name))}`);
    const withoutIndexes = await sample(runs, () => timed(base, HOME_CALLS.charts, token));
    return { withIndexes, withoutIndexes, ratio: round(withoutIndexes.median / withIndexes.median) };
  } finally {
    for (const ix of chartIndexes) await db.exec(db.dialect.createIndex('order', ix));
    await db.close();
  }
}

export async function homeStep(ctx: Ctx): Promise<StepResult> {
  const runs = ctx.smoke ? 2 : 20;
  // the page needs the built admin; a smoke run's servers (shared between steps) serve none
  if (ctx.smoke || !existsSync(join(ADMIN_DIST, 'index.html'))) return homeSetups(ctx, undefined, runs, 0);
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    headless: true,
  });
  try {
    return await homeSetups(ctx, browser, runs, 5);
  } finally {
    await browser.close();
  }
}

async function homeSetups(ctx: Ctx, browser: Browser | undefined, runs: number, visits: number): Promise<StepResult> {
  return withSetups(
    ctx,
    async (running) => {
      const setups: Record<string, Record<string, unknown>> = {};
      for (const r of running) {
        r.enter();
        const users: Record<string, Awaited<ReturnType<typeof homeOf>>> = {};
        for (const u of USERS) {
          users[u] = await homeOf(r, u, runs);
          const uncached = round(Object.values(users[u].calls).reduce((n, x) => n + x.first, 0));
          ctx.log(
            `  home ${r.setup.id} ${u}: calls together ${users[u].sumOfMedians} ms (sum of medians), all at once ${users[u].together.median} ms; first calls (uncached) ${uncached} ms`,
          );
        }
        const ready = browser ? await pageReady(browser, r.server.base, visits) : 'pending: no built admin (npm run build) or a smoke run';
        if (typeof ready !== 'string')
          ctx.log(`  home ${r.setup.id} sup01: page ready after login ${ready.median} ms (median of ${visits}; first visit ${ready.first} ms)`);
        const indexes = r.setup.processes === 1 && INDEX_DROP ? await withoutChartIndexes(ctx, r, runs) : undefined;
        if (indexes)
          ctx.log(
            `  home ${r.setup.id} charts: ${indexes.withIndexes.median} ms with their indexes, ${indexes.withoutIndexes.median} ms without (x${indexes.ratio})`,
          );
        setups[r.setup.id] = { label: r.setup.label, users, pageReadyAfterLogin: ready, ...(indexes ? { chartIndexes: indexes } : {}) };
      }
      return {
        status: 'ok',
        runs,
        targetMs: 50,
        pageReadyTargetMs: 1000,
        setups,
        orderLines: Math.round(ctx.scale * 600),
        charts: metadata.screens.find((s) => s.name === 'dashboard')?.charts?.length ?? 0,
      };
    },
    browser ? { adminDir: ADMIN_DIST } : {},
  );
}
