/**
 * What the bench's steps share: statistics, child processes (tsx, CPU pinning), the bench server,
 * HTTP helpers and the autocannon runner (load generator in this process, server in another).
 */
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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

/** Pins this process (every thread) to one CPU. */
export function pinSelf(cpu: number): void {
  execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' });
}

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
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Runs a TypeScript file with tsx in a child process and collects its output. */
export function runTsx(file: string, args: string[], env: Record<string, string> = {}, cpu?: number, plainNode = false): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
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

export interface ServerTimings { bootMs: number; importMs: number; buildMs: number; listenMs: number; readyMs: number }
export interface BenchServer {
  child: ChildProcess;
  pid: number;
  port: number;
  base: string;
  /** spawn -> 'ready' message, as the parent saw it */
  wallMs: number;
  timings: ServerTimings;
  pragmas: Record<string, unknown>;
  request<T>(msg: object, reply: string): Promise<T>;
  stop(): Promise<void>;
}

/** Starts tests/bench/server.ts over `db` (pinned to `cpu` when given) and waits until it listens. */
export function startServer(db: string, filesDir: string, cpu?: number, opts: { bundle?: string; adminDir?: string } = {}): Promise<BenchServer> {
  const t0 = performance.now();
  // `bundle`: the same server compiled ahead to one JavaScript file (no tsx at start-up)
  const execArgv = opts.bundle ? [] : ['--import', 'tsx'];
  const script = opts.bundle ?? join(ROOT, 'tests', 'bench', 'server.ts');
  // `adminDir`: also serve the built admin (the UI step drives it in Chromium)
  const env = { ...process.env, BENCH_DB: db, BENCH_FILES: filesDir, ...(opts.adminDir ? { BENCH_ADMIN: opts.adminDir } : {}) };
  const child = fork(script, [], { cwd: ROOT, env, execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // pinned right after the fork, before tsx has loaded anything (threads made later inherit it)
  if (cpu !== undefined) pinChild(child, cpu);
  return new Promise((ok, fail) => {
    const onExit = (code: number | null) => fail(new Error(`bench server exited (${code}) before it was ready`));
    child.once('exit', onExit);
    child.once('error', fail);
    child.once('message', (m: { type: string; port: number; pid: number; timings: ServerTimings; pragmas: Record<string, unknown> }) => {
      child.off('exit', onExit);
      const wallMs = performance.now() - t0;
      ok({
        child,
        pid: m.pid,
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

function pinChild(child: ChildProcess, cpu: number): void {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(child.pid)], { stdio: 'ignore' });
  } catch {
    /* not fatal: measured unpinned */
  }
}

/* ------------------------------------------------------------------ HTTP */

export async function login(base: string, username: string, password: string, warehouse: string): Promise<string> {
  const r = await fetch(`${base}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password, warehouse }).toString(),
  });
  if (r.status !== 200) throw new Error(`login ${username}: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { access_token: string }).access_token;
}

export interface LoadResult {
  reqPerSec: number;
  serverCpuMsPerReq?: number;
  serverCpuBusy?: number;
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

/** autocannon against one URL; latencies recorded per response (autocannon itself has no p95). */
export function load(url: string, opts: { connections: number; seconds: number; headers?: Record<string, string>; method?: string; body?: string; serverPid?: number }): Promise<LoadResult> {
  const times: number[] = [];
  const cpu0 = opts.serverPid ? cpuMsOf(opts.serverPid) : NaN;
  const own0 = process.cpuUsage();
  const wall0 = performance.now();
  return new Promise((ok, fail) => {
    const inst = autocannon(
      { url, connections: opts.connections, pipelining: 1, duration: opts.seconds, timeout: 30, ...(opts.headers ? { headers: opts.headers } : {}), ...(opts.method ? { method: opts.method } : {}), ...(opts.body ? { body: opts.body } : {}) },
      (err, r) => {
        if (err) return fail(err);
        const wall = performance.now() - wall0;
        const serverCpu = opts.serverPid ? cpuMsOf(opts.serverPid) - cpu0 : NaN;
        const own = process.cpuUsage(own0);
        ok({
          // where the time went: the server's CPU per request and how busy each side was
          serverCpuMsPerReq: serverCpu / r.requests.total,
          serverCpuBusy: serverCpu / wall,
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
