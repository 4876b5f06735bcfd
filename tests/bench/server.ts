/**
 * The bench's server process: the real application (buildApp, as `npm start` builds it, over an
 * existing database: no seeding) plus the baselines of baseline-route.ts. Started by run.ts as a
 * child process (pinned to its own CPU when taskset exists); talks to it over IPC:
 *   -> { type: 'ready', port, timings, pragmas }   once listening
 *   <- { type: 'raw', ms, query, objects? }         run the in-process floor for `ms` between rounds
 *   -> { type: 'raw', samples: number[] (ms), bytes }
 *   <- { type: 'mem' }  -> { type: 'mem', rss, hwm }
 * Environment: BENCH_DB (the SQLite file), BENCH_FILES (files folder), BENCH_ADMIN (optional: the
 * built admin to serve, as `npm start` does; the UI step sets it).
 */
export {};
// imports are dynamic so that t0 is taken before them: the start-up breakdown needs it
const t0 = performance.now();
const { buildApp } = await import('../../server/app.ts');
const { baselineRoutes, HandList, rawList } = await import('./baseline-route.ts');
const { readFileSync } = await import('node:fs');
const tImport = performance.now();

const app = await buildApp({
  dbFile: process.env.BENCH_DB!,
  jwtSecret: 'bench-secret-0123456789-0123456789-0123456789',
  filesDir: process.env.BENCH_FILES!,
  ...(process.env.BENCH_ADMIN ? { adminDir: process.env.BENCH_ADMIN } : {}),
  logger: false,
  // the bench logs in a few times and ships thousands of times as one user
  loginRateLimit: 1_000_000,
  writesPerMinute: 1_000_000_000,
});
// the baselines are hand-written on better-sqlite3 itself
const raw = (app.db as import('../../server/db/sqlite.ts').SqliteDb).raw;
await app.register(baselineRoutes, { db: raw });
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

const pragma = (name: string) => raw.pragma(name, { simple: true });
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
  pragmas: { journal_mode: pragma('journal_mode'), synchronous: pragma('synchronous'), cache_size: pragma('cache_size'), mmap_size: pragma('mmap_size'), temp_store: pragma('temp_store') },
});

const hand = new HandList(raw);
const handObjects = new HandList(raw, { objects: true });
process.on('message', (m: { type: string; ms?: number; objects?: boolean; query?: Parameters<typeof rawList>[1] }) => {
  if (m.type === 'raw') {
    const h = m.objects ? handObjects : hand;
    const samples: number[] = [];
    let bytes = 0;
    const until = performance.now() + (m.ms ?? 1000);
    while (performance.now() < until) {
      const t = performance.now();
      bytes = rawList(h, m.query!);
      samples.push(performance.now() - t);
    }
    process.send!({ type: 'raw', samples, bytes });
  } else if (m.type === 'mem') {
    process.send!({ type: 'mem', ...memory() });
  } else if (m.type === 'exit') {
    void app.close().then(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
