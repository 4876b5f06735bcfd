/**
 * Rate limits, shared by every server process: @fastify/rate-limit with a store in the database
 * (table _rate_counters, one fixed-window counter per key), so N processes behind one port allow
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

/** Counters older than this are deleted now and then (the longest window is a minute). */
const KEEP_MS = 10 * 60_000;

const INCR = `INSERT INTO _rate_counters (key, window_start, hits) VALUES (?, ?, 1)
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN _rate_counters.window_start + ? <= ? THEN 1 ELSE _rate_counters.hits + 1 END,
    window_start = CASE WHEN _rate_counters.window_start + ? <= ? THEN ? ELSE _rate_counters.window_start END
  RETURNING hits, window_start AS "windowStart"`;

/**
 * Counts one hit of `key` in its fixed window of `windowMs` and answers the hits so far, in one
 * atomic statement: concurrent hits from several processes each count.
 */
export async function countHit(db: Db, key: string, windowMs: number, now = Date.now()): Promise<{ hits: number; windowStart: number }> {
  const row = await db.counterGet<{ hits: number; windowStart: number }>(INCR, [key, now, windowMs, now, windowMs, now, now]);
  return { hits: Number(row!.hits), windowStart: Number(row!.windowStart) };
}

/** A @fastify/rate-limit store over the database; `prefix` keeps the routes' counters apart. */
export function databaseStore(db: Db) {
  let purgedAt = 0;
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
        .then(async (row) => {
          if (now - purgedAt > KEEP_MS) {
            purgedAt = now;
            await db.run(`DELETE FROM _rate_counters WHERE window_start < ?`, [now - KEEP_MS]);
          }
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
