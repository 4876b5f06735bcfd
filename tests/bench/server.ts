/**
 * The bench's server process: the real application (buildApp, as `npm start` builds it, over an
 * existing database: no seeding) plus the baselines of baseline-route.ts. Started by run.ts as a
 * child process (pinned to its own CPU when taskset exists); talks to it over IPC:
 *   -> { type: 'ready', port, pid, workerPids?, timings, pragmas }   once listening
 *   <- { type: 'raw', ms, query, objects? }   SQLite: run the in-process floor for `ms`
 *   <- { type: 'rawSql', ms, page, count, size, concurrency }   PostgreSQL: the floor over the pool
 *   -> { type: 'raw', samples: number[] (ms), bytes, wallMs, cpuMs }
 *   <- { type: 'mem' }  -> { type: 'mem', rss, hwm }
 * Environment: BENCH_DB (the SQLite file), BENCH_DATABASE_URL (PostgreSQL instead), BENCH_FILES
 * (files folder), BENCH_ADMIN (optional: the built admin to serve, as `npm start` does; the UI step
 * sets it), BENCH_WORKERS (processes on the one port, default 1).
 *
 * BENCH_WORKERS=N > 1: this process becomes a node:cluster primary that forks N workers running
 * the same application and hands them the connections (round robin), as server/main.ts does with
 * PORTAL_WORKERS=N. The bench does not run main.ts itself: it logs every request at info level and
 * keeps production's rate limits (600 writes per user and minute would refuse the ship step), and
 * the bench's own routes (db-json) must be there too. The floors run in single-process mode only.
 */
import cluster from 'node:cluster';

// imports are dynamic so that t0 is taken before them: the start-up breakdown needs it
const t0 = performance.now();
const workers = Number(process.env.BENCH_WORKERS ?? 1);

if (workers > 1 && cluster.isPrimary) await primary(workers);
else await serve();

/** The cluster's primary: forks the workers, reports once all listen, stops them on 'exit'. */
async function primary(n: number): Promise<void> {
  const ready: { pid: number; port: number; timings: unknown; pragmas: unknown }[] = [];
  const forked = Array.from({ length: n }, () => cluster.fork());
  for (const w of forked) {
    w.on('message', (m: { type: string; port: number; pid: number; timings: unknown; pragmas: unknown }) => {
      if (m.type !== 'ready') return;
      ready.push(m);
      if (ready.length === n)
        process.send!({
          type: 'ready',
          port: ready[0].port,
          pid: process.pid,
          workerPids: forked.map((x) => x.process.pid),
          timings: ready[0].timings,
          pragmas: ready[0].pragmas,
        });
    });
  }
  cluster.on('exit', (w, code) => {
    if (!stopping) {
      process.stderr.write(`bench server: worker ${w.process.pid} ended (${code})\n`);
      process.exit(1);
    }
  });
  let stopping = false;
  const stop = () => {
    stopping = true;
    for (const w of forked) w.send({ type: 'exit' });
    let left = n;
    cluster.on('exit', () => --left === 0 && process.exit(0));
    setTimeout(() => process.exit(0), 20_000).unref();
  };
  process.on('message', (m: { type: string }) => {
    if (m.type === 'exit') stop();
    else if (m.type === 'mem') process.send!({ type: 'mem', rss: 0, hwm: 0 });
  });
  process.on('disconnect', stop);
}

/** One server process (alone, or a cluster worker: then `process.send` talks to the primary). */
async function serve(): Promise<void> {
  const { buildApp } = await import('../../server/app.ts');
  const { baselineRoutes, dbJsonRoutes, recordsRoutes, HandList, rawList, rawSqlList } = await import('./baseline-route.ts');
  const { readFileSync } = await import('node:fs');
  const tImport = performance.now();

  const url = process.env.BENCH_DATABASE_URL;
  const app = await buildApp({
    ...(url ? { databaseUrl: url } : { dbFile: process.env.BENCH_DB! }),
    jwtSecret: 'bench-secret-0123456789-0123456789-0123456789',
    filesDir: process.env.BENCH_FILES!,
    ...(process.env.BENCH_ADMIN ? { adminDir: process.env.BENCH_ADMIN } : {}),
    // the wan step's "before": nothing compressed (BENCH_COMPRESSION=off)
    compression: process.env.BENCH_COMPRESSION !== 'off',
    logger: false,
    // a single process checks the tables as before (part of its start-up figure); workers leave it
    // to whoever prepared the database, as server/main.ts's workers leave it to the primary
    migrate: !cluster.isWorker,
    // the bench logs in a few times and ships thousands of times as one user; its steps log in as
    // sup01 more often than the per-account limit (10 a minute, counted in the database, so across
    // the steps' servers) allows: the UI step's browser login was refused 429 on a fast run
    loginRateLimit: 1_000_000,
    accountAttemptsPerMinute: 1_000_000,
    writesPerMinute: 1_000_000_000,
  });
  // the list page as JSON built by the database, beside the generic route (both backends)
  await app.register(dbJsonRoutes, { engine: app.engine });
  // and as records through the response schema's serialiser (PostgreSQL's route before rows-json.ts)
  await app.register(recordsRoutes, { engine: app.engine });
  // the hand-written baselines are written on better-sqlite3 itself
  const raw = app.db.kind === 'sqlite' ? (app.db as import('../../server/db/sqlite.ts').SqliteDb).raw : null;
  if (raw) await app.register(baselineRoutes, { db: raw });
  const tBuild = performance.now();
  await app.listen({ port: 0, host: '127.0.0.1' });
  const tListen = performance.now();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  /** this process's resident set now and at its peak (Linux /proc; 0 elsewhere), bytes */
  function memory(): { rss: number; hwm: number } {
    try {
      const s = readFileSync('/proc/self/status', 'utf8');
      const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? 0) * 1024;
      return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
    } catch {
      return { rss: process.memoryUsage().rss, hwm: 0 };
    }
  }

  const pragma = (name: string) => raw!.pragma(name, { simple: true });
  const settings = async () => {
    const rows = await app.db.all<{ name: string; setting: string; unit: string | null }>(
      `SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers', 'fsync', 'synchronous_commit', 'full_page_writes', 'wal_level', 'jit', 'effective_cache_size', 'work_mem', 'max_wal_size', 'random_page_cost', 'server_version')`,
    );
    return Object.fromEntries(rows.map((r) => [r.name, r.unit ? `${r.setting} ${r.unit}` : r.setting]));
  };
  process.send!({
    type: 'ready',
    port,
    pid: process.pid,
    timings: {
      // node and tsx start-up before this module ran (process start -> first line)
      bootMs: t0,
      importMs: tImport - t0,
      buildMs: tBuild - tImport,
      listenMs: tListen - tBuild,
      readyMs: tListen,
    },
    pragmas: raw
      ? {
          journal_mode: pragma('journal_mode'),
          synchronous: pragma('synchronous'),
          cache_size: pragma('cache_size'),
          mmap_size: pragma('mmap_size'),
          temp_store: pragma('temp_store'),
        }
      : await settings(),
  });

  const hand = raw ? new HandList(raw) : null;
  const handObjects = raw ? new HandList(raw, { objects: true }) : null;
  type Msg = { type: string; ms?: number; objects?: boolean; query?: Parameters<typeof rawList>[1] } & Partial<Parameters<typeof rawSqlList>[1]> & {
      concurrency?: number;
    };
  process.on('message', (m: Msg) => {
    if (m.type === 'raw') {
      const h = (m.objects ? handObjects : hand)!;
      const samples: number[] = [];
      let bytes = 0;
      const cpu0 = process.cpuUsage();
      const w0 = performance.now();
      const until = w0 + (m.ms ?? 1000);
      while (performance.now() < until) {
        const t = performance.now();
        bytes = rawList(h, m.query!);
        samples.push(performance.now() - t);
      }
      const cpu = process.cpuUsage(cpu0);
      process.send!({ type: 'raw', samples, bytes, wallMs: performance.now() - w0, cpuMs: (cpu.user + cpu.system) / 1000 });
    } else if (m.type === 'rawSql') {
      void rawSqlFloor(m);
    } else if (m.type === 'mem') {
      process.send!({ type: 'mem', ...memory() });
    } else if (m.type === 'exit') {
      void app.close().then(() => process.exit(0));
    }
  });
  process.on('disconnect', () => process.exit(0));

  /**
   * The PostgreSQL floor: the engine's statements over the pool, rows to objects, JSON.stringify,
   * `concurrency` at a time (a query waits on the database most of its time: one at a time would
   * measure latency, not what one process can do).
   */
  async function rawSqlFloor(m: Msg): Promise<void> {
    const q = { page: m.page!, count: m.count!, size: m.size! };
    const samples: number[] = [];
    let bytes = 0;
    const cpu0 = process.cpuUsage();
    const w0 = performance.now();
    const until = w0 + (m.ms ?? 1000);
    const worker = async () => {
      while (performance.now() < until) {
        const t = performance.now();
        bytes = await rawSqlList(app.db, q);
        samples.push(performance.now() - t);
      }
    };
    await Promise.all(Array.from({ length: m.concurrency ?? 10 }, worker));
    const cpu = process.cpuUsage(cpu0);
    process.send!({ type: 'raw', samples, bytes, wallMs: performance.now() - w0, cpuMs: (cpu.user + cpu.system) / 1000 });
  }
}
