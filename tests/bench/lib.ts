/**
 * What the bench's steps share: statistics, child processes (tsx, CPU pinning), the bench server,
 * HTTP helpers and the autocannon runner (load generator in this process, server in another).
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

/* ------------------------------------------------------------------ statistics */

/** nearest-rank percentile of unsorted samples */
export function percentile(samples: readonly number[], p: number): number {
  if (!samples.length) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}
export const median = (xs: readonly number[]): number => percentile(xs, 50);
export const round = (x: number, digits = 2): number => (Number.isFinite(x) ? Math.round(x * 10 ** digits) / 10 ** digits : x);

/* ------------------------------------------------------------------ processes */

let tasksetAvailable: boolean | undefined;
/** Whether `taskset` can pin processes here (Linux with util-linux, more than one CPU). */
export function canPin(cpus: number): boolean {
  if (tasksetAvailable === undefined) {
    try {
      execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
      tasksetAvailable = true;
    } catch {
      tasksetAvailable = false;
    }
  }
  return tasksetAvailable && cpus >= 2;
}

/** Pins this process (every thread) to one CPU, or to a list such as "0,1". */
export function pinSelf(cpu: number | string): void {
  execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' });
}

/**
 * Sets the CPUs of other processes (every thread; processes they fork later inherit it). Not
 * fatal when it fails (a process that just ended): that run is then measured less pinned.
 */
export function setAffinity(pids: readonly number[], cpus: string): void {
  for (const pid of pids) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    } catch {
      /* gone, or not ours */
    }
  }
}

/** All CPUs of the machine as taskset writes them ("0-1" on two). */
export const allCpus = (n: number): string => (n > 1 ? `0-${n - 1}` : '0');

/** Peak and current resident set of a process (Linux /proc), bytes; zeros when unknown. */
export function memoryOf(pid: number): { rss: number; hwm: number } {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

/** CPU time a process has used so far (user + system), ms (Linux /proc; NaN elsewhere). */
export function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name (which may contain spaces): utime is the 14th, stime the 15th field
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** The fields of /proc/<pid>/stat after the command name (state is [0], ppid [1], utime [11]...). */
function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The processes whose parent is `ppid` (Linux /proc). */
export function childPids(ppid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const f = statFields(name);
    if (f && Number(f[1]) === ppid) out.push(Number(name));
  }
  return out;
}

/**
 * CPU time of a process and everything it forked, ms: its own time, the time of its children that
 * ended and were waited for (cutime + cstime), and the time of those still running. A child that
 * ends between two readings moves from the third part to the second: the difference of two
 * readings still counts it once. What PostgreSQL used: its postmaster and every backend and helper.
 */
export function treeCpuMsOf(pid: number): number {
  const f = statFields(pid);
  if (!f) return NaN;
  const own = ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / CLOCK_TICKS;
  return own + childPids(pid).reduce((a, c) => a + (cpuMsOf(c) || 0), 0);
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Runs a TypeScript file with tsx in a child process and collects its output. */
export function runTsx(
  file: string,
  args: string[],
  env: Record<string, string> = {},
  cpu?: number,
  plainNode = false,
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const t0 = performance.now();
  const run = plainNode ? [file, ...args] : [TSX, file, ...args];
  const [cmd, argv] = cpu !== undefined ? ['taskset', ['-c', String(cpu), process.execPath, ...run]] : [process.execPath, run];
  return new Promise((ok, fail) => {
    const child = spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => ok({ code: code ?? 1, stdout, stderr, ms: performance.now() - t0 }));
  });
}

/* ------------------------------------------------------------------ the bench server */

/**
 * tests/bench/server.ts compiled ahead into one JavaScript file with esbuild (dependencies left
 * external), as `npm run build:server` compiles server/main.ts for `npm start`: no tsx at start-up.
 * Written under ROOT/.tmp so that packages resolve from the project's node_modules.
 */
export async function compileBenchServer(out: string): Promise<void> {
  // esbuild's JS API: after its postinstall, bin/esbuild is a native executable, not a script
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(ROOT, 'tests', 'bench', 'server.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: out,
    logLevel: 'error',
  });
}

export interface ServerTimings {
  bootMs: number;
  importMs: number;
  buildMs: number;
  listenMs: number;
  readyMs: number;
}
export interface BenchServer {
  child: ChildProcess;
  /** the process the bench started (with workers: the cluster's primary) */
  pid: number;
  /** every process that serves: the one server, or the primary and its workers (CPU accounting) */
  pids: number[];
  /** the workers' process ids (empty for a single process) */
  workerPids: number[];
  port: number;
  base: string;
  /** spawn -> 'ready' message, as the parent saw it */
  wallMs: number;
  timings: ServerTimings;
  pragmas: Record<string, unknown>;
  request<T>(msg: object, reply: string): Promise<T>;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** the same server compiled ahead to one JavaScript file (no tsx at start-up) */
  bundle?: string;
  /** also serve the built admin (the UI step drives it in Chromium) */
  adminDir?: string;
  /** false: no compressed answers or assets (the wan step's "before") */
  compression?: boolean;
  /** serve PostgreSQL at this URL instead of the SQLite file */
  databaseUrl?: string;
  /** server processes on the one port (node:cluster, as PORTAL_WORKERS runs production); default 1 */
  workers?: number;
  /** with workers: worker i is pinned to workerCpus[i] once ready (the primary keeps every CPU) */
  workerCpus?: number[];
}

/**
 * Starts tests/bench/server.ts over `db` (pinned to `cpu` when given) and waits until it listens.
 * With `workers` > 1 the process started is a cluster primary that forks the workers and hands
 * them the connections, as server/main.ts does with PORTAL_WORKERS.
 */
export function startServer(db: string, filesDir: string, cpu?: number, opts: ServerOptions = {}): Promise<BenchServer> {
  const t0 = performance.now();
  const execArgv = opts.bundle ? [] : ['--import', 'tsx'];
  const script = opts.bundle ?? join(ROOT, 'tests', 'bench', 'server.ts');
  const workers = opts.workers ?? 1;
  const env = {
    ...process.env,
    BENCH_DB: db,
    BENCH_FILES: filesDir,
    BENCH_WORKERS: String(workers),
    ...(opts.databaseUrl ? { BENCH_DATABASE_URL: opts.databaseUrl } : {}),
    ...(opts.adminDir ? { BENCH_ADMIN: opts.adminDir } : {}),
    ...(opts.compression === false ? { BENCH_COMPRESSION: 'off' } : {}),
  };
  const child = fork(script, [], { cwd: ROOT, env, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // pinned right after the fork, before tsx has loaded anything (threads made later inherit it).
  // A primary gets every CPU (it would otherwise inherit the load generator's one, and so would
  // the workers it forks); its workers are pinned once they are ready.
  if (workers > 1) setAffinity([child.pid!], allCpus(cpus().length));
  else if (cpu !== undefined) setAffinity([child.pid!], String(cpu));
  return new Promise((ok, fail) => {
    const onExit = (code: number | null) => fail(new Error(`bench server exited (${code}) before it was ready`));
    child.once('exit', onExit);
    child.once('error', fail);
    child.once('message', (m: { type: string; port: number; pid: number; workerPids?: number[]; timings: ServerTimings; pragmas: Record<string, unknown> }) => {
      child.off('exit', onExit);
      const wallMs = performance.now() - t0;
      const workerPids = m.workerPids ?? [];
      workerPids.forEach((pid, i) => opts.workerCpus?.[i] !== undefined && setAffinity([pid], String(opts.workerCpus[i])));
      ok({
        child,
        pid: m.pid,
        pids: [m.pid, ...workerPids],
        workerPids,
        port: m.port,
        base: `http://127.0.0.1:${m.port}`,
        wallMs,
        timings: m.timings,
        pragmas: m.pragmas,
        request: <T>(msg: object, reply: string) =>
          new Promise<T>((res) => {
            const on = (r: { type: string }) => {
              if (r.type !== reply) return;
              child.off('message', on);
              res(r as T);
            };
            child.on('message', on);
            child.send(msg);
          }),
        stop: () =>
          new Promise<void>((res) => {
            forgetLogins(`http://127.0.0.1:${m.port}`);
            if (child.exitCode !== null) return res();
            const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
            child.once('exit', () => {
              clearTimeout(kill);
              res();
            });
            child.send({ type: 'exit' });
          }),
      });
    });
  });
}

/* ------------------------------------------------------------------ HTTP */

/**
 * Tokens by server and user when a smoke run reuses them (reuseLogins): each login costs a
 * password hash at production cost, and a smoke run's servers are shared by its steps.
 */
let tokens: Map<string, Promise<string>> | null = null;

/** From now on, one login per server (base address), user and warehouse: the token is reused (a smoke run). */
export function reuseLogins(): void {
  tokens ??= new Map();
}

/** Forgets the reused tokens of a server (it stopped: another may get its port). */
function forgetLogins(base: string): void {
  for (const k of tokens?.keys() ?? []) if (k.startsWith(`${base} `)) tokens!.delete(k);
}

export async function login(base: string, username: string, password: string, warehouse: string): Promise<string> {
  if (!tokens) return loginOnce(base, username, password, warehouse);
  const key = `${base} ${username} ${warehouse}`;
  let token = tokens.get(key);
  if (!token) {
    token = loginOnce(base, username, password, warehouse);
    tokens.set(key, token);
    token.catch(() => tokens?.delete(key));
  }
  return token;
}

async function loginOnce(base: string, username: string, password: string, warehouse: string): Promise<string> {
  const r = await fetch(`${base}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password, warehouse }).toString(),
  });
  if (r.status !== 200) throw new Error(`login ${username}: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { access_token: string }).access_token;
}

/** CPU time used so far, ms: by the server's node processes, and by the database's (PostgreSQL; 0 for SQLite, which runs inside node). */
export interface CpuReading {
  node: number;
  db: number;
}
export type CpuMeter = () => CpuReading;

/** A meter over the server's processes and, when given, a PostgreSQL postmaster and its children. */
export function cpuMeter(serverPids: readonly number[], postmasterPid?: number): CpuMeter {
  return () => ({ node: serverPids.reduce((a, p) => a + cpuMsOf(p), 0), db: postmasterPid ? treeCpuMsOf(postmasterPid) : 0 });
}

/** CPU per request and how busy each side was, from two readings around `requests` requests over `wallMs`. */
export function cpuFigures(before: CpuReading, after: CpuReading, requests: number, wallMs: number) {
  const node = after.node - before.node;
  const db = after.db - before.db;
  return { serverCpuMsPerReq: node / requests, dbCpuMsPerReq: db / requests, serverCpuBusy: node / wallMs, dbCpuBusy: db / wallMs };
}

export interface LoadResult {
  reqPerSec: number;
  /** the server's node processes (all of them with workers), ms of CPU per request */
  serverCpuMsPerReq?: number;
  /** the database's processes (PostgreSQL), ms of CPU per request; 0 on SQLite (inside node) */
  dbCpuMsPerReq?: number;
  /** CPUs' worth of time the server's node processes used (1 = one CPU all the time) */
  serverCpuBusy?: number;
  dbCpuBusy?: number;
  loadGeneratorCpuBusy?: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  bytesPerSec: number;
}

type LoadOptions = { connections: number; seconds: number; headers?: Record<string, string>; method?: string; body?: string; cpu?: CpuMeter };

/**
 * autocannon against one URL for a number of seconds. A window in which no answer arrived at all
 * (a smoke run's 0.3 s on a busy machine) has no latency and no rate to report: then one request
 * per connection is measured instead, however long it takes, so that every figure exists.
 */
export async function load(url: string, opts: LoadOptions): Promise<LoadResult> {
  const r = await loadOnce(url, opts);
  return r.requests > 0 ? r : loadOnce(url, { ...opts, amount: opts.connections });
}

/**
 * autocannon ends a timed run at its first sample after the duration (one a second by default):
 * 0.3 s would run for a whole second. A duration that is not whole seconds (a smoke run's) is
 * sampled in steps that end on it; whole seconds keep autocannon's default.
 */
const sampling = (seconds: number): { sampleInt?: number } => (Number.isInteger(seconds) ? {} : { sampleInt: (seconds * 1000) / Math.ceil(seconds) });

/** One autocannon run: for `seconds`, or for `amount` requests; latencies recorded per response (autocannon itself has no p95). */
function loadOnce(url: string, opts: LoadOptions & { amount?: number }): Promise<LoadResult> {
  const times: number[] = [];
  const cpu0 = opts.cpu?.();
  const own0 = process.cpuUsage();
  const wall0 = performance.now();
  return new Promise((ok, fail) => {
    const inst = autocannon(
      {
        url,
        connections: opts.connections,
        pipelining: 1,
        ...(opts.amount ? { amount: opts.amount } : { duration: opts.seconds, ...sampling(opts.seconds) }),
        timeout: 30,
        ...(opts.headers ? { headers: opts.headers } : {}),
        ...(opts.method ? { method: opts.method } : {}),
        ...(opts.body ? { body: opts.body } : {}),
      },
      (err, r) => {
        if (err) return fail(err);
        const wall = performance.now() - wall0;
        const own = process.cpuUsage(own0);
        ok({
          // where the time went: the server's (and database's) CPU per request and how busy each side was
          ...(cpu0 ? cpuFigures(cpu0, opts.cpu!(), r.requests.total, wall) : {}),
          loadGeneratorCpuBusy: (own.user + own.system) / 1000 / wall,
          reqPerSec: r.requests.total / r.duration,
          p50: percentile(times, 50),
          p95: percentile(times, 95),
          p99: percentile(times, 99),
          max: times.length ? Math.max(...times) : NaN,
          requests: r.requests.total,
          non2xx: r.non2xx,
          errors: r.errors,
          timeouts: r.timeouts,
          bytesPerSec: r.throughput.total / r.duration,
        });
      },
    );
    inst.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => times.push(responseTime));
  });
}
