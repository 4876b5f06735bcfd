/**
 * GET /healthz and GET /readyz, for load balancers and systemd, without a login.
 *
 * /healthz: the process answers at all (no database call), so a supervisor restarts only a
 * process that hangs, never one whose database is away (restarting would not help it).
 * /readyz: this process can serve now: the database answers `SELECT 1` within a short timeout,
 * every migration of the metadata is applied, and the process is not shutting down. A load
 * balancer takes a not-ready process out of rotation. Answers carry a status word only (no
 * error text, version or host name an attacker could use); the reason is logged.
 *
 * Graceful drain (`drainAndClose`): on SIGTERM the process answers not-ready first, keeps serving
 * for `drainMs` (the load balancer notices and stops sending), then closes: Fastify finishes the
 * requests in flight before the database closes.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/types.ts';

export interface HealthOptions {
  db: Db;
  /** ids of every migration the metadata declares (generated migrations.json; a function: the dev server reloads it) */
  migrationIds: () => readonly string[];
  /** how long /readyz waits for the database (default 2000 ms) */
  timeoutMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** true once shutdown began: /readyz answers 503, answers carry `connection: close` */
    draining: boolean;
  }
}

/** Rejects after `ms` (the timer never keeps the process alive). */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_res, rej) => {
    timer = setTimeout(() => rej(new Error(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Why this process cannot serve now, or null when it can. */
export async function notReadyReason(app: FastifyInstance, opts: HealthOptions, migrated: { done: boolean }): Promise<string | null> {
  if (app.draining) return 'shutting down';
  try {
    await within(opts.db.get('SELECT 1 AS ok'), opts.timeoutMs ?? 2000);
    // once every migration is applied it stays so: the check is skipped afterwards
    const ids = opts.migrationIds();
    if (!migrated.done && ids.length) {
      const applied = new Set((await within(opts.db.all<{ id: string }>('SELECT id FROM _migrations'), opts.timeoutMs ?? 2000)).map((r) => r.id));
      const missing = ids.filter((id) => !applied.has(id));
      if (missing.length) return `migrations not applied: ${missing.join(', ')}`;
    }
    migrated.done = true;
    return null;
  } catch (err) {
    return `database: ${(err as Error).message}`;
  }
}

async function healthRoutes(app: FastifyInstance, opts: HealthOptions) {
  app.decorate('draining', false);
  const migrated = { done: false };
  // a draining process asks keep-alive clients to reconnect (to another process)
  app.addHook('onSend', async (_req, reply, payload) => {
    if (app.draining) reply.header('connection', 'close');
    return payload;
  });
  const plain = { 'cache-control': 'no-store', 'content-type': 'application/json; charset=utf-8' };
  app.get('/healthz', { logLevel: 'warn' }, async (_req, reply) => reply.headers(plain).send({ status: 'ok' }));
  let lastReason: string | null = null;
  app.get('/readyz', { logLevel: 'warn' }, async (req, reply) => {
    const reason = await notReadyReason(app, opts, migrated);
    // logged when it changes, not at every probe
    if (reason !== lastReason) {
      if (reason) req.log.warn({ event: 'readiness', ready: false, reason }, 'not ready');
      else req.log.info({ event: 'readiness', ready: true }, 'ready');
      lastReason = reason;
    }
    return reply
      .status(reason ? 503 : 200)
      .headers(plain)
      .send({ status: reason ? (app.draining ? 'draining' : 'unavailable') : 'ready' });
  });
}

/**
 * SIGTERM's handler: not ready at once, still serving for `drainMs` (a load balancer's probe
 * interval or two), then closed: requests in flight finish, new connections are refused, the
 * outbox and mail loops stop, the database closes.
 */
export async function drainAndClose(app: FastifyInstance, drainMs: number): Promise<void> {
  if (app.draining) return;
  app.draining = true;
  app.log.info({ event: 'shutdown', drainMs }, 'draining: not ready, finishing requests');
  if (drainMs > 0) await new Promise((res) => setTimeout(res, drainMs));
  await app.close();
}

/** Registered at the root (fastify-plugin): `draining` and the connection header apply to every route. */
export default fp(healthRoutes, { name: 'portal-health' });
