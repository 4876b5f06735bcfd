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
import { hooks } from '../../server/hooks/index.ts';
import type { HookTable } from '../../server/engine/hooks.ts';
import { HAND_PAGE_SQL, type SqlListQuery } from './baseline-route.ts';
import { openDb } from '../../server/db/open.ts';
import type { Db } from '../../server/db/types.ts';
import { listJsonStatement } from '../../server/engine/list-json.ts';
import {
  SETUPS,
  benchDatabaseExists,
  pgSeedInfoFile,
  readSeedInfo,
  recreateBenchDatabase,
  runningOf,
  startSetup,
  writeSeedInfo,
  type BenchPostgres,
  type Running,
  type Setup,
} from './setups.ts';
import { DEMO_PRINCIPALS, listCases } from './list-cases.ts';
import { ensureTrigramIndexes } from '../../server/db/trigram.ts';
import { explain, largeTables, planCases, planProblems, timeCases, containsWithAndWithout } from './sweep.ts';
import {
  ROOT,
  compileBenchServer,
  cpuFigures,
  login,
  load,
  median,
  memoryOf,
  percentile,
  pinSelf,
  round,
  runTsx,
  startServer,
  type BenchServer,
  type LoadResult,
} from './lib.ts';
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
  /** a smoke run's servers of every setup, shared by its steps */
  running?: Map<string, Running>;
  /** whether the server, load generator and database are pinned to CPUs (setups.ts, placement) */
  pinned: boolean;
  /** the bench's PostgreSQL server (null: not installed or not wanted; pgNote says why) */
  pg: BenchPostgres | null;
  pgNote?: string;
  /** whether the bench database on it holds the data (the seed step sets it) */
  pgSeeded?: boolean;
  /** the compiled bench server the setups run (built once per run; run.ts removes it) */
  bundle?: string;
  log(s: string): void;
}

const CONFIRMED = metadata.codeTables.purchaseOrderStatus.values.find((v) => v.key === 'confirmed')!.code;
/** the list query the bench measures: sup01's confirmed lines in PDC01 (the order-ship screen), by order number */
export const LIST_QUERY = { filter: JSON.stringify({ status: CONFIRMED }), sort: JSON.stringify(['orderNo', 'ASC']), range: JSON.stringify([0, 499]) };
/**
 * The same page as the order confirmation screen asks for it (`?screen=`): only the screen's
 * fields, the lean page the admin is served (issue 21). The full page above stays the query the
 * hand-written route and the floors answer.
 */
export const LEAN_LIST_QUERY = { ...LIST_QUERY, screen: 'orderConfirm' };
const SUPPLIER = { user: 'sup01', code: 'S001', warehouse: 'PDC01' };
/** internal staff, for the JSON check of the lists a supplier may not read */
const INTERNAL = { user: 'staff01', warehouse: 'PDC01' };

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

/**
 * Seeds the SQLite file and, when PostgreSQL is there, the bench database on it: the same demo
 * data (seed, scale and the clock of the seeding, so created/updated times match too), each
 * timed. PostgreSQL is then vacuumed: a database in use is kept vacuumed by autovacuum, and until
 * then index-only scans (the bounded count) still read the table.
 */
export async function seedStep(ctx: Ctx): Promise<StepResult> {
  const sqlite = await seedSqlite(ctx);
  const postgres = await seedPostgres(ctx, (sqlite.now as string | undefined) ?? new Date().toISOString());
  if (postgres.status === 'failed') throw new Error(`PostgreSQL seeding: ${String(postgres.error)}`);
  const sameRows = postgres.status === 'ok' ? JSON.stringify(postgres.rows) === JSON.stringify(sqlite.rows) : null;
  return { ...sqlite, postgres: { ...postgres, sameRowCountsAsSqlite: sameRows } };
}

async function seedSqlite(ctx: Ctx): Promise<StepResult> {
  const side = `${ctx.db}.json`;
  if (ctx.reuseDb && existsSync(ctx.db) && existsSync(side)) {
    const info = JSON.parse(readFileSync(side, 'utf8')) as { scale: number; seedMs: number; checkpointMs: number; rows: Record<string, number> };
    if (info.scale === ctx.scale) {
      const db = new SqliteDb(ctx.db);
      const t = performance.now();
      const report = await migrate(db, tables.sqlite, migrations);
      const migrateMs = performance.now() - t;
      await ensureTrigramIndexes(db, metadata);
      await db.close();
      return {
        status: 'ok',
        reused: true,
        ...info,
        migrateMs: round(migrateMs),
        createdIndexes: report.createdIndexes.length,
        droppedIndexes: report.droppedIndexes.length,
        dbBytes: statSync(ctx.db).size,
      };
    }
  }
  mkdirSync(dirname(ctx.db), { recursive: true });
  for (const s of ['', '-wal', '-shm', '.json']) rmSync(ctx.db + s, { force: true });
  // as npm start does on its first start: open, create the tables, seed (production password hashing)
  const db = new SqliteDb(ctx.db);
  await migrate(db, tables.sqlite, migrations);
  const now = new Date().toISOString();
  const t = performance.now();
  await seedDatabase(db, metadata, { scale: ctx.scale, now });
  const seedMs = performance.now() - t;
  // the trigram indexes of the contains filters, as npm start builds them after the demo data (server/prepare.ts)
  const t1 = performance.now();
  await ensureTrigramIndexes(db, metadata);
  const trigramMs = performance.now() - t1;
  const t2 = performance.now();
  await db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  const checkpointMs = performance.now() - t2;
  const rows = await rowCounts(db);
  await db.close();
  const info = {
    scale: ctx.scale,
    seedMs: round(seedMs),
    trigramMs: round(trigramMs),
    checkpointMs: round(checkpointMs),
    rows,
    now,
    metadataHash: metadata.hash,
  };
  writeFileSync(side, JSON.stringify(info, null, 2));
  const orders = rows.orders;
  return { status: 'ok', reused: false, ...info, ordersPerSecond: round(orders / (seedMs / 1000), 0), dbBytes: statSync(ctx.db).size };
}

async function rowCounts(db: Db): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  for (const e of Object.values(metadata.entities)) rows[e.resource] = Number((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM "${e.table}"`))!.n);
  return rows;
}

async function seedPostgres(ctx: Ctx, now: string): Promise<StepResult> {
  if (!ctx.pg) return { status: 'pending', note: ctx.pgNote ?? 'PostgreSQL not available' };
  const side = pgSeedInfoFile(ctx.db);
  const info = readSeedInfo(side);
  try {
    if (ctx.reuseDb && info?.scale === ctx.scale && ctx.pg.cluster.reused && (await benchDatabaseExists(ctx.pg))) {
      const db = await openDb({ url: ctx.pg.url });
      try {
        await migrate(db, tables.postgres, migrations);
        await ensureTrigramIndexes(db, metadata);
        return { status: 'ok', reused: true, ...info, dbBytes: await pgDatabaseBytes(db) };
      } finally {
        await db.close();
      }
    }
    rmSync(side, { force: true });
    await recreateBenchDatabase(ctx.pg);
    const db = await openDb({ url: ctx.pg.url });
    try {
      await migrate(db, tables.postgres, migrations);
      const t = performance.now();
      // multi-row INSERTs with the secondary indexes dropped and built again, then ANALYZE (seed/)
      await seedDatabase(db, metadata, { scale: ctx.scale, now });
      const seedMs = performance.now() - t;
      const t1 = performance.now();
      await ensureTrigramIndexes(db, metadata);
      const trigramMs = performance.now() - t1;
      const t2 = performance.now();
      await db.exec('VACUUM');
      const vacuumMs = performance.now() - t2;
      const t3 = performance.now();
      await db.exec('CHECKPOINT');
      const checkpointMs = performance.now() - t3;
      const rows = await rowCounts(db);
      const out = {
        scale: ctx.scale,
        seedMs: round(seedMs),
        trigramMs: round(trigramMs),
        vacuumMs: round(vacuumMs),
        checkpointMs: round(checkpointMs),
        rows,
        now,
        metadataHash: metadata.hash,
      };
      writeSeedInfo(side, out);
      return { status: 'ok', reused: false, ...out, ordersPerSecond: round(rows.orders / (seedMs / 1000), 0), dbBytes: await pgDatabaseBytes(db) };
    } finally {
      await db.close();
    }
  } catch (err) {
    return { status: 'failed', error: String((err as Error).stack ?? err) };
  }
}

const pgDatabaseBytes = async (db: Db) => Number((await db.get<{ n: number }>(`SELECT pg_database_size(current_database()) AS n`))!.n);

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
    runs.push({
      wallMs: round(s.wallMs),
      ...Object.fromEntries(Object.entries(s.timings).map(([k, v]) => [k, round(v)])),
      firstRequestMs: round(firstRequestMs),
      rssBytes: memoryOf(s.pid).rss,
    });
    if (!ctx.smoke) await s.stop();
  }
  const pick = (k: string) => round(median(runs.map((r) => r[k])));
  // the same server compiled ahead of time (esbuild, dependencies left external): how much of the
  // start-up is tsx compiling TypeScript at run time
  let compiled: Record<string, unknown> = { status: 'skipped' };
  if (!ctx.smoke) {
    const out = join(ROOT, '.tmp', `bench-server-${process.pid}.mjs`);
    const b = await compileBenchServer(out)
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
      compiled = {
        status: 'ok',
        readyMs: round(median(cruns)),
        runs: cruns.map((x) => round(x)),
        bootMs: round(median(parts.map((p) => p.bootMs))),
        buildMs: round(median(parts.map((p) => p.buildMs))),
        listenMs: round(median(parts.map((p) => p.listenMs))),
      };
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

interface VariantRound extends LoadResult {
  round: number;
}

function summarize(rs: VariantRound[]) {
  const med = (k: keyof LoadResult) => round(median(rs.map((r) => (r[k] as number | undefined) ?? NaN)));
  return {
    reqPerSec: round(median(rs.map((r) => r.reqPerSec)), 1),
    reqPerSecMin: round(Math.min(...rs.map((r) => r.reqPerSec)), 1),
    reqPerSecMax: round(Math.max(...rs.map((r) => r.reqPerSec)), 1),
    p50: med('p50'),
    p95: med('p95'),
    p99: med('p99'),
    serverCpuMsPerReq: med('serverCpuMsPerReq'),
    dbCpuMsPerReq: med('dbCpuMsPerReq'),
    // node + database: what one request costs the machine(s) serving it
    totalCpuMsPerReq: round(median(rs.map((r) => (r.serverCpuMsPerReq ?? NaN) + (r.dbCpuMsPerReq ?? 0)))),
    serverCpuBusy: med('serverCpuBusy'),
    dbCpuBusy: med('dbCpuBusy'),
    loadGeneratorCpuBusy: med('loadGeneratorCpuBusy'),
    requests: rs.reduce((a, r) => a + r.requests, 0),
    non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
    errors: rs.reduce((a, r) => a + r.errors + r.timeouts, 0),
  };
}

/** The setups this run can measure (PostgreSQL ones when its server is up and seeded). */
function availableSetups(ctx: Ctx): Setup[] {
  return SETUPS.filter((x) => x.backend === 'sqlite' || (ctx.pg && ctx.pgSeeded));
}

/**
 * The servers of every setup, all started before anything is measured (an idle server costs
 * nothing) and stopped after the step; a smoke run keeps them for its later steps.
 */
export async function withSetups<T>(ctx: Ctx, f: (rs: Running[]) => Promise<T>, opts: { adminDir?: string } = {}): Promise<T> {
  const sctx = { db: ctx.db, filesDir: files(ctx), pg: ctx.pg, pinned: ctx.pinned, bundle: await setupBundle(ctx), ...opts };
  const running: Running[] = [];
  try {
    // started side by side (start-up is mostly compiling and loading modules: both CPUs help)
    const started = await Promise.allSettled(
      availableSetups(ctx).map(async (setup) => {
        const shared = ctx.smoke && setup.id === 'sqlite-1' && ctx.shared ? runningOf(sctx, setup, ctx.shared) : undefined;
        const r = (ctx.smoke ? (ctx.running?.get(setup.id) ?? shared) : undefined) ?? (await startSetup(sctx, setup));
        running.push(r);
        return r;
      }),
    );
    // a smoke run's servers are stopped at its end (run.ts), those that started included
    if (ctx.smoke) for (const r of running) (ctx.running ??= new Map()).set(r.setup.id, r);
    const failed = started.find((x): x is PromiseRejectedResult => x.status === 'rejected');
    if (failed) throw failed.reason;
    running.sort((a, b) => SETUPS.indexOf(a.setup) - SETUPS.indexOf(b.setup));
    return await f(running);
  } finally {
    if (!ctx.smoke) for (const r of running) await r.server.stop();
    // the load generator back on its own CPU for the steps that follow
    if (ctx.pinned) pinSelf(0);
  }
}

/**
 * The setups' servers run compiled ahead (as `npm start` runs server/dist/main.mjs), from one
 * build per run: every setup runs the same code, and six processes start in seconds, not tens.
 */
async function setupBundle(ctx: Ctx): Promise<string> {
  if (!ctx.bundle) {
    const out = join(ROOT, '.tmp', `bench-setups-${process.pid}.mjs`);
    await compileBenchServer(out);
    ctx.bundle = out;
  }
  return ctx.bundle;
}

type Variant = 'generic' | 'dbJson' | 'lean' | 'leanDbJson' | 'leanRecords' | 'hand' | 'raw' | 'rawObjects';
/**
 * What each setup measures: both routes and the lean page everywhere; the hand-written route and
 * the floors once per backend. On SQLite the generic route serves the database's JSON already, so
 * the lean page's other ways are measured on PostgreSQL only: its JSON built by PostgreSQL
 * (leanDbJson), and records through the response schema's serialiser (leanRecords, PostgreSQL's
 * route before server/engine/rows-json.ts).
 */
const VARIANTS_OF: Record<string, Variant[]> = {
  'sqlite-1': ['generic', 'dbJson', 'lean', 'hand', 'raw', 'rawObjects'],
  'sqlite-2': ['generic', 'dbJson', 'lean'],
  'postgres-1': ['generic', 'dbJson', 'lean', 'leanDbJson', 'leanRecords', 'raw'],
  'postgres-2': ['generic', 'dbJson', 'lean', 'leanDbJson', 'leanRecords'],
};

interface Unit {
  run: Running;
  variant: Variant;
  token: string;
}

/** where a list is asked: the generic route, the bench's db-json and records twins, or (`/bench/orders`) the hand-written route */
type Route = '/api' | '/bench/db-json' | '/bench/records' | '/bench';
const listUrl = (base: string, resource: string, q: Record<string, string>, route: Route = '/api') => `${base}${route}/${resource}?${qs(q)}`;
/** the route and query of each variant measured over HTTP */
const REQUEST_OF: Record<Exclude<Variant, 'raw' | 'rawObjects'>, { route: Route; query: Record<string, string> }> = {
  generic: { route: '/api', query: LIST_QUERY },
  dbJson: { route: '/bench/db-json', query: LIST_QUERY },
  hand: { route: '/bench', query: LIST_QUERY },
  lean: { route: '/api', query: LEAN_LIST_QUERY },
  leanDbJson: { route: '/bench/db-json', query: LEAN_LIST_QUERY },
  leanRecords: { route: '/bench/records', query: LEAN_LIST_QUERY },
};

/**
 * One setup's answers to the bench query, checked to be the same work on every route: the full
 * page on the generic and db-json routes (and the hand-written one on SQLite), the lean page on
 * the generic, db-json and records routes.
 */
async function checkSameAnswers(r: Running, token: string): Promise<{ full: Answer; leanBytes: number }> {
  const answer = async (v: keyof typeof REQUEST_OF): Promise<Answer> => {
    const res = await fetch(listUrl(r.server.base, 'orders', REQUEST_OF[v].query, REQUEST_OF[v].route), { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: await res.text(), contentRange: res.headers.get('content-range') };
  };
  /** `v` answers as `reference` does: byte for byte, or (`parseEqual`) the same JSON */
  const same = async (reference: Answer, v: keyof typeof REQUEST_OF, parseEqual = true) => {
    const verdict = compareAnswers(reference, await answer(v));
    if (verdict === 'different' || (!parseEqual && verdict !== 'identical'))
      throw new Error(`${r.setup.id}: the ${v} variant's answer differs from the generic route's`);
  };
  const full = await answer('generic');
  if (full.status !== 200) throw new Error(`${r.setup.id}: generic route answered ${full.status}: ${full.body.slice(0, 300)}`);
  await same(full, 'dbJson');
  if (r.setup.id === 'sqlite-1') await same(full, 'hand', false);
  const lean = await answer('lean');
  if (lean.status !== 200) throw new Error(`${r.setup.id}: the lean page answered ${lean.status}: ${lean.body.slice(0, 300)}`);
  await same(lean, 'leanDbJson');
  await same(lean, 'leanRecords', false);
  return { full, leanBytes: lean.body.length };
}

export async function listStep(ctx: Ctx): Promise<StepResult> {
  const t0 = performance.now();
  return withSetups(ctx, async (running) => {
    ctx.log(`  ${running.length} setups running (${round((performance.now() - t0) / 1000, 1)} s)`);
    const byId = new Map(running.map((r) => [r.setup.id, r]));
    const tokens = new Map<string, string>();
    for (const r of running) tokens.set(r.setup.id, await login(r.server.base, SUPPLIER.user, DEMO_PASSWORD, SUPPLIER.warehouse));

    // the variants must do the same work: the same bytes out (checked), the same plan
    const first: Record<string, Answer> = {};
    const leanBytes: Record<string, number> = {};
    for (const r of running) {
      const checked = await checkSameAnswers(r, tokens.get(r.setup.id)!);
      first[r.setup.id] = checked.full;
      leanBytes[r.setup.id] = checked.leanBytes;
    }
    const plans = await listPlans(ctx);

    // the generic route against the db-json route on every declared list query, per backend
    const jsonCheck: Record<string, unknown> = {};
    for (const id of ['sqlite-1', 'postgres-1']) {
      const r = byId.get(id);
      if (r) jsonCheck[r.setup.backend] = await checkJsonRoutes(ctx, r);
    }

    // every (setup, variant) pair is one unit; each round runs them all, rotated, so drift on the
    // machine spreads over all of them rather than favouring one
    const units: Unit[] = running.flatMap((r) => VARIANTS_OF[r.setup.id].map((variant) => ({ run: r, variant, token: tokens.get(r.setup.id)! })));
    const rounds = new Map<Unit, VariantRound[]>(units.map((u) => [u, []]));
    const pgStatements = ctx.pg && ctx.pgSeeded ? await pgListStatements(ctx) : null;
    for (let k = 0; k < ctx.rounds; k++) {
      for (let i = 0; i < units.length; i++) {
        const u = units[(k + i) % units.length];
        const m = await measureUnit(ctx, u, pgStatements);
        rounds.get(u)!.push({ round: k, ...m });
        ctx.log(
          `  list round ${k + 1} ${u.run.setup.id} ${u.variant}: ${round(m.reqPerSec, 1)} req/s, p95 ${round(m.p95)} ms, CPU ${round(m.serverCpuMsPerReq ?? NaN)}+${round(m.dbCpuMsPerReq ?? 0)} ms/req`,
        );
      }
    }
    // one user alone: the latency of a page with nothing queued in front of it
    const single: Record<string, ReturnType<typeof summarize>> = {};
    for (const r of running.filter((x) => x.setup.processes === 1)) {
      r.enter();
      const res = await load(listUrl(r.server.base, 'orders', LIST_QUERY), {
        connections: 1,
        seconds: ctx.duration,
        headers: { authorization: `Bearer ${tokens.get(r.setup.id)}` },
        cpu: r.cpu,
      });
      single[r.setup.id] = summarize([{ round: 0, ...res }]);
      ctx.log(`  list ${r.setup.id} generic, 1 connection: ${round(res.reqPerSec, 1)} req/s, p95 ${round(res.p95)} ms`);
    }

    const of = (id: string, v: Variant) => units.find((u) => u.run.setup.id === id && u.variant === v);
    /** median of per-round ratios a/b of a figure (the rounds pair up in time) */
    const ratio = (a: [string, Variant], b: [string, Variant], k: keyof LoadResult | 'totalCpu' = 'reqPerSec') => {
      const ua = of(...a);
      const ub = of(...b);
      if (!ua || !ub) return null;
      const x = (r: VariantRound) => (k === 'totalCpu' ? (r.serverCpuMsPerReq ?? NaN) + (r.dbCpuMsPerReq ?? 0) : (r[k] as number));
      return round(median(rounds.get(ua)!.map((r, i) => x(r) / x(rounds.get(ub)![i]))), 3);
    };
    /** a figure per PostgreSQL setup */
    const onPostgres = (f: (id: string) => number | null) =>
      Object.fromEntries(running.filter((r) => r.setup.backend === 'postgres').map((r) => [r.setup.id, f(r.setup.id)]));
    const setups: Record<string, unknown> = {};
    for (const r of running) {
      const id = r.setup.id;
      setups[id] = {
        label: r.setup.label,
        backend: r.setup.backend,
        processes: r.setup.processes,
        placement: r.place.note,
        contentRange: first[id].contentRange,
        responseBytes: first[id].body.length,
        leanResponseBytes: leanBytes[id],
        sameBodyAsSqlite: id === 'sqlite-1' ? true : first[id].body === first['sqlite-1']?.body,
        variants: Object.fromEntries(VARIANTS_OF[id].map((v) => [v, summarize(rounds.get(of(id, v)!)!)])),
        ...(single[id] ? { singleConnection: single[id] } : {}),
        server: {
          pragmas: r.server.pragmas,
          rssBytes: r.setup.processes === 1 ? memoryOf(r.server.pid).rss : r.server.workerPids.reduce((a, p) => a + memoryOf(p).rss, 0),
        },
      };
    }
    const s1 = setups['sqlite-1'] as {
      variants: Record<Variant, ReturnType<typeof summarize>>;
      contentRange: string;
      responseBytes: number;
      singleConnection: ReturnType<typeof summarize>;
      server: { rssBytes: number; pragmas: unknown };
    };
    const backends = [...new Set(running.map((r) => r.setup.backend))];
    return {
      status: 'ok',
      query: {
        resource: 'orders',
        user: `${SUPPLIER.user} (${SUPPLIER.code}, ${SUPPLIER.warehouse})`,
        ...LIST_QUERY,
        contentRange: s1.contentRange,
        responseBytes: s1.responseBytes,
      },
      plans,
      // SQLite, one process, as the bench has always reported it (targets list.ratio, list.p95)
      variants: s1.variants,
      ratios: {
        genericToHand: ratio(['sqlite-1', 'generic'], ['sqlite-1', 'hand']),
        handToRaw: ratio(['sqlite-1', 'hand'], ['sqlite-1', 'raw']),
        genericToRaw: ratio(['sqlite-1', 'generic'], ['sqlite-1', 'raw']),
        rawArraysToObjects: ratio(['sqlite-1', 'raw'], ['sqlite-1', 'rawObjects']),
        // the same comparison by the server's CPU per request, which other load on the machine skews less
        genericToHandByCpu: ratio(['sqlite-1', 'hand'], ['sqlite-1', 'generic'], 'serverCpuMsPerReq'),
      },
      singleConnection: s1.singleConnection,
      server: { rssBytes: s1.server.rssBytes, peakRssBytes: memoryOf(byId.get('sqlite-1')!.server.pid).hwm, pragmas: s1.server.pragmas },
      setups,
      comparison: {
        // > 1: the database-built JSON serves more pages per second / costs less CPU per page
        dbJsonToGeneric: Object.fromEntries(running.map((r) => [r.setup.id, ratio([r.setup.id, 'dbJson'], [r.setup.id, 'generic'])])),
        dbJsonToGenericByCpu: Object.fromEntries(running.map((r) => [r.setup.id, ratio([r.setup.id, 'generic'], [r.setup.id, 'dbJson'], 'totalCpu')])),
        // PostgreSQL's list throughput per server process against SQLite's (same processes, same query)
        postgresToSqlite: {
          oneProcess: ratio(['postgres-1', 'generic'], ['sqlite-1', 'generic']),
          twoProcesses: ratio(['postgres-2', 'generic'], ['sqlite-2', 'generic']),
          // the lean page, as each backend serves it (the admin asks for lean pages)
          leanOneProcess: ratio(['postgres-1', 'lean'], ['sqlite-1', 'lean']),
          leanTwoProcesses: ratio(['postgres-2', 'lean'], ['sqlite-2', 'lean']),
        },
        // PostgreSQL's lean page with its JSON built by PostgreSQL vs as served (> 1: the database's better)
        leanDbJsonToLean: onPostgres((id) => ratio([id, 'leanDbJson'], [id, 'lean'])),
        leanDbJsonToLeanByCpu: onPostgres((id) => ratio([id, 'lean'], [id, 'leanDbJson'], 'totalCpu')),
        // PostgreSQL's lean page as served (rows-json.ts) vs as records through the serialiser (> 1: as served better)
        leanToRecords: onPostgres((id) => ratio([id, 'lean'], [id, 'leanRecords'])),
        leanToRecordsByCpu: onPostgres((id) => ratio([id, 'leanRecords'], [id, 'lean'], 'totalCpu')),
        // two processes against one, per backend: p95 at 10 connections, and req/s
        twoToOneP95: Object.fromEntries(backends.map((b) => [b, ratio([`${b}-2`, 'generic'], [`${b}-1`, 'generic'], 'p95')])),
        twoToOneReqPerSec: Object.fromEntries(backends.map((b) => [b, ratio([`${b}-2`, 'generic'], [`${b}-1`, 'generic'])])),
      },
      jsonCheck,
      rounds: Object.fromEntries(units.map((u) => [`${u.run.setup.id}.${u.variant}`, rounds.get(u)])),
    };
  });
}

/** One measurement of a unit: HTTP under autocannon, or a floor inside the server process. */
async function measureUnit(ctx: Ctx, u: Unit, pgStatements: SqlListQuery | null): Promise<LoadResult> {
  const { run } = u;
  run.enter();
  if (u.variant === 'raw' || u.variant === 'rawObjects') {
    const sqlite = run.setup.backend === 'sqlite';
    const msg = (ms: number) =>
      sqlite
        ? {
            type: 'raw',
            ms,
            query: { supplier: SUPPLIER.code, warehouse: SUPPLIER.warehouse, status: CONFIRMED, start: 0, end: 499 },
            objects: u.variant === 'rawObjects',
          }
        : { type: 'rawSql', ms, concurrency: 10, ...pgStatements! };
    if (ctx.warmup > 0) await run.server.request(msg(ctx.warmup * 1000), 'raw');
    const c0 = run.cpu();
    const m = await run.server.request<{ samples: number[]; bytes: number; wallMs: number; cpuMs: number }>(msg(ctx.duration * 1000), 'raw');
    const c1 = run.cpu();
    const n = m.samples.length;
    // SQLite's floor runs one call after another (all CPU, no waiting): its rate is calls per
    // second of calling; PostgreSQL's keeps 10 in flight: calls per second of wall time
    const seconds = sqlite ? m.samples.reduce((a, b) => a + b, 0) / 1000 : m.wallMs / 1000;
    return {
      ...cpuFigures(c0, c1, n, m.wallMs),
      serverCpuMsPerReq: m.cpuMs / n,
      reqPerSec: n / seconds,
      p50: percentile(m.samples, 50),
      p95: percentile(m.samples, 95),
      p99: percentile(m.samples, 99),
      max: Math.max(...m.samples),
      requests: n,
      non2xx: 0,
      errors: 0,
      timeouts: 0,
      bytesPerSec: (m.bytes * n) / seconds,
    };
  }
  const { route, query } = REQUEST_OF[u.variant as keyof typeof REQUEST_OF];
  const url = listUrl(run.server.base, 'orders', query, route);
  const headers = { authorization: `Bearer ${u.token}` };
  if (ctx.warmup > 0) await load(url, { connections: 10, seconds: ctx.warmup, headers });
  return load(url, { connections: 10, seconds: ctx.duration, headers, cpu: run.cpu });
}

/** The engine's statements for the bench query on PostgreSQL (the floor runs them). */
async function pgListStatements(ctx: Ctx): Promise<SqlListQuery> {
  const db = await openDb({ url: ctx.pg!.url });
  try {
    const engine = new Engine(db, metadata, schemas, handlers as unknown as HandlerTable, hooks as unknown as HookTable);
    const st = engine.listStatements(BENCH_PRINCIPAL, metadata.entities.order, LIST_QUERY);
    return { page: st.page, count: st.count, size: st.end - st.start + 1 };
  } finally {
    await db.close();
  }
}

const BENCH_PRINCIPAL = { ...DEMO_PRINCIPALS.supplier, supplierCode: SUPPLIER.code, warehouse: SUPPLIER.warehouse };

/** The plans of the bench query: SQLite (generic = hand-written, checked) and PostgreSQL (EXPLAIN ANALYZE). */
async function listPlans(ctx: Ctx): Promise<Record<string, unknown>> {
  const sdb = new SqliteDb(ctx.db);
  const db = sdb.raw;
  const engine = new Engine(sdb, metadata, schemas, handlers as unknown as HandlerTable, hooks as unknown as HookTable);
  const st = engine.listStatements(BENCH_PRINCIPAL, metadata.entities.order, LIST_QUERY);
  const genericPlan = explain(db, st.page.sql, st.page.params);
  const handPlan = explain(db, HAND_PAGE_SQL, [SUPPLIER.code, SUPPLIER.code, SUPPLIER.code, SUPPLIER.warehouse, CONFIRMED, 500, 0]);
  const countPlan = explain(db, st.count.sql, st.count.params);
  const json = listJsonStatement(st, metadata.entities.order, engine.d);
  const jsonPlan = explain(db, json.sql, json.params);
  db.close();
  if (genericPlan.join('|') !== handPlan.join('|')) throw new Error(`plans differ: ${genericPlan.join(' | ')} vs ${handPlan.join(' | ')}`);
  const out: Record<string, unknown> = { page: genericPlan, count: countPlan, dbJson: jsonPlan };
  if (ctx.pg && ctx.pgSeeded) {
    const pdb = await openDb({ url: ctx.pg.url });
    try {
      const pe = new Engine(pdb, metadata, schemas, handlers as unknown as HandlerTable, hooks as unknown as HookTable);
      const pst = pe.listStatements(BENCH_PRINCIPAL, metadata.entities.order, LIST_QUERY);
      const plan = async (sql: string, params: unknown[]) =>
        (await pdb.all<Record<string, string>>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).map((r) => r['QUERY PLAN']);
      const pj = listJsonStatement(pst, metadata.entities.order, pe.d);
      out.postgres = {
        page: await plan(pst.page.sql, pst.page.params),
        count: await plan(pst.count.sql, pst.count.params),
        dbJson: await plan(pj.sql, pj.params),
      };
    } finally {
      await pdb.close();
    }
  }
  return out;
}

interface Answer {
  status: number;
  body: string;
  contentRange: string | null;
}

/** 'identical' bytes; 'parseEqual': the same JSON value with keys in the same order; else 'different'. */
function compareAnswers(a: Answer, b: Answer): 'identical' | 'parseEqual' | 'different' {
  if (a.status !== b.status || a.contentRange !== b.contentRange) return 'different';
  if (a.status !== 200 || a.body === b.body) return 'identical';
  try {
    return JSON.stringify(JSON.parse(a.body)) === JSON.stringify(JSON.parse(b.body)) ? 'parseEqual' : 'different';
  } catch {
    return 'different';
  }
}

/**
 * The generic route and the db-json route on every list query the metadata declares (the sweep's
 * cases; in a smoke run one value per filter), as the supplier and as internal staff: status,
 * Content-Range and body compared.
 */
async function checkJsonRoutes(ctx: Ctx, r: Running) {
  const sdb = new Database(ctx.db, { readonly: true });
  const cases = listCases(metadata, sdb, { all: !ctx.smoke });
  sdb.close();
  const users = {
    supplier: await login(r.server.base, SUPPLIER.user, DEMO_PASSWORD, SUPPLIER.warehouse),
    internal: await login(r.server.base, INTERNAL.user, DEMO_PASSWORD, INTERNAL.warehouse),
  };
  const jobs = cases.flatMap((c) => Object.entries(users).map(([who, token]) => ({ c, who, token })));
  const out = { queries: jobs.length, identical: 0, parseEqual: 0, different: 0, refusedByBoth: 0, examples: [] as string[], seconds: 0 };
  const t0 = performance.now();
  let next = 0;
  const get = async (url: string, token: string): Promise<Answer> => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: await res.text(), contentRange: res.headers.get('content-range') };
  };
  const worker = async () => {
    for (let i = next++; i < jobs.length; i = next++) {
      const { c, who, token } = jobs[i];
      const [a, b] = await Promise.all([
        get(listUrl(r.server.base, c.resource, c.query), token),
        get(listUrl(r.server.base, c.resource, c.query, '/bench/db-json'), token),
      ]);
      const v = compareAnswers(a, b);
      out[v]++;
      if (v === 'identical' && a.status !== 200) out.refusedByBoth++;
      if (v !== 'identical' && out.examples.length < 5)
        out.examples.push(
          `${c.label} [${who}]: ${v} (${a.status} ${a.contentRange} / ${b.status} ${b.contentRange})${v === 'parseEqual' ? ` first difference at ${firstDifference(a.body, b.body)}` : ''}`,
        );
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  out.seconds = round((performance.now() - t0) / 1000, 1);
  ctx.log(
    `  json check ${r.setup.backend}: ${out.identical} identical, ${out.parseEqual} equal after parsing, ${out.different} different of ${out.queries} (${out.seconds} s)`,
  );
  return out;
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `${i}: ${JSON.stringify(a.slice(Math.max(0, i - 30), i + 30))} vs ${JSON.stringify(b.slice(Math.max(0, i - 30), i + 30))}`;
}

/* ------------------------------------------------------------------ every declared filter and sort */

export async function sweepStep(ctx: Ctx): Promise<StepResult> {
  const sdb = new SqliteDb(ctx.db);
  const db = sdb.raw;
  try {
    const engine = new Engine(sdb, metadata, schemas, handlers as unknown as HandlerTable, hooks as unknown as HookTable);
    const cases = listCases(metadata, db, { all: !ctx.smoke });
    const planned = planCases(engine, db, cases, DEMO_PRINCIPALS);
    const large = largeTables(db, metadata, ctx.scale);
    const problems = planned.flatMap((pc) => planProblems(pc, large, (r) => engine.entityOf(r).table).map((x) => `${pc.case.label} [${pc.principal}]: ${x}`));
    // one warm-up pass, then the median of three
    await timeCases(engine, db, planned, DEMO_PRINCIPALS, 1);
    const runs = [
      await timeCases(engine, db, planned, DEMO_PRINCIPALS, 1),
      await timeCases(engine, db, planned, DEMO_PRINCIPALS, 1),
      await timeCases(engine, db, planned, DEMO_PRINCIPALS, 1),
    ];
    const timed = runs[0].map((t, i) => ({
      ...t,
      listMs: round(median(runs.map((r) => r[i].listMs))),
      pageMs: round(median(runs.map((r) => r[i].pageMs))),
      countMs: round(median(runs.map((r) => r[i].countMs))),
    }));
    const ms = timed.map((t) => t.listMs);
    const worst = [...timed].sort((a, b) => b.listMs - a.listMs).slice(0, 15);
    // the contains filters with their trigram index and with the plain LIKE of before (issue 21)
    const contains = containsWithAndWithout(db, planned);
    return {
      status: 'ok',
      contains,
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

interface Line {
  id: number;
  order_qty: number;
  shipped_qty: number;
  unsent_qty: number;
}

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
      const r = await fetch(`${base}/api/orders/${id}/actions/ship`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{"shipQty":1}',
      });
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

/**
 * Ship throughput on every setup, one after another (each setup writes its own lines of the same
 * data): one client, ten clients on shared lines, and ten clients racing for the last pieces of
 * one line, with the invariants checked in the database afterwards.
 */
export async function shipStep(ctx: Ctx): Promise<StepResult> {
  return withSetups(ctx, async (running) => {
    const setups: Record<string, Record<string, unknown>> = {};
    for (const r of running) {
      setups[r.setup.id] = { label: r.setup.label, placement: r.place.note, ...(await shipOn(ctx, r)) };
      const x = setups[r.setup.id] as { oneClient: { shipsPerSec: number }; tenClients: { shipsPerSec: number; p95: number } };
      ctx.log(`  ship ${r.setup.id}: 1 client ${x.oneClient.shipsPerSec} ships/s; 10 clients ${x.tenClients.shipsPerSec} ships/s, p95 ${x.tenClients.p95} ms`);
    }
    const s1 = setups['sqlite-1'];
    const problems = Object.entries(setups).flatMap(([id, x]) => (x.invariantProblems as string[]).map((p) => `${id}: ${p}`));
    const ratio = (a: string, b: string, k: 'oneClient' | 'tenClients') => {
      const x = setups[a]?.[k] as { shipsPerSec: number } | undefined;
      const y = setups[b]?.[k] as { shipsPerSec: number } | undefined;
      return x && y ? round(x.shipsPerSec / y.shipsPerSec, 3) : null;
    };
    return {
      // SQLite, one process, as the bench has always reported it
      ...s1,
      status: 'ok',
      invariantProblems: problems,
      overShippedLines: Object.values(setups).reduce((a, x) => a + (x.overShippedLines as number), 0),
      setups,
      comparison: {
        postgresToSqlite: {
          oneClient: ratio('postgres-1', 'sqlite-1', 'oneClient'),
          tenClients: ratio('postgres-1', 'sqlite-1', 'tenClients'),
          tenClientsTwoProcesses: ratio('postgres-2', 'sqlite-2', 'tenClients'),
        },
        twoToOneTenClients: { sqlite: ratio('sqlite-2', 'sqlite-1', 'tenClients'), postgres: ratio('postgres-2', 'postgres-1', 'tenClients') },
      },
    };
  });
}

async function shipOn(ctx: Ctx, r: Running): Promise<Record<string, unknown>> {
  const s = r.server;
  r.enter();
  const token = await login(s.base, SUPPLIER.user, DEMO_PASSWORD, SUPPLIER.warehouse);
  const db = await openDb(r.setup.backend === 'postgres' ? { url: ctx.pg!.url } : { file: ctx.db });
  try {
    const candidates = (
      await db.all<Line>(
        // lines the supplier ships: those it is the direct supplier of (order.ship's supplierFields)
        `SELECT id, order_qty, shipped_qty, unsent_qty FROM "order" WHERE status = ? AND warehouse_code = ? AND direct_supplier_code = ? AND unsent_qty >= ? ORDER BY unsent_qty DESC, id LIMIT ?`,
        [CONFIRMED, SUPPLIER.warehouse, SUPPLIER.code, 2, 200],
      )
    ).map(numbers);
    const byId = async () =>
      new Map(
        (
          await db.all<Line>(
            `SELECT id, order_qty, shipped_qty, unsent_qty FROM "order" WHERE id IN (${candidates.map(() => '?').join(',')})`,
            candidates.map((c) => c.id),
          )
        ).map((l) => [Number(l.id), numbers(l)]),
      );
    // the line with the fewest open pieces goes to the over-shipping check; the others are shared by the clients
    const sorted = [...candidates].sort((a, b) => a.unsent_qty - b.unsent_qty);
    const checkLine = sorted.find((l) => l.unsent_qty >= 2 && l.unsent_qty <= 60) ?? sorted[0];
    const shared = candidates.filter((l) => l.id !== checkLine.id);
    const half = Math.max(1, Math.floor(shared.length / 2));
    const oneLines = shared.slice(0, half).map((l) => l.id);
    const tenLines = shared.slice(half, half + 20).map((l) => l.id);
    const before = await byId();

    const one = await metered(r, () => shipLoop(s.base, token, oneLines, 1, { seconds: ctx.duration }));
    const ten = await metered(r, () => shipLoop(s.base, token, tenLines, 10, { seconds: ctx.duration }));
    // 10 clients race for the last pieces of one line: twice as many calls as pieces
    const open = checkLine.unsent_qty;
    const race = await shipLoop(s.base, token, [checkLine.id], 10, { calls: open * 2 });
    const after = await byId();

    // every accepted call shipped exactly one piece, and no line shipped more than it ordered
    const problems: string[] = [];
    for (const [id, l] of after) {
      const accepted = (one.acceptedByLine.get(id) ?? 0) + (ten.acceptedByLine.get(id) ?? 0) + (race.acceptedByLine.get(id) ?? 0);
      const b = before.get(id)!;
      if (l.shipped_qty - b.shipped_qty !== accepted) problems.push(`line ${id}: ${accepted} accepted, shipped ${l.shipped_qty - b.shipped_qty}`);
      if (l.shipped_qty > l.order_qty || l.unsent_qty < 0 || l.shipped_qty + l.unsent_qty !== l.order_qty)
        problems.push(`line ${id}: ordered ${l.order_qty}, shipped ${l.shipped_qty}, unsent ${l.unsent_qty}`);
    }
    if (race.accepted !== open) problems.push(`race: ${race.accepted} accepted for ${open} open pieces`);
    const strip = <L extends { acceptedByLine: unknown }>({ acceptedByLine, ...x }: L) => (void acceptedByLine, x);
    const overShipped = [...after.values()].filter((l) => l.shipped_qty > l.order_qty).length;
    return {
      durability:
        r.setup.backend === 'sqlite'
          ? `synchronous=${s.pragmas.synchronous === 2 ? 'FULL' : s.pragmas.synchronous}, journal ${s.pragmas.journal_mode}`
          : `fsync=${s.pragmas.fsync}, synchronous_commit=${s.pragmas.synchronous_commit}`,
      synchronous: s.pragmas.synchronous,
      journalMode: s.pragmas.journal_mode,
      oneClient: { ...strip(one), lines: oneLines.length },
      tenClients: { ...strip(ten), lines: tenLines.length },
      race: { ...strip(race), openPieces: open },
      overShippedLines: overShipped,
      invariantProblems: problems,
    };
  } finally {
    await db.close();
  }
}

/** PostgreSQL gives BIGINT as numbers already (server/db/postgres.ts); this keeps the checks honest either way. */
const numbers = (l: Line): Line => ({ id: Number(l.id), order_qty: Number(l.order_qty), shipped_qty: Number(l.shipped_qty), unsent_qty: Number(l.unsent_qty) });

/** Runs a ship loop with the setup's CPU meter around it: CPU per call, node and database. */
async function metered<T extends { calls: number }>(r: Running, f: () => Promise<T>): Promise<T & { serverCpuMsPerCall: number; dbCpuMsPerCall: number }> {
  const c0 = r.cpu();
  const t0 = performance.now();
  const x = await f();
  const c = cpuFigures(c0, r.cpu(), x.calls, performance.now() - t0);
  return { ...x, serverCpuMsPerCall: round(c.serverCpuMsPerReq), dbCpuMsPerCall: round(c.dbCpuMsPerReq) };
}

/* ------------------------------------------------------------------ 6. export */

export async function exportStep(ctx: Ctx): Promise<StepResult> {
  const want = ctx.smoke ? 200 : 100_000;
  const db = new Database(ctx.db, { readonly: true });
  // a release-date window holding as close to `want` of sup01's lines in PDC01 as whole days allow
  // (orderSearch needs a filter): per-day counts, then the contiguous run of days nearest to `want`
  const scope = `warehouse_code = ? AND (direct_supplier_code = ? OR production_supplier_code = ? OR purchasing_supplier_code = ?)`;
  const sp = [SUPPLIER.warehouse, SUPPLIER.code, SUPPLIER.code, SUPPLIER.code];
  const days = db.prepare(`SELECT release_date AS d, COUNT(*) AS n FROM "order" WHERE ${scope} GROUP BY release_date ORDER BY release_date`).all(...sp) as {
    d: string;
    n: number;
  }[];
  let best = { from: 0, to: days.length - 1, n: days.reduce((a, x) => a + x.n, 0) };
  for (let i = 0, j = 0, sum = 0; j < days.length; j++) {
    sum += days[j].n;
    while (sum > want && i < j) sum -= days[i++].n;
    for (const [a, n] of [
      [i, sum],
      [Math.max(0, i - 1), sum + (i > 0 ? days[i - 1].n : 0)],
    ] as const)
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
  const watch = JSON.parse(w.stdout.trim().split('\n').at(-1)!) as {
    samples: number[];
    inProcessMs: number[];
    coldMs: number;
    touched: string;
    stale: boolean;
  };
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
