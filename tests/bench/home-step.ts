/**
 * Bench step "home": the home page's API calls on the demo data at scale (1,000,200 order lines at
 * the default scale), on every setup side by side. For a supplier (sup01, whose tiles and charts
 * read the most rows) and internal staff (staff01): the work tiles, the charts, the notification
 * feed and the notice centre's list, each timed over loopback HTTP (an upper bound of the server
 * time: the target is at most 50 ms for the calls together) one after another and all four
 * at once, as the page sends them. The first call of each is the uncached one (the tiles' counts
 * are kept until the next write: server/home/stamped-cache.ts), reported apart; the
 * medians are of the calls after it, as a supplier coming back to its home with no write in
 * between gets them. Then, on each setup, the page ready after login in Chromium on the loopback
 * (pageReady below). Then, on each backend's one-process setup, each summed chart read both ways
 * on the bench's own connection: from the rows (the aggregate every call ran before the charts'
 * sums, server/home/chart-sums.ts) and from the caller's key of the sums: the before/after of the
 * sums in the same run. With BENCH_HOME_BASELINE_DIST (a copy of an earlier admin/dist), the page
 * ready after login also against that build, visits alternating (pageReadyAgainstBaseline). No
 * timing is asserted.
 */
import { chromium, type Browser } from '@playwright/test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumPath } from '../e2e/chromium.ts';
import { ROOT, login, percentile, round, startServer } from './lib.ts';
import { withSetups, type Ctx } from './steps.ts';
import type { StepResult } from './report.ts';
import type { Running } from './setups.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';
import type { Db } from '../../server/db/types.ts';
import { buildApp } from '../../server/app.ts';
import { metadata } from '../../server/generated/index.ts';
import { chartStatement } from '../../server/home/charts.ts';
import { sumsScope, sumsStatement } from '../../server/home/chart-sums-read.ts';
import { principalOf } from './list-cases.ts';

const notices = `/api/notices?${new URLSearchParams({ filter: JSON.stringify({ status: '0' }), range: '[0,49]', sort: JSON.stringify(['publishedAt', 'DESC']) })}`;
export const HOME_CALLS = { tiles: '/api/home/tiles', charts: '/api/home/charts', notifications: '/api/notifications', notices } as const;
type Call = keyof typeof HOME_CALLS;
const USERS = ['sup01', 'staff01'] as const;
const ADMIN_DIST = join(ROOT, 'admin', 'dist');

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

/** What the page shows when ready: as many tile counts as GET /api/home/tiles answers, and every chart's SVG. */
interface Ready {
  tiles: number;
  charts: string[];
}

async function readyWhen(base: string): Promise<Ready> {
  const token = await login(base, 'sup01', DEMO_PASSWORD, 'PDC01');
  const get = async (url: string) => (await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } })).json();
  const tiles = ((await get(HOME_CALLS.tiles)) as { tiles: unknown[] }).tiles.length;
  const charts = ((await get(HOME_CALLS.charts)) as { charts: { key: string }[] }).charts.map((c) => c.key);
  return { tiles, charts };
}

/**
 * One visit, as a supplier logs in: a fresh browser context (nothing cached) on the sign-in page,
 * from the click on "log in" until the home is ready (`ready`). `fromAnswer`: the same end from the
 * moment the login's answer arrived (POST /connect/token), the page's own part: the click's figure
 * also holds the password check, scrypt at OWASP's cost (server/engine/passwords.ts), about
 * 0.5-0.8 s of one core on the bench machine by design.
 */
async function visitHome(browser: Browser, base: string, ready: Ready): Promise<{ fromClick: number; fromAnswer: number }> {
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
    let answered = NaN;
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/connect/token') answered = performance.now();
    });
    const t0 = performance.now();
    await page.getByTestId('login-submit').click();
    await page.waitForFunction(
      ([n, keys]) =>
        document.querySelectorAll('[data-testid^="tile-count-"]').length === n &&
        keys.every((k) => document.querySelector(`[data-testid="chart-canvas-${k}"] svg`)),
      [ready.tiles, ready.charts] as const,
      { timeout: 60_000, polling: 'raf' },
    );
    const t1 = performance.now();
    return { fromClick: t1 - t0, fromAnswer: t1 - answered };
  } finally {
    await context.close();
  }
}

type PageReady = Timing & { afterAnswer: Timing };

/** Medians of the visits after the first (reported apart: the server's and the browser's caches are cold). */
function pageReadyOf(visits: { fromClick: number; fromAnswer: number }[]): PageReady {
  const [first, ...rest] = visits;
  const timing = (v: number[], f: number): Timing => ({ first: round(f), median: round(percentile(v, 50)), p95: round(percentile(v, 95)) });
  return {
    ...timing(
      rest.map((v) => v.fromClick),
      first.fromClick,
    ),
    afterAnswer: timing(
      rest.map((v) => v.fromAnswer),
      first.fromAnswer,
    ),
  };
}

/** Page ready after login on a setup's server: median of `runs` visits (one more first). */
async function pageReady(browser: Browser, base: string, runs: number): Promise<PageReady & { tiles: number; charts: number }> {
  const ready = await readyWhen(base);
  const visits = [];
  for (let i = 0; i < runs + 1; i++) visits.push(await visitHome(browser, base, ready));
  return { ...pageReadyOf(visits), tiles: ready.tiles, charts: ready.charts.length };
}

/**
 * BENCH_HOME_BASELINE_DIST=<a copy of an earlier admin/dist>: page ready after login with this
 * build and with that one in the same run, visits alternating between two servers (SQLite, one
 * process each) on the same database, so that both meet the same machine.
 */
async function pageReadyAgainstBaseline(ctx: Ctx, browser: Browser, runs: number): Promise<Record<'current' | 'baseline', PageReady> | undefined> {
  const dist = process.env.BENCH_HOME_BASELINE_DIST;
  if (!dist) return undefined;
  const files = join(ctx.work, 'files');
  const servers = {
    current: await startServer(ctx.db, files, ctx.serverCpu, { adminDir: ADMIN_DIST }),
    baseline: await startServer(ctx.db, files, ctx.serverCpu, { adminDir: dist }),
  };
  try {
    const ready = await readyWhen(servers.current.base);
    const visits = { current: [] as { fromClick: number; fromAnswer: number }[], baseline: [] as { fromClick: number; fromAnswer: number }[] };
    for (let i = 0; i < runs + 1; i++)
      for (const k of i % 2 ? (['baseline', 'current'] as const) : (['current', 'baseline'] as const))
        visits[k].push(await visitHome(browser, servers[k].base, ready));
    const out = { current: pageReadyOf(visits.current), baseline: pageReadyOf(visits.baseline) };
    ctx.log(
      `  home page ready after login, this build against ${dist} (alternating, median of ${runs}): ${out.current.median} vs ${out.baseline.median} ms from the click, ${out.current.afterAnswer.median} vs ${out.baseline.afterAnswer.median} ms from the login's answer (x${round(out.current.afterAnswer.median / out.baseline.afterAnswer.median, 2)})`,
    );
    return out;
  } finally {
    await servers.current.stop();
    await servers.baseline.stop();
  }
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

/** the statement's rows, timed (a read on the bench's own connection: no HTTP, no serialisation) */
async function timedQuery(db: Db, st: { sql: string; params: unknown[] }): Promise<number> {
  const t0 = performance.now();
  await db.all(st.sql, st.params);
  return performance.now() - t0;
}

/**
 * Each summed chart of sup01 read both ways in the same run, on one connection of the bench's
 * own: from the rows (the list's aggregate, charts.ts chartStatement: what every call cost before
 * the sums, and what the first call after a write cost with only the stamped cache) and from its
 * key of the sums (chart-sums-read.ts sumsStatement), with the sums rows that key has.
 */
async function chartsFromSumsAndRows(ctx: Ctx, r: Running, runs: number) {
  const app = await buildApp({
    ...(r.setup.backend === 'postgres' ? { databaseUrl: ctx.pg!.url } : { dbFile: ctx.db }),
    jwtSecret: 'bench-secret-0123456789-0123456789-0123456789',
    migrate: false,
    logger: false,
  });
  try {
    const dashboard = metadata.screens.find((s) => s.name === 'dashboard')!;
    const p = principalOf('supplier', { supplierCode: 'S001' });
    const now = new Date();
    const out: Record<string, { fromRows: Timing; fromSums: Timing; ratio: number; sumsRowsRead: number }> = {};
    for (const chart of (dashboard.charts ?? []).filter((c) => c.summary && c.profiles.includes('supplier'))) {
      const screen = metadata.screens.find((s) => s.name === chart.screen)!;
      const e = metadata.entities[chart.summary!.entity];
      const rows = chartStatement(app.engine, p, e, chart, screen, now);
      const sums = sumsStatement(chart, sumsScope(metadata, e, chart.summary!, p)!, rows.days);
      const fromRows = await sample(runs, () => timedQuery(app.db, rows));
      const fromSums = await sample(runs, () => timedQuery(app.db, sums));
      const read = await app.db.all<{ r: number | string }>(sums.sql, sums.params);
      out[chart.key] = {
        fromRows,
        fromSums,
        ratio: round(fromRows.median / Math.max(fromSums.median, 0.001)),
        sumsRowsRead: read.reduce((n, x) => n + Number(x.r), 0),
      };
    }
    return out;
  } finally {
    await app.close();
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
    const result = await homeSetups(ctx, browser, runs, 5);
    const againstBaseline = await pageReadyAgainstBaseline(ctx, browser, 7);
    return againstBaseline ? { ...result, pageReadyAgainstBaseline: againstBaseline } : result;
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
          ctx.log(
            `  home ${r.setup.id} sup01: page ready after login ${ready.median} ms from the click, ${ready.afterAnswer.median} ms from the login's answer (median of ${visits}; first visit ${ready.first} ms)`,
          );
        const sums = r.setup.processes === 1 ? await chartsFromSumsAndRows(ctx, r, runs) : undefined;
        for (const [key, x] of Object.entries(sums ?? {}))
          ctx.log(
            `  home ${r.setup.id} chart ${key} (sup01): ${x.fromRows.median} ms from the rows, ${x.fromSums.median} ms from its ${x.sumsRowsRead} sums rows (x${x.ratio})`,
          );
        setups[r.setup.id] = { label: r.setup.label, users, pageReadyAfterLogin: ready, ...(sums ? { chartSums: sums } : {}) };
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
