/**
 * Rate limits, shared by every server process: @fastify/rate-limit with a store in the database
 * (table _rate_windows, one fixed-window counter per key that lives as long as its window), so N processes behind one port allow
 * what one process would, not N times as much.
 *
 * - per address: the login and profile routes (`config: { rateLimit: {} }`), `loginPerMinute`;
 * - per user: business writes (creates, updates, deletes, actions, uploads), `app.writeLimit`
 *   after authentication, `writesPerMinute` (anti-automation, ASVS 2.4.1). The hard limits that
 *   protect data (quantities, states, versions) are in the database and hold regardless.
 *
 * A counter's loss in a crash does no harm, so its update does not wait for the disk
 * (db.counterGet); its cost is a round trip, not an fsync.
 */
import fp from 'fastify-plugin';
import rateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/types.ts';
import { AppError } from '../engine/errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler (after authentication) counting the caller's writes */
    writeLimit: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** How often a process sweeps expired counters (at most; a sweep runs on a hit, not on a timer). */
export const SWEEP_EVERY_MS = 15_000;
/** Rows one sweep statement deletes, and statements one sweep runs: a sweep never holds the table long. */
const SWEEP_BATCH = 1000;
const SWEEP_STATEMENTS = 10;

const INCR = `INSERT INTO _rate_windows (key, window_start, expires_at, hits) VALUES (?, ?, ?, 1)
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN _rate_windows.expires_at <= ? THEN 1 ELSE _rate_windows.hits + 1 END,
    window_start = CASE WHEN _rate_windows.expires_at <= ? THEN ? ELSE _rate_windows.window_start END,
    expires_at = CASE WHEN _rate_windows.expires_at <= ? THEN ? ELSE _rate_windows.expires_at END
  RETURNING hits, window_start AS "windowStart"`;

/**
 * Counts one hit of `key` in its fixed window of `windowMs` and answers the hits so far, in one
 * atomic statement: concurrent hits from several processes each count. The row remembers when its
 * own window ends, so an hour's counter lives an hour and a minute's a minute.
 */
export async function countHit(db: Db, key: string, windowMs: number, now = Date.now()): Promise<{ hits: number; windowStart: number }> {
  const end = now + windowMs;
  const row = await db.counterGet<{ hits: number; windowStart: number }>(INCR, [key, now, end, now, now, now, now, end]);
  return { hits: Number(row!.hits), windowStart: Number(row!.windowStart) };
}

/**
 * Removes counters whose window has ended, in batches of SWEEP_BATCH and at most SWEEP_STATEMENTS
 * batches (what is left goes at the next sweep); answers how many went. A counter still counting
 * is never touched, so no limit is lifted early.
 */
export async function sweepExpiredCounters(db: Db, now = Date.now()): Promise<number> {
  let removed = 0;
  for (let i = 0; i < SWEEP_STATEMENTS; i++) {
    const r = await db.run(
      `DELETE FROM _rate_windows WHERE key IN (SELECT key FROM _rate_windows WHERE expires_at <= ? ORDER BY expires_at LIMIT ${SWEEP_BATCH})`,
      [now],
    );
    removed += r.changes;
    if (r.changes < SWEEP_BATCH) break;
  }
  return removed;
}

/**
 * The process's periodic sweep: started by a hit at most every SWEEP_EVERY_MS, never two at once,
 * off the hit's path (the hit does not wait for it). Several processes may sweep at once: the
 * deletes are idempotent.
 */
export function counterSweeper(db: Db, everyMs = SWEEP_EVERY_MS) {
  let last = 0;
  let running: Promise<unknown> | null = null;
  return (now = Date.now()): void => {
    if (running || now - last < everyMs) return;
    last = now;
    running = sweepExpiredCounters(db, now)
      .catch(() => 0) // a failed sweep is retried by the next one; the counters stay correct
      .finally(() => (running = null));
  };
}

/** A @fastify/rate-limit store over the database; `prefix` keeps the routes' counters apart. */
export function databaseStore(db: Db) {
  const sweep = counterSweeper(db);
  class DatabaseStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    /** the plugin constructs the root store with its options; child() passes the route's prefix */
    constructor(prefixOrOptions?: unknown) {
      this.prefix = typeof prefixOrOptions === 'string' ? prefixOrOptions : '';
    }
    incr(key: string, cb: (err: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      const now = Date.now();
      const k = `${this.prefix}|${key}`;
      countHit(db, k, timeWindow, now)
        .then((row) => {
          sweep(now);
          cb(null, { current: row.hits, ttl: Math.max(0, row.windowStart + timeWindow - now) });
        })
        .catch((err: Error) => cb(err));
    }
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const o = routeOptions as unknown as { groupId?: string; routeInfo?: { url?: string; method?: string | string[] } };
      return new DatabaseStore(o.groupId ?? `${String(o.routeInfo?.method ?? '')} ${o.routeInfo?.url ?? ''}`);
    }
  }
  return DatabaseStore;
}

export interface RateLimitOptions {
  db: Db;
  /** login and profile attempts per address and minute */
  loginPerMinute: number;
  /** business writes per user and minute */
  writesPerMinute: number;
}

export default fp(
  async (app, opts: RateLimitOptions) => {
    const tooMany = () => new AppError(429, 'error.rateLimited');
    await app.register(rateLimit, {
      global: false,
      max: opts.loginPerMinute,
      timeWindow: 60_000,
      keyGenerator: (req) => req.ip,
      store: databaseStore(opts.db),
      errorResponseBuilder: tooMany,
    });
    const writes = app.rateLimit({
      max: opts.writesPerMinute,
      timeWindow: 60_000,
      groupId: 'writes',
      keyGenerator: (req) => req.principal?.userId ?? req.ip,
      errorResponseBuilder: tooMany,
      onExceeded: (req, key) => req.log.warn({ event: 'writeLimit', userId: key }, 'write rate limit reached'),
    });
    app.decorate('writeLimit', async (req: FastifyRequest, reply: FastifyReply) => {
      await writes.call(app, req, reply);
    });
  },
  { name: 'rate-limit' },
);
