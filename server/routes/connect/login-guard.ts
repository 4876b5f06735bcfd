/**
 * What every step of a login shares (server/routes/connect.ts): the refusal answer with its log line,
 * the lockout counter per user ID, the per-account attempt limit and the bounded password hashing.
 * Made once per registration of the connect routes (the dev server registers them again after a
 * metadata change, so the account statuses are read here, not at import).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { metadata } from '../../generated/index.ts';
import { translate } from '../../engine/i18n.ts';
import { PRODUCTION_PARAMS, type ScryptParams } from '../../engine/passwords.ts';
import type { Db } from '../../db/types.ts';
import { countHit } from '../../plugins/rate-limit.ts';
import { HashPool, passwordCheck, type HashPoolOptions } from '../../auth/hash-pool.ts';
import { LoginFailures, type ClaimResult } from '../../auth/lockout.ts';

export interface ConnectOptions {
  db: Db;
  hashParams?: ScryptParams;
  /** login attempts one account may make per minute, whatever the address (default 10) */
  accountAttemptsPerMinute?: number;
  /** the bound on password hashing at login (server/auth/hash-pool.ts), or a pool to share */
  hashPool?: HashPoolOptions | HashPool;
}

export type LoginGuard = ReturnType<typeof createLoginGuard>;

export function createLoginGuard(app: FastifyInstance, opts: ConnectOptions) {
  const { db } = opts;
  const hashParams = opts.hashParams ?? PRODUCTION_PARAMS;
  const MAY_LOG_IN = new Set(metadata.codeTables.accountStatus.groups.mayLogIn);
  const STATUS = Object.fromEntries(metadata.codeTables.accountStatus.values.map((v) => [v.key, v.code])) as Record<string, string>;

  const tokenError = (req: FastifyRequest, reply: FastifyReply, status: number, code: string, args: Record<string, string | number> = {}, userId?: string) => {
    // every failed authentication is logged (ASVS 16.3.1); never the password or the code
    req.log.warn(
      { event: 'login', outcome: code, userId: (userId ?? String((req.body as Record<string, unknown> | undefined)?.username ?? '')).slice(0, 100) },
      'login refused',
    );
    return reply
      .status(status)
      .header('cache-control', 'no-store')
      .send({
        error: status === 400 ? 'invalid_grant' : status === 503 ? 'temporarily_unavailable' : 'invalid_request',
        code,
        message: translate(req.locale, code, args),
      });
  };

  // failed logins per user ID: free attempts, growing delays, then the lock (server/auth/lockout.ts)
  const failures = new LoginFailures(db, metadata.app.lockout);
  const statuses = { mayLogIn: [...MAY_LOG_IN], locked: STATUS.locked };
  /** a wrong password or code of a known account, given in a logged-in call (two-step set-up and turn-off): counts toward the lockout */
  const countFailure = async (accountId: number): Promise<void> => {
    const acc = await app.tokens.account(accountId);
    if (acc) await failures.failAccount(acc.id, acc.userId, await failures.record(acc.userId), statuses);
  };
  /** the user ID must wait: 429 with the seconds left (the same for every ID with the same history) */
  const throttled = (req: FastifyRequest, reply: FastifyReply, claim: ClaimResult, userId: string) => {
    reply.header('retry-after', String(claim.retryAfterSeconds));
    return tokenError(req, reply, 429, 'error.loginThrottled', { seconds: claim.retryAfterSeconds }, userId);
  };
  const hashPool = opts.hashPool instanceof HashPool ? opts.hashPool : new HashPool(opts.hashPool);
  const checkPassword = (password: string, hash: string | null) => passwordCheck(hashPool, password, hash);
  /** too many password checks waiting: 503 with the seconds to wait, alike for every user ID */
  const busy = (req: FastifyRequest, reply: FastifyReply, userId: string) => {
    const seconds = hashPool.retryAfterSeconds();
    reply.header('retry-after', String(seconds));
    return tokenError(req, reply, 503, 'error.loginBusy', { seconds }, userId);
  };
  const perAccount = opts.accountAttemptsPerMinute ?? 10;
  /**
   * Counts this attempt; true when the account has made too many this minute. One atomic counter
   * in the database (a fixed one-minute window), so parallel attempts through several processes
   * each count and none slips past the limit.
   */
  const tooManyAttempts = async (userId: string): Promise<boolean> => (await countHit(db, `login-account|${userId}`, 60_000)).hits > perAccount;

  return { db, hashParams, MAY_LOG_IN, STATUS, tokenError, failures, statuses, countFailure, throttled, checkPassword, busy, tooManyAttempts };
}
