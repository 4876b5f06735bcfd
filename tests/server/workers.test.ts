/**
 * `npm start` with PORTAL_WORKERS=2: the real server/main.ts as a node:cluster of one primary and
 * two workers on one port, over the backend the project selects (a SQLite file, or a fresh
 * PostgreSQL database). The primary migrates, seeds the demo data (production password hashing)
 * and resolves the shared JWT secret (JWT_SECRET unset: generated once, beside the SQLite file or
 * in the database) before the workers start; then it only supervises them.
 *
 * What must hold: the service answers; a token issued by one worker is accepted by the others
 * (also by workers started after it was issued); a worker killed with SIGKILL is replaced and the
 * service keeps answering meanwhile; SIGTERM to the primary ends every process.
 *
 * Requests go over a new connection each (node:http): the primary hands connections, not
 * requests, round-robin to the workers, so keep-alive would pin one worker. Which worker served a
 * connection is read from /proc (servedBy), so "the other worker accepts the token" is checked,
 * not assumed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { targetOf } from '../../server/app.ts';
import { openDb } from '../../server/db/open.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { BACKEND, testDatabase } from './helpers.ts';
import { scaled } from '../support/waits.ts';
import { freePort } from '../support/free-port.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..');

let dir = '';
let drop: () => Promise<void> = async () => undefined;
let databaseOptions: Awaited<ReturnType<typeof testDatabase>>['options'] = {};
let primary: ChildProcess | undefined;
let port = 0;
let output = '';
/** the primary said every worker listens (until then the round robin has only the ones that do) */
let allListening = false;
/** every worker pid seen, for the last-resort cleanup */
const seenWorkers = new Set<number>();
let token = '';

const METRICS_TOKEN = 'workers-metrics-token-0123456789';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  body: Record<string, unknown> & { code?: string };
  /** our end of the connection */ localPort: number;
}

/**
 * One HTTP request with a timeout. By default on a connection of its own that is closed after the
 * answer (`agent: false`); with `keep`, the connection stays open afterwards (a keep-alive agent of
 * its own) so that servedBy() can tell which worker holds it; `keep` collects the agents to destroy.
 */
function call(method: string, path: string, headers: Record<string, string> = {}, body?: string, timeoutMs = 10_000, keep?: Agent[]): Promise<Answer> {
  const agent = keep ? new Agent({ keepAlive: true, maxSockets: 1 }) : false;
  if (agent) keep!.push(agent);
  return new Promise((res, rej) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: { ...headers, ...(body !== undefined ? { 'content-length': Buffer.byteLength(body) } : {}) },
        timeout: timeoutMs,
      },
      (r) => {
        const localPort = r.socket.localPort ?? 0;
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Answer['body'];
          try {
            parsed = text ? (JSON.parse(text) as Answer['body']) : {};
          } catch {
            parsed = { raw: text.slice(0, 200) };
          }
          res({ status: r.statusCode ?? 0, body: parsed, localPort });
        });
        r.on('error', rej);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)));
    req.on('error', rej);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/**
 * The worker that holds the server end of a kept-open connection: the primary accepts each
 * connection and hands its socket to one worker (closing its own copy), so the socket's inode
 * (/proc/net/tcp) appears among that worker's file descriptors only.
 */
function servedBy(localPort: number, workers: number[]): number | undefined {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  const local = `0100007F:${hex(port)}`;
  const remote = `0100007F:${hex(localPort)}`;
  const line = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find((f) => f[1] === local && f[2] === remote);
  if (!line) return undefined;
  const target = `socket:[${line[9]}]`;
  for (const pid of workers) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        try {
          if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return pid;
        } catch {
          // closed meanwhile
        }
      }
    } catch {
      // the worker ended
    }
  }
  return undefined;
}

/** `n` authorised requests at once, each on a kept-open connection of its own; answers with the worker that served each. */
async function authedOnWorkers(n: number, workers: number[]): Promise<{ status: number; worker: number | undefined }[]> {
  const agents: Agent[] = [];
  try {
    const answers = await Promise.all(
      Array.from({ length: n }, () => call('GET', '/api/orders?range=[0,0]', { authorization: `Bearer ${token}` }, undefined, 10_000, agents)),
    );
    return answers.map((a) => ({ status: a.status, worker: servedBy(a.localPort, workers) }));
  } finally {
    for (const a of agents) a.destroy();
  }
}

const authed = (path: string) => call('GET', path, { authorization: `Bearer ${token}` });

/** A pid that runs (not gone, not a zombie waiting to be reaped). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * The cluster workers of the primary: its running children that run server/main.ts (tsx may have
 * helper children of its own, e.g. esbuild's service). /proc/<pid>/task/<tid>/children needs a
 * kernel option some sandboxes lack, so the parent pid of every process is read instead.
 */
function workerPids(ppid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== ppid || fields[0] === 'Z') continue;
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('server/main.ts')) continue;
      out.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  for (const p of out) seenWorkers.add(p);
  return out.sort((a, b) => a - b);
}

async function until<T>(what: string, limitMs: number, probe: () => Promise<T | undefined> | T | undefined, everyMs = 100): Promise<T> {
  const timeoutMs = scaled(limitMs);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\n--- server output (tail) ---\n${output.slice(-4000)}`);
    if (primary && primary.exitCode !== null) throw new Error(`${what}: the primary exited (${primary.exitCode})\n${output.slice(-4000)}`);
    await sleep(everyMs);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-workers-'));
  const database = await testDatabase(dir);
  drop = database.drop;
  databaseOptions = database.options;
  port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // what the environment of the test run might carry must not steer the server
  for (const k of ['JWT_SECRET', 'DATABASE_URL', 'PORTAL_DB', 'PORTAL_WORKERS', 'PORTAL_SEED', 'PORT', 'HOST', 'LOG_LEVEL', 'PG_POOL_MAX']) delete env[k];
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    PORTAL_WORKERS: '2',
    PORTAL_SEED: 'demo',
    LOG_LEVEL: 'warn',
    PORTAL_METRICS_TOKEN: METRICS_TOKEN,
    ...(database.options.databaseUrl ? { DATABASE_URL: database.options.databaseUrl } : { PORTAL_DB: database.options.dbFile! }),
  });
  // its own process group: the last-resort cleanup can end the primary and its workers together
  primary = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
    if (/\d+ workers listening on/.test(output)) allListening = true;
  };
  primary.stdout!.on('data', keep);
  primary.stderr!.on('data', keep);
  // a detached group outlives this process: should it end without afterAll (killed runner), end
  // the group too ('exit' handlers must be synchronous)
  const group = primary.pid!;
  process.once('exit', () => {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // already gone
    }
  });
  // the public warehouse list answers once a worker serves (migration + demo data + start take a while)
  await until(
    'the cluster answers',
    90_000,
    async () => {
      try {
        const r = await call('GET', '/api/warehouses', {}, undefined, 2000);
        return r.status === 200 ? r : undefined;
      } catch {
        return undefined;
      }
    },
    250,
  );
  // one worker may answer before the other listens: the round robin spreads over both only after
  await until('every worker listens', 30_000, () => (allListening ? true : undefined));
}, 120_000);

afterAll(async () => {
  const errors: unknown[] = [];
  try {
    if (primary && primary.exitCode === null && primary.signalCode === null) {
      const exited = new Promise<void>((r) => primary!.once('exit', () => r()));
      try {
        process.kill(-primary.pid!, 'SIGKILL');
      } catch {
        primary.kill('SIGKILL');
      }
      await Promise.race([exited, sleep(5000)]);
    }
    // workers are in the primary's group, but a restarted one is killed by pid as well, to be sure
    for (const pid of seenWorkers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  } catch (err) {
    errors.push(err);
  }
  await drop().catch((err: unknown) => errors.push(err));
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (errors.length) throw errors[0];
}, 60_000);

describe(`npm start with PORTAL_WORKERS=2 (${BACKEND})`, () => {
  it('runs one primary and two workers that answer', async () => {
    const workers = await until('two workers', 30_000, () => {
      const w = workerPids(primary!.pid!);
      return w.length === 2 ? w : undefined;
    });
    expect(workers).toHaveLength(2);
    expect(workers).not.toContain(primary!.pid);
    const r = await call('GET', '/api/warehouses');
    expect(r.status).toBe(200);
    // the shared secret was generated (JWT_SECRET is unset): beside the SQLite file, or in the database
    if (BACKEND === 'sqlite') expect(existsSync(join(dir, 'jwt-secret'))).toBe(true);
    else {
      const db = await openDb(targetOf(databaseOptions));
      try {
        expect(String((await db.get<{ value: string }>(`SELECT value FROM _settings WHERE name = 'jwt_secret'`))?.value ?? '').length).toBeGreaterThanOrEqual(
          32,
        );
      } finally {
        await db.close();
      }
    }
  });

  it('a token from one worker is accepted by the other', async () => {
    const form = new URLSearchParams({ grant_type: 'password', username: 'sup01', password: DEMO_PASSWORD, warehouse: 'PDC01' }).toString();
    const r = await call('POST', '/connect/token', { 'content-type': 'application/x-www-form-urlencoded' }, form);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    token = String(r.body.access_token);
    expect(token.length).toBeGreaterThan(20);
    const workers = workerPids(primary!.pid!);
    // 20 connections at once: the round robin spreads them over both workers, and every one answers 200
    const answers = await authedOnWorkers(20, workers);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((a) => a.worker)), JSON.stringify(answers)).toEqual(new Set(workers));
    // and one after the other, each on a new connection
    const sequential: number[] = [];
    for (let i = 0; i < 10; i++) sequential.push((await authed('/api/orders?range=[0,0]')).status);
    expect(sequential).toEqual(sequential.map(() => 200));
  });

  it("one scrape of /metrics counts every worker's requests (the primary aggregates them)", async () => {
    // the test before sent 30 order lists, spread over both workers: the sum is 30, whichever worker answers the scrape
    const r = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(r.status).toBe(200);
    const families = parsePrometheusTextFormat(await r.text());
    const requests = families.find((f) => f.name === 'portal_http_requests_total')!;
    const orders = requests.metrics.find((m) => m.labels?.route === '/api/orders' && m.labels?.method === 'GET' && m.labels?.status === '200');
    expect(Number(orders?.value)).toBe(30);
  });

  it('a worker killed with SIGKILL is replaced; the other keeps answering; the token works on new workers', async () => {
    const [a, b] = workerPids(primary!.pid!);
    process.kill(a, 'SIGKILL');
    // once the primary has reaped it, the dead worker is out of the round robin
    await until('the killed worker is reaped', 5000, () => (existsSync(`/proc/${a}`) ? undefined : true), 20);
    const meanwhile = await authedOnWorkers(6, [a, b]);
    expect(meanwhile, 'the surviving worker answers everything').toEqual(meanwhile.map(() => ({ status: 200, worker: b })));
    const replacement = await until('a new worker', 5000, () => workerPids(primary!.pid!).find((p) => p !== a && p !== b));
    // the replacement serves once it has started (its pid appears at fork, it listens a moment later)
    await until(
      'the replacement serves',
      30_000,
      async () => ((await authedOnWorkers(4, [b, replacement])).some((x) => x.status === 200 && x.worker === replacement) ? true : undefined),
      200,
    );

    // now the other original worker: after that, no process that was there at login is left, so
    // every 200 below comes from a worker that did not issue the token
    process.kill(b, 'SIGKILL');
    await until('the second killed worker is reaped', 5000, () => (existsSync(`/proc/${b}`) ? undefined : true), 20);
    const after = await authedOnWorkers(10, [replacement]);
    expect(after).toEqual(after.map(() => ({ status: 200, worker: replacement })));
    const second = await until('another new worker', 5000, () => workerPids(primary!.pid!).find((p) => p !== a && p !== b && p !== replacement));
    await until(
      'the second replacement serves',
      30_000,
      async () => ((await authedOnWorkers(4, [replacement, second])).some((x) => x.status === 200 && x.worker === second) ? true : undefined),
      200,
    );
    expect(workerPids(primary!.pid!)).toEqual([replacement, second].sort((x, y) => x - y));
    // and a new login works too (the new workers share the secret and the database)
    const form = new URLSearchParams({ grant_type: 'password', username: 'staff01', password: DEMO_PASSWORD, warehouse: 'PDC01' }).toString();
    expect((await call('POST', '/connect/token', { 'content-type': 'application/x-www-form-urlencoded' }, form)).status).toBe(200);
  }, 90_000);

  it('SIGTERM to the primary ends the primary and every worker', async () => {
    const workers = workerPids(primary!.pid!);
    expect(workers.length).toBeGreaterThan(0);
    const exited = new Promise<number | null>((r) => primary!.once('exit', (c) => r(c)));
    primary!.kill('SIGTERM');
    const code = await Promise.race([exited, sleep(15_000).then(() => 'timeout' as const)]);
    expect(code, output.slice(-2000)).toBe(0);
    await until('every worker has ended', 5000, () => (workers.some(alive) ? undefined : true));
    await expect(call('GET', '/api/warehouses', {}, undefined, 2000)).rejects.toThrow();
  }, 30_000);
});
