/**
 * The server-side steps of the bench (run.ts runs them in this order): seeding, start-up, the list
 * API against its baselines, the sweep over every declared filter and sort, ship throughput,
 * export, codegen. Each returns a StepResult; none asserts a timing (targets are judged in
 * report.ts).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteDb } from '../../server/db/sqlite.ts';
import { migrate } from '../../server/db/migrate.ts';
import { metadata, schemas, tables, migrations } from '../../server/generated/index.ts';
import { seedDatabase } from '../../server/seed/index.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';
import { Engine, type HandlerTable } from '../../server/engine/engine.ts';
import { handlers } from '../../server/handlers/index.ts';
import { HAND_PAGE_SQL } from './baseline-route.ts';
import { DEMO_PRINCIPALS, listCases } from './list-cases.ts';
import { explain, largeTables, planCases, planProblems, timeCases } from './sweep.ts';
import { ROOT, login, load, median, memoryOf, percentile, round, runTsx, startServer, type BenchServer, type LoadResult } from './lib.ts';
import type { StepResult } from './report.ts';

type ServerTimingsLike = { bootMs: number; buildMs: number; listenMs: number };

export interface Ctx {
  smoke: boolean;
  scale: number;
  rounds: number;
  duration: number;
  warmup: number;
  db: string;
  reuseDb: boolean;
  work: string;
  serverCpu: number | undefined;
  /** the one server of a smoke run */
  shared?: BenchServer;
  log(s: string): void;
}

const CONFIRMED = metadata.codeTables.purchaseOrderStatus.values.find((v) => v.key === 'confirmed')!.code;
/** the list query the bench measures: sup01's confirmed lines in PDC01 (the order-ship screen), by order number */
export const LIST_QUERY = { filter: JSON.stringify({ status: CONFIRMED }), sort: JSON.stringify(['orderNo', 'ASC']), range: JSON.stringify([0, 499]) };
const SUPPLIER = { user: 'sup01', code: 'S001', warehouse: 'PDC01' };

const qs = (q: Record<string, string>) => new URLSearchParams(q).toString();
const files = (ctx: Ctx) => join(ctx.work, 'files');

/**
 * A server for one step. Each step of a full run gets a fresh process (no step measures another's
 * leftovers); a smoke run shares one, since only the shape of the results matters there.
 */
async function withServer<T>(ctx: Ctx, f: (s: BenchServer) => Promise<T>): Promise<T> {
  if (ctx.smoke) {
    ctx.shared ??= await startServer(ctx.db, files(ctx), ctx.serverCpu);
    return f(ctx.shared);
  }
  const s = await startServer(ctx.db, files(ctx), ctx.serverCpu);
  try {
    return await f(s);
  } finally {
    await s.stop();
  }
}

/* ------------------------------------------------------------------ 7b. seeding */

export async function seedStep(ctx: Ctx): Promise<StepResult> {
  const side = `${ctx.db}.json`;
  if (ctx.reuseDb && existsSync(ctx.db) && existsSync(side)) {
    const info = JSON.parse(readFileSync(side, 'utf8')) as { scale: number; seedMs: number; checkpointMs: number; rows: Record<string, number> };
    if (info.scale === ctx.scale) {
      const db = new SqliteDb(ctx.db);
      const t = performance.now();
      const report = await migrate(db, tables.sqlite, migrations);
      const migrateMs = performance.now() - t;
      await db.close();
      return { status: 'ok', reused: true, ...info, migrateMs: round(migrateMs), createdIndexes: report.createdIndexes.length, droppedIndexes: report.droppedIndexes.length, dbBytes: statSync(ctx.db).size };
    }
  }
  mkdirSync(dirname(ctx.db), { recursive: true });
  for (const s of ['', '-wal', '-shm', '.json']) rmSync(ctx.db + s, { force: true });
  // as npm start does on its first start: open, create the tables, seed (production password hashing)
  const db = new SqliteDb(ctx.db);
  await migrate(db, tables.sqlite, migrations);
  const t = performance.now();
  await seedDatabase(db, metadata, { scale: ctx.scale });
  const seedMs = performance.now() - t;
  const t2 = performance.now();
  await db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const checkpointMs = performance.now() - t2;
  const rows: Record<string, number> = {};
  for (const e of Object.values(metadata.entities)) rows[e.resource] = Number((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM "${e.table}"`))!.n);
  await db.close();
  const info = { scale: ctx.scale, seedMs: round(seedMs), checkpointMs: round(checkpointMs), rows, metadataHash: metadata.hash };
  writeFileSync(side, JSON.stringify(info, null, 2));
  const orders = rows.orders;
  return { status: 'ok', reused: false, ...info, ordersPerSecond: round(orders / (seedMs / 1000), 0), dbBytes: statSync(ctx.db).size };
}

/* ------------------------------------------------------------------ 7a. start-up */

export async function startupStep(ctx: Ctx): Promise<StepResult> {
  const runs: Record<string, number>[] = [];
  for (let i = 0; i < (ctx.smoke ? 1 : 3); i++) {
    const s = ctx.smoke ? (ctx.shared ??= await startServer(ctx.db, files(ctx), ctx.serverCpu)) : await startServer(ctx.db, files(ctx), ctx.serverCpu);
    // and the first answer after 'listening' (routes compiled lazily would show here)
    const t = performance.now();
    const r = await fetch(`${s.base}/api/meta`);
    await r.arrayBuffer();
    const firstRequestMs = performance.now() - t;
    runs.push({ wallMs: round(s.wallMs), ...Object.fromEntries(Object.entries(s.timings).map(([k, v]) => [k, round(v)])), firstRequestMs: round(firstRequestMs), rssBytes: memoryOf(s.pid).rss });
    if (!ctx.smoke) await s.stop();
  }
  const pick = (k: string) => round(median(runs.map((r) => r[k])));
  // the same server compiled ahead of time (esbuild, dependencies left external): how much of the
  // start-up is tsx compiling TypeScript at run time
  let compiled: Record<string, unknown> = { status: 'skipped' };
  if (!ctx.smoke) {
    const out = join(ROOT, '.tmp', 'bench-server.mjs');
    // esbuild's JS API: after its postinstall, bin/esbuild is a native executable, not a script
    const { build } = await import('esbuild');
    const b = await build({ entryPoints: [join(ROOT, 'tests', 'bench', 'server.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', outfile: out, logLevel: 'error' })
      .then(() => ({ code: 0, stderr: '' }))
      .catch((e: Error) => ({ code: 1, stderr: String(e.message) }));
    if (b.code === 0) {
      const cruns: number[] = [];
      const parts: ServerTimingsLike[] = [];
      for (let i = 0; i < 3; i++) {
        const s = await startServer(ctx.db, files(ctx), ctx.serverCpu, { bundle: out });
        cruns.push(s.wallMs);
        parts.push(s.timings);
        await s.stop();
      }
      compiled = { status: 'ok', readyMs: round(median(cruns)), runs: cruns.map((x) => round(x)), bootMs: round(median(parts.map((p) => p.bootMs))), buildMs: round(median(parts.map((p) => p.buildMs))), listenMs: round(median(parts.map((p) => p.listenMs))) };
      rmSync(out, { force: true });
    } else compiled = { status: 'failed', error: b.stderr.slice(0, 500) };
  }
  return {
    status: 'ok',
    compiledAhead: compiled,
    runs,
    // spawn -> listening as the parent sees it (node + tsx start-up, imports, buildApp, routes)
    readyMs: pick('wallMs'),
    breakdown: { bootMs: pick('bootMs'), importMs: pick('importMs'), buildMs: pick('buildMs'), listenMs: pick('listenMs') },
    dbBytes: statSync(ctx.db).size,
  };
}

/* ------------------------------------------------------------------ 1. the list API */

interface VariantRound extends LoadResult { round: number }

function summarize(rs: VariantRound[]) {
  return {
    reqPerSec: round(median(rs.map((r) => r.reqPerSec)), 1),
    reqPerSecMin: round(Math.min(...rs.map((r) => r.reqPerSec)), 1),
    reqPerSecMax: round(Math.max(...rs.map((r) => r.reqPerSec)), 1),
    p50: round(median(rs.map((r) => r.p50))),
    p95: round(median(rs.map((r) => r.p95))),
    p99: round(median(rs.map((r) => r.p99))),
    serverCpuMsPerReq: round(median(rs.map((r) => r.serverCpuMsPerReq ?? NaN))),
    serverCpuBusy: round(median(rs.map((r) => r.serverCpuBusy ?? NaN))),
    loadGeneratorCpuBusy: round(median(rs.map((r) => r.loadGeneratorCpuBusy ?? NaN))),
    requests: rs.reduce((a, r) => a + r.requests, 0),
    non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
    errors: rs.reduce((a, r) => a + r.errors + r.timeouts, 0),
  };
}

export async function listStep(ctx: Ctx): Promise<StepResult> {
  return withServer(ctx, async (s) => {
    const token = await login(s.base, SUPPLIER.user, DEMO_PASSWORD, SUPPLIER.warehouse);
    const headers = { authorization: `Bearer ${token}` };
    const urls = { generic: `${s.base}/api/orders?${qs(LIST_QUERY)}`, hand: `${s.base}/bench/orders?${qs(LIST_QUERY)}` };

    // the variants must do the same work: same bytes out, same plan
    const [g, h] = await Promise.all([fetch(urls.generic, { headers }), fetch(urls.hand, { headers })]);
    const [gb, hb] = [await g.text(), await h.text()];
    const same = g.status === 200 && h.status === 200 && gb === hb && g.headers.get('content-range') === h.headers.get('content-range');
    if (!same) throw new Error(`generic and hand-written routes differ: ${g.status} ${g.headers.get('content-range')} / ${h.status} ${h.headers.get('content-range')}`);
    const sdb = new SqliteDb(ctx.db);
    const db = sdb.raw;
    const engine = new Engine(sdb, metadata, schemas, handlers as unknown as HandlerTable);
    const p = { ...DEMO_PRINCIPALS.supplier, supplierCode: SUPPLIER.code, warehouse: SUPPLIER.warehouse };
    const st = engine.listStatements(p, metadata.entities.order, LIST_QUERY);
    const genericPlan = explain(db, st.page.sql, st.page.params);
    const handPlan = explain(db, HAND_PAGE_SQL, [SUPPLIER.code, SUPPLIER.code, SUPPLIER.code, SUPPLIER.warehouse, CONFIRMED, 500, 0]);
    const countPlan = explain(db, st.count.sql, st.count.params);
    db.close();
    if (genericPlan.join('|') !== handPlan.join('|')) throw new Error(`plans differ: ${genericPlan.join(' | ')} vs ${handPlan.join(' | ')}`);

    type V = 'generic' | 'hand' | 'raw' | 'rawObjects';
    const rounds: Record<V, VariantRound[]> = { generic: [], hand: [], raw: [], rawObjects: [] };
    // rawObjects (information): the floor with rows as better-sqlite3 objects, as the engine built them before
    const order = ['generic', 'hand', 'raw', 'rawObjects'] as const;
    const rawQuery = { supplier: SUPPLIER.code, warehouse: SUPPLIER.warehouse, status: CONFIRMED, start: 0, end: 499 };
    for (let r = 0; r < ctx.rounds; r++) {
      // ABCD, BCDA, ...: no variant always runs first or last
      for (let k = 0; k < order.length; k++) {
        const v = order[(r + k) % order.length];
        if (v === 'raw' || v === 'rawObjects') {
          const objects = v === 'rawObjects';
          if (ctx.warmup > 0) await s.request({ type: 'raw', ms: ctx.warmup * 1000, query: rawQuery, objects }, 'raw');
          const m = await s.request<{ samples: number[]; bytes: number }>({ type: 'raw', ms: ctx.duration * 1000, query: rawQuery, objects }, 'raw');
          const total = m.samples.reduce((a, b) => a + b, 0);
          rounds[v].push({ round: r, serverCpuMsPerReq: total / m.samples.length, reqPerSec: m.samples.length / (total / 1000), p50: percentile(m.samples, 50), p95: percentile(m.samples, 95), p99: percentile(m.samples, 99), max: Math.max(...m.samples), requests: m.samples.length, non2xx: 0, errors: 0, timeouts: 0, bytesPerSec: (m.bytes * m.samples.length) / (total / 1000) });
        } else {
          if (ctx.warmup > 0) await load(urls[v], { connections: 10, seconds: ctx.warmup, headers });
          rounds[v].push({ round: r, ...(await load(urls[v], { connections: 10, seconds: ctx.duration, headers, serverPid: s.pid })) });
        }
        ctx.log(`  list round ${r + 1} ${v}: ${round(rounds[v].at(-1)!.reqPerSec, 1)} req/s, p95 ${round(rounds[v].at(-1)!.p95)} ms`);
      }
    }
    // one user alone: the latency of a page with nothing queued in front of it
    const single = await load(urls.generic, { connections: 1, seconds: ctx.duration, headers, serverPid: s.pid });
    ctx.log(`  list generic, 1 connection: ${round(single.reqPerSec, 1)} req/s, p95 ${round(single.p95)} ms`);
    const ratio = (a: V, b: V) => round(median(rounds[a].map((x, i) => x.reqPerSec / rounds[b][i].reqPerSec)), 3);
    const mem = memoryOf(s.pid);
    return {
      status: 'ok',
      query: { resource: 'orders', user: `${SUPPLIER.user} (${SUPPLIER.code}, ${SUPPLIER.warehouse})`, ...LIST_QUERY, contentRange: g.headers.get('content-range'), responseBytes: gb.length },
      plans: { page: genericPlan, count: countPlan },
      variants: { generic: summarize(rounds.generic), hand: summarize(rounds.hand), raw: summarize(rounds.raw), rawObjects: summarize(rounds.rawObjects) },
      ratios: {
        genericToHand: ratio('generic', 'hand'),
        handToRaw: ratio('hand', 'raw'),
        genericToRaw: ratio('generic', 'raw'),
        rawArraysToObjects: ratio('raw', 'rawObjects'),
        // the same comparison by the server's CPU per request, which other load on the machine skews less
        genericToHandByCpu: round(median(rounds.hand.map((x, i) => (x.serverCpuMsPerReq ?? NaN) / (rounds.generic[i].serverCpuMsPerReq ?? NaN))), 3),
      },
      singleConnection: { reqPerSec: round(single.reqPerSec, 1), p50: round(single.p50), p95: round(single.p95), p99: round(single.p99), serverCpuMsPerReq: round(single.serverCpuMsPerReq ?? NaN) },
      rounds,
      server: { rssBytes: mem.rss, peakRssBytes: mem.hwm, pragmas: s.pragmas },
    };
  });
}

/* ------------------------------------------------------------------ every declared filter and sort */

export async function sweepStep(ctx: Ctx): Promise<StepResult> {
  const sdb = new SqliteDb(ctx.db);
  const db = sdb.raw;
  try {
    const engine = new Engine(sdb, metadata, schemas, handlers as unknown as HandlerTable);
    const cases = listCases(metadata, db, { all: !ctx.smoke });
    const planned = planCases(engine, db, cases, DEMO_PRINCIPALS);
    const large = largeTables(db, metadata, ctx.scale);
    const problems = planned.flatMap((pc) => planProblems(pc, large, (r) => engine.entityOf(r).table).map((x) => `${pc.case.label} [${pc.principal}]: ${x}`));
    // one warm-up pass, then the median of three
    await timeCases(engine, db, planned, DEMO_PRINCIPALS, 1);
    const runs = [await timeCases(engine, db, planned, DEMO_PRINCIPALS, 1), await timeCases(engine, db, planned, DEMO_PRINCIPALS, 1), await timeCases(engine, db, planned, DEMO_PRINCIPALS, 1)];
    const timed = runs[0].map((t, i) => ({ ...t, listMs: round(median(runs.map((r) => r[i].listMs))), pageMs: round(median(runs.map((r) => r[i].pageMs))), countMs: round(median(runs.map((r) => r[i].countMs))) }));
    const ms = timed.map((t) => t.listMs);
    const worst = [...timed].sort((a, b) => b.listMs - a.listMs).slice(0, 15);
    return {
      status: 'ok',
      cases: timed.length,
      planProblems: problems,
      listMs: { p50: round(percentile(ms, 50)), p95: round(percentile(ms, 95)), max: round(Math.max(...ms)) },
      over50ms: timed.filter((t) => t.listMs > 50).length,
      over100ms: timed.filter((t) => t.listMs > 100).length,
      worst,
      all: timed.map((t) => ({ label: t.label, principal: t.principal, listMs: t.listMs, rows: t.rows, total: `${t.total}${t.totalIsLowerBound ? '+' : ''}` })),
    };
  } finally {
    db.close();
  }
}

/* ------------------------------------------------------------------ 2. ship throughput */

interface Line { id: number; order_qty: number; shipped_qty: number; unsent_qty: number }

async function shipLoop(base: string, token: string, lines: number[], clients: number, until: { seconds?: number; calls?: number }) {
  const times: number[] = [];
  const byStatus: Record<number, number> = {};
  const acceptedByLine = new Map<number, number>();
  let next = 0;
  let issued = 0;
  const deadline = until.seconds !== undefined ? performance.now() + until.seconds * 1000 : Infinity;
  const t0 = performance.now();
  const worker = async () => {
    for (;;) {
      if (performance.now() >= deadline) return;
      if (until.calls !== undefined && issued >= until.calls) return;
      issued++;
      const id = lines[next++ % lines.length];
      const t = performance.now();
      const r = await fetch(`${base}/api/orders/${id}/actions/ship`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"shipQty":1}' });
      await r.arrayBuffer();
      times.push(performance.now() - t);
      byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
      if (r.status === 200) acceptedByLine.set(id, (acceptedByLine.get(id) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  const seconds = (performance.now() - t0) / 1000;
  const accepted = byStatus[200] ?? 0;
  return {
    clients,
    calls: times.length,
    accepted,
    refused: byStatus[409] ?? 0,
    other: times.length - accepted - (byStatus[409] ?? 0),
    statuses: byStatus,
    callsPerSec: round(times.length / seconds, 1),
    shipsPerSec: round(accepted / seconds, 1),
    p50: round(percentile(times, 50)),
    p95: round(percentile(times, 95)),
    p99: round(percentile(times, 99)),
    acceptedByLine,
  };
}

export async function shipStep(ctx: Ctx): Promise<StepResult> {
  return withServer(ctx, async (s) => {
    const token = await login(s.base, SUPPLIER.user, DEMO_PASSWORD, SUPPLIER.warehouse);
    const db = new Database(ctx.db, { readonly: true });
    const pick = db.prepare(
      `SELECT id, order_qty, shipped_qty, unsent_qty FROM "order" WHERE status = ? AND warehouse_code = ? AND (direct_supplier_code = ? OR production_supplier_code = ? OR purchasing_supplier_code = ?) AND unsent_qty >= ? ORDER BY unsent_qty DESC, id LIMIT ?`,
    );
    const candidates = pick.all(CONFIRMED, SUPPLIER.warehouse, SUPPLIER.code, SUPPLIER.code, SUPPLIER.code, 2, 200) as Line[];
    const byId = () => new Map((db.prepare(`SELECT id, order_qty, shipped_qty, unsent_qty FROM "order" WHERE id IN (${candidates.map(() => '?').join(',')})`).all(...candidates.map((c) => c.id)) as Line[]).map((l) => [l.id, l]));
    // the line with the fewest open pieces goes to the over-shipping check; the others are shared by the clients
    const sorted = [...candidates].sort((a, b) => a.unsent_qty - b.unsent_qty);
    const checkLine = sorted.find((l) => l.unsent_qty >= 2 && l.unsent_qty <= 60) ?? sorted[0];
    const shared = candidates.filter((l) => l.id !== checkLine.id);
    const half = Math.max(1, Math.floor(shared.length / 2));
    const oneLines = shared.slice(0, half).map((l) => l.id);
    const tenLines = shared.slice(half, half + 20).map((l) => l.id);
    const before = byId();

    const one = await shipLoop(s.base, token, oneLines, 1, { seconds: ctx.duration });
    ctx.log(`  ship 1 client: ${one.shipsPerSec} ships/s, p95 ${one.p95} ms`);
    const ten = await shipLoop(s.base, token, tenLines, 10, { seconds: ctx.duration });
    ctx.log(`  ship 10 clients on ${tenLines.length} shared lines: ${ten.shipsPerSec} ships/s, p95 ${ten.p95} ms`);
    // 10 clients race for the last pieces of one line: twice as many calls as pieces
    const open = checkLine.unsent_qty;
    const race = await shipLoop(s.base, token, [checkLine.id], 10, { calls: open * 2 });
    const after = byId();
    db.close();

    // every accepted call shipped exactly one piece, and no line shipped more than it ordered
    const problems: string[] = [];
    for (const [id, l] of after) {
      const accepted = (one.acceptedByLine.get(id) ?? 0) + (ten.acceptedByLine.get(id) ?? 0) + (race.acceptedByLine.get(id) ?? 0);
      const b = before.get(id)!;
      if (l.shipped_qty - b.shipped_qty !== accepted) problems.push(`line ${id}: ${accepted} accepted, shipped ${l.shipped_qty - b.shipped_qty}`);
      if (l.shipped_qty > l.order_qty || l.unsent_qty < 0 || l.shipped_qty + l.unsent_qty !== l.order_qty) problems.push(`line ${id}: ordered ${l.order_qty}, shipped ${l.shipped_qty}, unsent ${l.unsent_qty}`);
    }
    if (race.accepted !== open) problems.push(`race: ${race.accepted} accepted for ${open} open pieces`);
    const strip = ({ acceptedByLine, ...r }: typeof one) => (void acceptedByLine, r);
    const overShipped = [...after.values()].filter((l) => l.shipped_qty > l.order_qty).length;
    return {
      status: 'ok',
      synchronous: s.pragmas.synchronous,
      journalMode: s.pragmas.journal_mode,
      oneClient: { ...strip(one), lines: oneLines.length },
      tenClients: { ...strip(ten), lines: tenLines.length },
      race: { ...strip(race), openPieces: open },
      overShippedLines: overShipped,
      invariantProblems: problems,
    };
  });
}

/* ------------------------------------------------------------------ 6. export */

export async function exportStep(ctx: Ctx): Promise<StepResult> {
  const want = ctx.smoke ? 200 : 100_000;
  const db = new Database(ctx.db, { readonly: true });
  // a release-date window holding as close to `want` of sup01's lines in PDC01 as whole days allow
  // (orderSearch needs a filter): per-day counts, then the contiguous run of days nearest to `want`
  const scope = `warehouse_code = ? AND (direct_supplier_code = ? OR production_supplier_code = ? OR purchasing_supplier_code = ?)`;
  const sp = [SUPPLIER.warehouse, SUPPLIER.code, SUPPLIER.code, SUPPLIER.code];
  const days = db.prepare(`SELECT release_date AS d, COUNT(*) AS n FROM "order" WHERE ${scope} GROUP BY release_date ORDER BY release_date`).all(...sp) as { d: string; n: number }[];
  let best = { from: 0, to: days.length - 1, n: days.reduce((a, x) => a + x.n, 0) };
  for (let i = 0, j = 0, sum = 0; j < days.length; j++) {
    sum += days[j].n;
    while (sum > want && i < j) sum -= days[i++].n;
    for (const [a, n] of [[i, sum], [Math.max(0, i - 1), sum + (i > 0 ? days[i - 1].n : 0)]] as const)
      if (Math.abs(n - want) < Math.abs(best.n - want)) best = { from: a, to: j, n };
  }
  db.close();
  const rows = best.n;
  const filter = JSON.stringify({ releaseDate_gte: days[best.from]?.d ?? '1900-01-01', releaseDate_lte: days[best.to]?.d ?? '2999-12-31' });
  return withServer(ctx, async (s) => {
    const token = await login(s.base, SUPPLIER.user, DEMO_PASSWORD, SUPPLIER.warehouse);
    const url = `${s.base}/api/orders/export?${qs({ screen: 'orderSearch', filter, sort: JSON.stringify(['orderNo', 'ASC']) })}`;
    const before = memoryOf(s.pid);
    let peak = before.rss;
    const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(s.pid).rss)), 25);
    const t = performance.now();
    try {
      const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (r.status === 404) return { status: 'pending', note: 'pending: no export route answered GET /api/orders/export (404)' };
      let bytes = 0;
      let first = '';
      const reader = r.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!bytes) first = Buffer.from(value.subarray(0, 2)).toString('latin1');
        bytes += value.byteLength;
      }
      const seconds = (performance.now() - t) / 1000;
      if (r.status !== 200) return { status: 'failed', error: `export answered ${r.status}` };
      const after = memoryOf(s.pid);
      return {
        status: 'ok',
        rows,
        filter,
        seconds: round(seconds, 2),
        rowsPerSec: round(rows / seconds, 0),
        bytes,
        zip: first === 'PK',
        // resident set sampled every 25 ms while the export ran (the server process as a whole)
        peakRssBytes: peak,
        rssBeforeBytes: before.rss,
        // the kernel's high-water mark of the process since it started (start-up and login included)
        processHwmBytes: after.hwm,
      };
    } finally {
      clearInterval(sampler);
    }
  });
}

/* ------------------------------------------------------------------ 5. codegen */

export async function codegenStep(ctx: Ctx): Promise<StepResult> {
  const w = await runTsx(join(ROOT, 'tests', 'bench', 'codegen-watch.ts'), [String(ctx.smoke ? 1 : 7)]);
  if (w.code !== 0) throw new Error(`codegen watch: ${w.stderr}`.slice(0, 2000));
  const watch = JSON.parse(w.stdout.trim().split('\n').at(-1)!) as { samples: number[]; inProcessMs: number[]; coldMs: number; touched: string; stale: boolean };
  const full: { wallMs: number; toolMs: number }[] = [];
  for (let i = 0; i < (ctx.smoke ? 1 : 3); i++) {
    // --check does the whole run (load, check, compile, generate, compare) and writes nothing; it
    // prints its own time unless the project's generated files are stale (then the clock still counts)
    const r = await runTsx(join(ROOT, 'codegen', 'cli.ts'), ['--check']);
    const m = /\((\d+) ms\)/.exec(r.stdout);
    full.push({ wallMs: round(r.ms), toolMs: m ? Number(m[1]) : round(watch.coldMs) });
  }
  return {
    status: 'ok',
    fullRuns: full,
    // the codegen's own time, as it prints it (metadata load to generated output compared)
    fullMs: round(median(full.map((f) => f.toolMs))),
    // the same plus starting node and tsx: what `npm run codegen` takes on the clock
    fullWallMs: round(median(full.map((f) => f.wallMs))),
    watchMs: round(median(watch.samples)),
    watchMaxMs: round(Math.max(...watch.samples)),
    watchSamples: watch.samples.map((x) => round(x)),
    watchRegenerateMs: round(median(watch.inProcessMs)),
    touched: watch.touched,
    generatedUpToDate: !watch.stale,
  };
}
