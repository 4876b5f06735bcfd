/**
 * The login-flood step (issue 25 point 1): normal logins, one after another, alone and then beside
 * a flood of logins with made-up user IDs from rotating source addresses (each flood request comes
 * from a new 127.x.y.z address, so the per-address limit does not stop it, as in the probe that
 * found the problem). Reports the normal logins' p95 with and without the flood and their ratio
 * (target: at most 2x), on SQLite and, when the bench runs it, PostgreSQL. Passwords are hashed
 * at production cost. Nothing is asserted here (report.ts judges the target).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';
import { ROOT, percentile, round } from './lib.ts';
import { withAdminClient, type BenchPostgres } from './setups.ts';
import type { StepResult } from './report.ts';

export interface FloodCtx {
  smoke: boolean;
  work: string;
  pg: BenchPostgres | null;
  log: (s: string) => void;
}

const NORMAL_USERS = ['sup01', 'sup02', 'staff01', 'supadmin'];
const FLOOD_DATABASE = 'portal_login_flood';

let address = 0;
/** a new loopback source address per call (Linux routes all of 127/8 to the loopback device) */
const nextAddress = () => {
  address = (address + 1) % 60_000;
  return `127.${10 + (address >> 16)}.${(address >> 8) & 255}.${address & 255 || 1}`;
};

/** One login; answers its status and duration (ms). */
function attempt(port: number, username: string, password: string): Promise<{ status: number; ms: number }> {
  const body = new URLSearchParams({ grant_type: 'password', username, password, warehouse: 'PDC01' }).toString();
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/connect/token',
        method: 'POST',
        localAddress: nextAddress(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      },
    );
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }));
    req.end(body);
  });
}

function startFloodServer(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(join(ROOT, 'tests', 'bench', 'login-flood-server.ts'), [], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`login-flood server exited (${code}) before it was ready`)));
    child.once('message', (m: { port: number }) => ok({ child, port: m.port }));
  });
}

const stopServer = (child: ChildProcess) =>
  new Promise<void>((res) => {
    if (child.exitCode !== null) return res();
    const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.removeAllListeners('exit');
    child.once('exit', () => {
      clearTimeout(kill);
      res();
    });
    child.send({ type: 'exit' });
  });

/** `n` normal logins one after another; their durations and statuses. */
async function normalLogins(port: number, n: number): Promise<{ ms: number[]; statuses: Record<string, number> }> {
  const ms: number[] = [];
  const statuses: Record<string, number> = {};
  for (let i = 0; i < n; i++) {
    const r = await attempt(port, NORMAL_USERS[i % NORMAL_USERS.length], DEMO_PASSWORD);
    ms.push(r.ms);
    statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  }
  return { ms, statuses };
}

/**
 * The normal logins alone, then beside `parallel` flooders; each flooder sends made-up IDs back to
 * back. `warmup` logins first (the normal logins' order): each account's first login rehashes its
 * password at production cost, and the pool measures the hash time.
 */
async function measure(port: number, opts: { warmup: number; normal: number; parallel: number }) {
  await normalLogins(port, opts.warmup);
  const alone = await normalLogins(port, opts.normal);
  let flooding = true;
  let floodSent = 0;
  const floodStatuses: Record<string, number> = {};
  const flooders = Array.from({ length: opts.parallel }, async (_, k) => {
    for (let i = 0; flooding; i++) {
      const r = await attempt(port, `made-up-${k}-${i}-${Math.random().toString(36).slice(2, 8)}`, 'Guess2026x');
      floodSent++;
      floodStatuses[r.status] = (floodStatuses[r.status] ?? 0) + 1;
    }
  });
  const t0 = performance.now();
  const beside = await normalLogins(port, opts.normal);
  const wallS = (performance.now() - t0) / 1000;
  flooding = false;
  await Promise.all(flooders);
  const p95 = (xs: number[]) => round(percentile(xs, 95), 1);
  const med = (xs: number[]) => round(percentile(xs, 50), 1);
  return {
    normalLogins: opts.normal,
    floodParallel: opts.parallel,
    alone: { p95Ms: p95(alone.ms), medianMs: med(alone.ms), statuses: alone.statuses },
    withFlood: { p95Ms: p95(beside.ms), medianMs: med(beside.ms), statuses: beside.statuses },
    flood: { requests: floodSent, perSecond: round(floodSent / wallS, 1), statuses: floodStatuses },
    ratioP95: round(percentile(beside.ms, 95) / percentile(alone.ms, 95), 2),
  };
}

/** One setup: a server over the database the environment names, measured, stopped. */
export async function floodSetup(env: Record<string, string>, smoke: boolean) {
  const server = await startFloodServer(env);
  try {
    // every login costs a production-cost hash: a smoke run's warm-up rehashes the one account it
    // logs in with, then one normal login alone and one beside the flood
    return await measure(server.port, smoke ? { warmup: 1, normal: 1, parallel: 4 } : { warmup: 2 * NORMAL_USERS.length, normal: 20, parallel: 10 });
  } finally {
    await stopServer(server.child);
  }
}

export async function loginFloodStep(ctx: FloodCtx): Promise<StepResult> {
  const setups: Record<string, unknown> = {};
  setups.sqlite = await floodSetup({ FLOOD_DB: join(ctx.work, 'login-flood.db') }, ctx.smoke);
  if (ctx.pg) {
    const pg = ctx.pg;
    await withAdminClient(pg, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${FLOOD_DATABASE} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${FLOOD_DATABASE} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
    });
    const url = new URL(pg.url);
    url.pathname = `/${FLOOD_DATABASE}`;
    try {
      setups.postgres = await floodSetup({ FLOOD_DATABASE_URL: url.toString() }, ctx.smoke);
    } finally {
      await withAdminClient(pg, (c) => c.query(`DROP DATABASE IF EXISTS ${FLOOD_DATABASE} WITH (FORCE)`));
    }
  } else setups.postgres = { status: 'not run', note: 'PostgreSQL is not part of this run' };
  return { status: 'ok', setups };
}
