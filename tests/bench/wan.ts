/**
 * The `wan` step (issue 21): the portal as a supplier gets it over a slow link, before and after
 * compression, in one run. Real Chromium (Debian's, through Playwright) with the DevTools protocol's
 * network emulation on a server on this machine:
 *   - Lighthouse's "slow 4G": 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip;
 *   - office DSL: 10 Mbit/s down, 10 Mbit/s up (assumed symmetric enough: 2 Mbit/s), 40 ms.
 * Per link and server ("before": the server with compression off, BENCH_COMPRESSION=off; "after":
 * as shipped), each in a fresh browser context (empty cache, as a first visit), the steps:
 *   1. sign-in page ready: navigation to /login until the login form is there;
 *   2. log in to the dashboard: the submit click until the layout is there;
 *   3. the 500-row order list as a new document (a reload of its address, cache warm from 2);
 *   4. the same list from the menu (away to the dashboard and back);
 * with the bytes on the wire of each (CDP encodedDataLength, headers included).
 * Plus, on the "after" server: the 500-row page's size plain, brotli and gzip, full and lean, and the
 * server's CPU per page with compression (Accept-Encoding: br, gzip) and without (identity),
 * alternating rounds under autocannon. BENCH_WAN_BASELINE_DIST=<a copy of an earlier admin/dist> adds a
 * third server ("baselineBundle", compressed) serving that build: the bundle's split measured against
 * the earlier one in the same run.
 */
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { metadata } from '../../server/generated/index.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';
import { chromiumPath } from '../e2e/chromium.ts';
import { ROOT, cpuMeter, load, login, median, round, startServer, type BenchServer } from './lib.ts';
import type { Ctx } from './steps.ts';
import type { StepResult } from './report.ts';
import { fillLoginForm } from './login-form.ts';

const ADMIN_DIST = join(ROOT, 'admin', 'dist');
const SUPPLIER = { user: 'sup01', warehouse: 'PDC01' };
const SCREEN = metadata.screens.find((s) => s.name === 'orderConfirm')!;

/** Network conditions of the DevTools protocol (throughputs in bytes per second). */
export const LINKS = {
  slow4g: { latency: 150, downloadThroughput: (1.6e6 / 8) * 0.9, uploadThroughput: (750e3 / 8) * 0.9 },
  dsl: { latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 2e6 / 8 },
} as const;
type Link = keyof typeof LINKS;
const STEPS = ['signIn', 'login', 'orderListNewDocument', 'orderListFromMenu'] as const;
type WanStep = (typeof STEPS)[number];
type Figures = Record<WanStep, { ms: number; bytes: number; largest: string[] }>;

/** Bytes on the wire since the last reset (responses' encoded lengths, headers included), and the largest responses. */
async function wireCounter(cdp: CDPSession): Promise<() => { bytes: number; largest: string[] }> {
  let bytes = 0;
  let seen: { url: string; bytes: number }[] = [];
  const urls = new Map<string, string>();
  cdp.on('Network.responseReceived', (e: { requestId: string; response: { url: string } }) => urls.set(e.requestId, e.response.url));
  cdp.on('Network.loadingFinished', (e: { requestId: string; encodedDataLength: number }) => {
    bytes += e.encodedDataLength;
    seen.push({ url: (urls.get(e.requestId) ?? '?').replace(/^https?:\/\/[^/]+/, ''), bytes: e.encodedDataLength });
  });
  return () => {
    const out = {
      bytes,
      largest: seen
        .sort((a, b) => b.bytes - a.bytes)
        .slice(0, 4)
        .map((x) => `${x.url.slice(0, 60)} ${round(x.bytes / 1024, 1)} kB`),
    };
    bytes = 0;
    seen = [];
    return out;
  };
}

/** after a step, how long responses still finishing (a late chunk) are counted with it: a full run's, a smoke run's */
const SETTLE_MS = 200;
const SMOKE_SETTLE_MS = 50;

async function timed(
  take: () => { bytes: number; largest: string[] },
  settleMs: number,
  f: () => Promise<void>,
): Promise<{ ms: number; bytes: number; largest: string[] }> {
  take();
  const t = performance.now();
  await f();
  const ms = performance.now() - t;
  // responses still finishing (a late chunk) belong to the step
  await new Promise((r) => setTimeout(r, settleMs));
  return { ms: round(ms), ...take() };
}

/** Rows of the order list on screen (the lean table's count of its data). */
const rowsShown = (page: Page) => page.getByTestId('lean-table').getAttribute('data-row-count');

async function visit(browser: Browser, base: string, link: Link, settleMs: number): Promise<Figures> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, locale: 'zh-CN' });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...LINKS[link] });
    const take = await wireCounter(cdp);
    const f = {} as Figures;
    f.signIn = await timed(take, settleMs, async () => {
      await page.goto(`${base}/login`, { waitUntil: 'commit' });
      await page.getByTestId('login-submit').waitFor({ timeout: 120_000 });
    });
    await fillLoginForm(page, SUPPLIER.user, SUPPLIER.warehouse);
    f.login = await timed(take, settleMs, async () => {
      await page.getByTestId('login-submit').click();
      await page.waitForURL(/\/dashboard$/, { timeout: 120_000 });
      await page.getByTestId('layout').waitFor({ timeout: 120_000 });
    });
    f.orderListNewDocument = await timed(take, settleMs, async () => {
      await page.goto(`${base}${SCREEN.path}`, { waitUntil: 'commit' });
      await page.waitForFunction(() => Number(document.querySelector('[data-testid="lean-table"]')?.getAttribute('data-row-count') ?? 0) > 0, null, {
        timeout: 120_000,
      });
    });
    const rows = Number(await rowsShown(page));
    await page.getByTestId('menu').locator('[data-testid="menu-item"][data-path="/dashboard"]').click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByTestId('lean-table').waitFor({ state: 'detached' });
    const item = page.getByTestId('menu').locator(`[data-testid="menu-item"][data-path="${SCREEN.path}"]`);
    if (!(await item.isVisible())) {
      const key = await page.evaluate(
        `document.querySelector('[data-testid="menu"] [data-testid="menu-item"][data-path="${SCREEN.path}"]')?.closest('.MuiCollapse-root')?.previousElementSibling?.getAttribute('data-key') ?? null`,
      );
      if (typeof key === 'string') await page.getByTestId('menu').locator(`[data-testid="menu-group"][data-key="${key}"]`).click();
    }
    f.orderListFromMenu = await timed(take, settleMs, async () => {
      const answered = page.waitForResponse((r) => r.url().includes('/api/orders?'), { timeout: 120_000 });
      await item.click();
      await answered;
      await page.waitForFunction((n) => Number(document.querySelector('[data-testid="lean-table"]')?.getAttribute('data-row-count') ?? 0) === n, rows, {
        timeout: 120_000,
      });
    });
    if (!rows) throw new Error('the order list showed no rows');
    return f;
  } finally {
    await context.close();
  }
}

/** The 500-row page's bytes: plain / brotli / gzip, full and lean (as the screen asks for it). */
async function pageSizes(base: string, token: string) {
  const q = new URLSearchParams({
    filter: JSON.stringify(SCREEN.fixedFilter),
    sort: JSON.stringify([SCREEN.defaultSort!.field, SCREEN.defaultSort!.order]),
    range: JSON.stringify([0, metadata.app.pageSize - 1]),
  });
  // node:http: the bytes as sent (fetch would decode them)
  const size = (lean: boolean, encoding: string) =>
    new Promise<number>((ok, fail) => {
      const req = httpGet(
        `${base}/api/orders?${q}${lean ? `&screen=${SCREEN.name}` : ''}`,
        { headers: { authorization: `Bearer ${token}`, 'accept-encoding': encoding } },
        (res) => {
          let n = 0;
          res.on('data', (c: Buffer) => (n += c.length));
          res.on('end', () => (res.statusCode === 200 ? ok(n) : fail(new Error(`GET /api/orders: ${res.statusCode}`))));
        },
      );
      req.on('error', fail);
    });
  const out: Record<string, Record<string, number>> = {};
  for (const lean of [false, true])
    out[lean ? 'lean' : 'full'] = { identity: await size(lean, 'identity'), br: await size(lean, 'br'), gzip: await size(lean, 'gzip') };
  return { url: `/api/orders?${q}&screen=${SCREEN.name}`, bytes: out };
}

/** Server CPU per lean 500-row page with and without compression, alternating rounds. */
async function compressionCpu(ctx: Ctx, server: BenchServer, token: string, url: string) {
  const meter = cpuMeter(server.pids);
  const variants = { compressed: 'br, gzip', identity: 'identity' } as const;
  const per: Record<keyof typeof variants, number[]> = { compressed: [], identity: [] };
  const rounds = ctx.smoke ? 1 : ctx.rounds;
  for (let r = 0; r < rounds; r++) {
    for (const v of (r % 2 ? ['identity', 'compressed'] : ['compressed', 'identity']) as (keyof typeof variants)[]) {
      const res = await load(`${server.base}${url}`, {
        connections: 4,
        seconds: ctx.duration,
        headers: { authorization: `Bearer ${token}`, 'accept-encoding': variants[v] },
        cpu: meter,
      });
      if (res.non2xx) throw new Error(`${v}: ${res.non2xx} answers not 2xx`);
      per[v].push(res.serverCpuMsPerReq ?? NaN);
    }
  }
  const compressed = median(per.compressed);
  const identity = median(per.identity);
  return { cpuMsPerPage: { compressed: round(compressed, 2), identity: round(identity, 2) }, ratio: round(compressed / identity, 3), rounds: per };
}

export async function wanStep(ctx: Ctx): Promise<StepResult> {
  if (!existsSync(join(ADMIN_DIST, 'index.html'))) return { status: 'pending', note: 'pending: UI not built (admin/dist missing; run npm run build)' };
  const rounds = ctx.smoke ? 1 : Number(process.env.BENCH_WAN_ROUNDS ?? 2);
  const links: Link[] = ctx.smoke ? ['dsl'] : ['slow4g', 'dsl'];
  const before = await startServer(ctx.db, join(ctx.work, 'files'), ctx.serverCpu, { adminDir: ADMIN_DIST, compression: false });
  const after = await startServer(ctx.db, join(ctx.work, 'files'), ctx.serverCpu, { adminDir: ADMIN_DIST });
  // an earlier build of the admin (a copy of its admin/dist), served compressed: bundle against bundle in one run
  const baselineDist = process.env.BENCH_WAN_BASELINE_DIST;
  const baseline = baselineDist ? await startServer(ctx.db, join(ctx.work, 'files'), ctx.serverCpu, { adminDir: baselineDist }) : undefined;
  const servers: [string, BenchServer][] = [
    ['before', before],
    ['after', after],
  ];
  if (baseline) servers.push(['baselineBundle', baseline]);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
      headless: true,
    });
    const samples: Record<string, Figures[]> = {};
    for (let r = 0; r < rounds; r++) {
      for (const link of links) {
        // rotate which server goes first
        for (const [name, server] of servers.map((_, i) => servers[(i + r) % servers.length])) {
          const f = await visit(browser, server.base, link, ctx.smoke ? SMOKE_SETTLE_MS : SETTLE_MS);
          (samples[`${link}.${name}`] ??= []).push(f);
          ctx.log(`  wan ${link} ${name}: ${STEPS.map((s) => `${s} ${f[s].ms} ms ${round(f[s].bytes / 1024)} kB`).join(', ')}`);
        }
      }
    }
    const summary = Object.fromEntries(
      Object.entries(samples).map(([k, xs]) => [
        k,
        Object.fromEntries(STEPS.map((s) => [s, { ms: round(median(xs.map((x) => x[s].ms))), kB: round(median(xs.map((x) => x[s].bytes)) / 1024, 1) }])),
      ]),
    );
    const token = await login(after.base, SUPPLIER.user, DEMO_PASSWORD, SUPPLIER.warehouse);
    const sizes = await pageSizes(after.base, token);
    const cpu = await compressionCpu(ctx, after, token, sizes.url);
    return {
      status: 'ok',
      links: LINKS,
      screen: SCREEN.name,
      rounds,
      summary,
      pageBytes: sizes.bytes,
      compressionCpu: cpu,
      samples,
    };
  } finally {
    await browser?.close();
    await before.stop();
    await after.stop();
    await baseline?.stop();
  }
}
