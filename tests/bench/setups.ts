/**
 * What the list and ship steps measure side by side: the same server on SQLite and on PostgreSQL,
 * as one process and as two (node:cluster, as PORTAL_WORKERS=2 runs production), over the same
 * data (same seed, scale and clock). Also: the bench's PostgreSQL server and where every process
 * runs on the CPUs.
 *
 * CPU placement (taskset, when the machine has 2+ CPUs):
 *  - one server process: the server on CPU 1; the load generator (the bench process) on CPU 0;
 *    PostgreSQL beside the load generator on CPU 0, standing in for a database server of its own
 *    (SQLite works inside the server process, on CPU 1). On 3+ CPUs PostgreSQL gets CPUs 2.. alone.
 *  - two server processes on 2-3 CPUs: worker i on CPU i; the cluster's primary (it only accepts
 *    connections and hands them on), the load generator and PostgreSQL on any CPU. Two workers
 *    cannot have a CPU each and the load generator and the database another: on two CPUs they
 *    share, and the figures say how busy each side was. On 4+ CPUs: load generator CPU 0, workers
 *    CPUs 1-2, PostgreSQL the rest.
 */
import { cpus } from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startDurableCluster, findPgBin, type DurableCluster } from '../support/postgres.ts';
import { allCpus, childPids, cpuMeter, pinSelf, setAffinity, startServer, type BenchServer, type CpuMeter } from './lib.ts';

export type Backend = 'sqlite' | 'postgres';
export interface Setup {
  id: string;
  backend: Backend;
  processes: number;
  label: string;
}

export const SETUPS: readonly Setup[] = [
  { id: 'sqlite-1', backend: 'sqlite', processes: 1, label: 'SQLite, 1 process' },
  { id: 'sqlite-2', backend: 'sqlite', processes: 2, label: 'SQLite, 2 processes' },
  { id: 'postgres-1', backend: 'postgres', processes: 1, label: 'PostgreSQL, 1 process' },
  { id: 'postgres-2', backend: 'postgres', processes: 2, label: 'PostgreSQL, 2 processes' },
];

/** Where the processes of a setup run (taskset CPU lists); undefined: anywhere. */
export interface Placement {
  loadGenerator?: string;
  server?: number[];
  db?: string;
  note: string;
}

export function placement(processes: number, ncpu: number, pinned: boolean): Placement {
  const all = allCpus(ncpu);
  if (!pinned) return { note: 'not pinned (no taskset or one CPU)' };
  if (processes === 1) {
    const db = ncpu >= 3 ? `2-${ncpu - 1}` : '0';
    return { loadGenerator: '0', server: [1], db, note: `server CPU 1; load generator CPU 0; PostgreSQL CPU ${db}` };
  }
  if (ncpu >= processes + 2) {
    const server = Array.from({ length: processes }, (_, i) => i + 1);
    const db = `${processes + 1}-${ncpu - 1}`;
    return { loadGenerator: '0', server, db, note: `workers CPUs ${server.join(',')}; load generator CPU 0; PostgreSQL CPU ${db}` };
  }
  const server = Array.from({ length: processes }, (_, i) => i % ncpu);
  return { loadGenerator: all, server, db: all, note: `worker i on CPU i (${server.join(',')}); primary, load generator and PostgreSQL on any CPU (${all})` };
}

/* ------------------------------------------------------------------ the bench's PostgreSQL */

export interface BenchPostgres {
  cluster: DurableCluster;
  /** the bench database (portal_bench) on the cluster */
  url: string;
  /** the postmaster: its process tree is the database's CPU */
  pid: number;
  startMs: number;
  /** server_version */
  version: string;
  /** puts the postmaster and every process it runs (and will fork) on `cpus` (undefined: every CPU) */
  pin(cpus: string | undefined): void;
  stop(): Promise<void>;
}

export const BENCH_DATABASE = 'portal_bench';

/**
 * The bench's PostgreSQL: a durable cluster (tests/support/postgres.ts, DURABLE_SETTINGS) in
 * `dataDir` (kept between runs, so --reuse-db can skip minutes of seeding) or a temporary folder.
 * null when PostgreSQL is not installed.
 */
export async function startBenchPostgres(dataDir: string | undefined, settings: Record<string, string> = {}): Promise<BenchPostgres | null> {
  if (!findPgBin()) return null;
  const t = performance.now();
  const cluster = await startDurableCluster({ ...(dataDir ? { dataDir } : {}), settings });
  const startMs = performance.now() - t;
  const url = new URL(cluster.url);
  url.pathname = `/${BENCH_DATABASE}`;
  const ncpu = cpus().length;
  // the postmaster first, then the processes it runs: one it forks meanwhile inherits the new
  // CPUs. Once pinned, the cluster keeps its CPUs until the next pin elsewhere (every process it
  // forks later inherits them), so pinning it again where it is is skipped: one taskset per
  // process each time, and the list step enters a setup before every measurement.
  let pinnedTo: string | undefined;
  const pin = (c: string | undefined) => {
    const to = c ?? allCpus(ncpu);
    if (to === pinnedTo) return;
    setAffinity([cluster.pid], to);
    setAffinity(childPids(cluster.pid), to);
    pinnedTo = to;
  };
  // started from the load generator, it inherited the load generator's CPU: give it every CPU
  // until a setup says otherwise (seeding runs both sides at once)
  pin(undefined);
  const p: BenchPostgres = { cluster, url: url.toString(), pid: cluster.pid, startMs, version: '', pin, stop: () => cluster.stop() };
  p.version = await withAdminClient(p, async (c) => String((await c.query('SHOW server_version')).rows[0].server_version));
  return p;
}

/** Runs `fn` on a client of the cluster's maintenance database. */
export async function withAdminClient<T>(p: BenchPostgres, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: p.cluster.url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** An empty bench database (C collation: strings sort bytewise, as SQLite's BINARY does). */
export async function recreateBenchDatabase(p: BenchPostgres): Promise<void> {
  await withAdminClient(p, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${BENCH_DATABASE} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  });
}

export async function benchDatabaseExists(p: BenchPostgres): Promise<boolean> {
  return withAdminClient(p, async (c) => (await c.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [BENCH_DATABASE])).rowCount === 1);
}

/* ------------------------------------------------------------------ running setups */

export interface Running {
  setup: Setup;
  server: BenchServer;
  place: Placement;
  /** node CPU of the server's processes and, on PostgreSQL, the database's */
  cpu: CpuMeter;
  /** pins the load generator and the database for this setup (the servers were pinned at start) */
  enter(): void;
}

export interface SetupContext {
  db: string;
  filesDir: string;
  pg: BenchPostgres | null | undefined;
  pinned: boolean;
  /** the compiled bench server (lib.ts, compileBenchServer) */
  bundle: string;
  /** the built admin the servers also serve (a step that drives the browser) */
  adminDir?: string;
}

export async function startSetup(ctx: SetupContext, setup: Setup): Promise<Running> {
  const place = placement(setup.processes, cpus().length, ctx.pinned);
  const pgUrl = setup.backend === 'postgres' ? ctx.pg?.url : undefined;
  if (setup.backend === 'postgres' && !pgUrl) throw new Error('no PostgreSQL server');
  const server = await startServer(ctx.db, ctx.filesDir, setup.processes === 1 ? place.server?.[0] : undefined, {
    bundle: ctx.bundle,
    ...(ctx.adminDir ? { adminDir: ctx.adminDir } : {}),
    ...(pgUrl ? { databaseUrl: pgUrl } : {}),
    workers: setup.processes,
    ...(setup.processes > 1 && place.server ? { workerCpus: place.server } : {}),
  });
  return runningOf(ctx, setup, server);
}

/** A setup over a server already running (a smoke run shares its SQLite server between steps). */
export function runningOf(ctx: SetupContext, setup: Setup, server: BenchServer): Running {
  const place = placement(setup.processes, cpus().length, ctx.pinned);
  const pgPid = setup.backend === 'postgres' ? ctx.pg!.pid : undefined;
  return {
    setup,
    server,
    place,
    cpu: cpuMeter(server.pids, pgPid),
    enter() {
      if (place.loadGenerator) pinSelf(place.loadGenerator);
      if (setup.backend === 'postgres') ctx.pg!.pin(place.db);
    },
  };
}

/* ------------------------------------------------------------------ seeding side files */

export interface SeedInfo {
  scale: number;
  seedMs: number;
  rows: Record<string, number>;
  now?: string;
  metadataHash?: string;
  [k: string]: unknown;
}

export function readSeedInfo(file: string): SeedInfo | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SeedInfo) : null;
}
export function writeSeedInfo(file: string, info: SeedInfo): void {
  writeFileSync(file, JSON.stringify(info, null, 2));
}
export const pgSeedInfoFile = (sqliteDb: string) => `${sqliteDb}.pg.json`;
export const pgDataDir = (sqliteDb: string) => join(`${sqliteDb}.pg`);
