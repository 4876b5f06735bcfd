/**
 * Anti-automation for business writes (ASVS 2.4.1): each user may make at most `perMinute`
 * creates, updates, deletes and actions a minute. The window lives in memory per process: with
 * several processes the limit applies per process (documented in the README); the hard limits
 * that protect data (quantities, states, versions) are in the database and hold regardless.
 */
import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../engine/errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler (after authentication) counting the caller's writes */
    writeLimit: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

export default fp(async (app, opts: { perMinute: number }) => {
  const windows = new Map<string, number[]>();
  setInterval(() => {
    const cutoff = Date.now() - 60_000;
    for (const [k, times] of windows) if (!times.length || times[times.length - 1] < cutoff) windows.delete(k);
  }, 60_000).unref();
  app.decorate('writeLimit', async (req: FastifyRequest) => {
    const who = req.principal?.userId ?? req.ip;
    const now = Date.now();
    const times = (windows.get(who) ?? []).filter((t) => t > now - 60_000);
    if (times.length >= opts.perMinute) {
      req.log.warn({ event: 'writeLimit', userId: who }, 'write rate limit reached');
      throw new AppError(429, 'error.rateLimited');
    }
    times.push(now);
    windows.set(who, times);
  });
}, { name: 'write-limit' });
