/**
 * Self-service password reset ("Forgot password?" on the login page), public calls:
 *
 *   POST /api/auth/forgot       { userId, email? }      -> 202, always the same answer
 *   POST /api/auth/reset/check  { token }                -> 200 { userId } | 400 link invalid / expired / used
 *   POST /api/auth/reset        { token, newPassword, confirmPassword } -> 200 | 400
 *
 * Forgot: when the user ID names an account that has an e-mail address (and `email`, when given,
 * is that address) and is not disabled, a one-time link is mailed to it. The answer never tells
 * whether that happened: the same 202 and message for every user ID, and the same minimum time
 * (the work is done before answering, and the answer waits until `minAnswerMs` have passed).
 * Limits: per address (the route's rate limit, 429) and per user ID (a few mails an hour; beyond
 * that the answer is still the same 202, and nothing is sent).
 *
 * The link (reset-link.ts) carries a random 256-bit token in its fragment; the database keeps only
 * its SHA-256. It expires (`app.password.resetLinkMinutes`), works once, and a newer link voids the
 * older ones. Setting the password follows the same rules as a
 * change (auth/password-policy.ts: the rule, the last N passwords), ends every session of the
 * account, unlocks an account locked by failed logins (status 601 -> 0, counter cleared; a 602
 * account's new password is its own, so it becomes 0 as well), and writes the audit trail.
 * Two-step verification, when on, stays on: a reset does not bypass it.
 */
import type { FastifyInstance } from 'fastify';
import { metadata } from '../generated/index.ts';
import { translate } from '../engine/i18n.ts';
import { hashPassword, PRODUCTION_PARAMS, type ScryptParams } from '../engine/passwords.ts';
import { AppError, conflict, validationFailed } from '../engine/errors.ts';
import { SchemaValidator } from '../../codegen/runtime/validation.ts';
import type { Db, Queryable } from '../db/types.ts';
import { countHit } from '../plugins/rate-limit.ts';
import { issueResetLink, RESET_LINK_MINUTES, tokenHash } from './reset-link.ts';
import { clearLoginFailures } from './lockout.ts';
import { keepInHistory, newPasswordErrors, passwordReused, reusesRecentPassword } from './password-policy.ts';

export interface PasswordResetOptions {
  /** forgot / check / reset calls per address and minute (default 10) */
  perAddressPerMinute?: number;
  /** reset mails per user ID and hour (default 3) */
  mailsPerUserPerHour?: number;
  /** the forgot call answers no sooner than this after it arrived (default 300 ms) */
  minAnswerMs?: number;
}

const STATUS = Object.fromEntries(metadata.codeTables.accountStatus.values.map((v) => [v.key, v.code])) as Record<string, string>;
const HOUR = 3_600_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface TokenRow {
  accountId: number;
  expiresAt: string;
  usedAt: string | null;
  createdAt: string;
  userId: string;
  status: string;
  /** SQLite answers 0/1, PostgreSQL a boolean */
  lockedByStaff: boolean | number;
  failedLogins: number;
  passwordHash: string | null;
  passwordChangedAt: string | null;
}

const linkError = (code: 'error.resetLinkInvalid' | 'error.resetLinkExpired' | 'error.resetLinkUsed') => new AppError(400, code);

export default async function passwordResetRoutes(app: FastifyInstance, opts: PasswordResetOptions & { db: Db; hashParams?: ScryptParams }) {
  const { db } = opts;
  const hashParams = opts.hashParams ?? PRODUCTION_PARAMS;
  const validator = new SchemaValidator(metadata);
  const perUser = opts.mailsPerUserPerHour ?? 3;
  const minAnswerMs = opts.minAnswerMs ?? 300;
  const limit = { rateLimit: { max: opts.perAddressPerMinute ?? 10, timeWindow: 60_000, groupId: 'password-reset' } };
  const token = { type: 'string', minLength: 1, maxLength: 200 };

  app.post(
    '/api/auth/forgot',
    {
      config: limit,
      schema: {
        body: {
          type: 'object',
          required: ['userId'],
          additionalProperties: false,
          properties: { userId: { type: 'string', minLength: 1, maxLength: 100 }, email: { type: ['string', 'null'], maxLength: 200 } },
        },
      },
    },
    async (req, reply) => {
      const started = Date.now();
      const body = req.body as { userId: string; email?: string | null };
      const userId = body.userId.trim();
      const email = body.email?.trim().toLowerCase() || null;
      const outcome = await requestReset(userId, email);
      req.log.info({ event: 'passwordResetRequest', userId: userId.slice(0, 100), outcome }, 'password reset requested');
      // the same time for every outcome (the work above is a few milliseconds; the wait hides which)
      await sleep(Math.max(0, minAnswerMs - (Date.now() - started)));
      return reply
        .status(202)
        .send({ status: 202, code: 'message.resetRequested', message: translate(req.locale, 'message.resetRequested', { minutes: RESET_LINK_MINUTES }) });
    },
  );

  /** Mails a link when the request names an account that can receive one; answers what happened (for the log only). */
  async function requestReset(userId: string, email: string | null): Promise<string> {
    // counted per asked user ID, whoever asks and whether or not it exists: no mail bombing
    if ((await countHit(db, `reset-mail|${userId.toLowerCase()}`, HOUR)).hits > perUser) return 'throttled';
    const acc = await app.tokens.accountByUserId(userId);
    if (!acc) return 'unknownUser';
    if (!acc.email?.trim()) return 'noEmail';
    if (email && email !== acc.email.trim().toLowerCase()) return 'emailMismatch';
    if (acc.status === STATUS.disabled) return 'disabled';
    await db.transaction((tx) => issueResetLink(tx, acc.id));
    app.mailer.wake();
    return 'mailed';
  }

  /** The token's row and its account, or the reason the link cannot be used. */
  async function liveToken(q: Queryable, raw: string): Promise<TokenRow> {
    const row = await q.get<TokenRow>(
      `SELECT t.account_id AS "accountId", t.expires_at AS "expiresAt", t.used_at AS "usedAt", t.created_at AS "createdAt",
         a.user_id AS "userId", a.status, a.locked_by_staff AS "lockedByStaff", a.failed_logins AS "failedLogins", a.password_hash AS "passwordHash", a.password_changed_at AS "passwordChangedAt"
       FROM _password_reset_tokens t JOIN account a ON a.id = t.account_id WHERE t.token_hash = ?`,
      [tokenHash(raw)],
    );
    if (!row || row.status === STATUS.disabled) throw linkError('error.resetLinkInvalid');
    if (row.usedAt) throw linkError('error.resetLinkUsed');
    if (Date.parse(row.expiresAt) <= Date.now()) throw linkError('error.resetLinkExpired');
    return { ...row, accountId: Number(row.accountId), failedLogins: Number(row.failedLogins) };
  }

  app.post(
    '/api/auth/reset/check',
    {
      config: limit,
      schema: { body: { type: 'object', required: ['token'], additionalProperties: false, properties: { token } } },
    },
    async (req) => {
      const row = await liveToken(db, (req.body as { token: string }).token);
      return { status: 200, data: { userId: row.userId, expiresAt: row.expiresAt } };
    },
  );

  app.post(
    '/api/auth/reset',
    {
      config: limit,
      schema: {
        body: {
          type: 'object',
          required: ['token'],
          additionalProperties: false,
          properties: { token, newPassword: { type: ['string', 'null'], maxLength: 200 }, confirmPassword: { type: ['string', 'null'], maxLength: 200 } },
        },
      },
    },
    async (req) => {
      const b = req.body as { token: string; newPassword?: string | null; confirmPassword?: string | null };
      const row = await liveToken(db, b.token);
      // the password is checked before the link is used up: a refused password leaves the link working
      const errors = newPasswordErrors(validator, b.newPassword, b.confirmPassword);
      if (Object.keys(errors).length) throw validationFailed(errors);
      const acc = { id: row.accountId, passwordHash: row.passwordHash, passwordChangedAt: row.passwordChangedAt };
      if (await reusesRecentPassword(db, acc, b.newPassword!)) throw passwordReused();
      const newHash = await hashPassword(b.newPassword!, hashParams);
      const now = new Date().toISOString();
      // a lockout by failed logins is lifted (the holder proved control of the mailbox); a lock
      // staff set stays until staff unlock (the new password is set all the same)
      const lifts = (row.status === STATUS.locked && Number(row.lockedByStaff) !== 1) || row.status === STATUS.mustChangePassword;
      const newStatus = lifts ? STATUS.normal : row.status;
      await db.transaction(async (tx) => {
        // the link is used exactly once: of two concurrent resets, one gets it
        const used = await tx.run(`UPDATE _password_reset_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?`, [
          now,
          tokenHash(b.token),
          now,
        ]);
        if (used.changes === 0) throw linkError('error.resetLinkUsed');
        await keepInHistory(tx, acc, now);
        // compare-and-set on the password the history was checked against; every session ends
        const info = await tx.run(
          `UPDATE account SET password_hash = ?, password_changed_at = ?, sessions_valid_from = ?, failed_logins = 0, status = ?, version = version + 1, updated_at = ?, updated_by = ?
         WHERE id = ? AND status = ? AND ${row.passwordHash === null ? 'password_hash IS NULL' : 'password_hash = ?'}`,
          [newHash, now, now, newStatus, now, row.userId, row.accountId, row.status, ...(row.passwordHash === null ? [] : [row.passwordHash])],
        );
        if (info.changes === 0) throw conflict('error.staleVersion');
        // the user ID's failed-login count and its delays start again too (server/auth/lockout.ts)
        await clearLoginFailures(tx, row.userId);
        await tx.run(`UPDATE _password_reset_tokens SET used_at = ? WHERE account_id = ? AND used_at IS NULL`, [now, row.accountId]);
        const changes: Record<string, [unknown, unknown]> = { password: ['***', '***'] };
        if (newStatus !== row.status) changes.status = [row.status, newStatus];
        if (row.failedLogins !== 0) changes.failedLogins = [row.failedLogins, 0];
        await tx.run(
          `INSERT INTO audit_entry (at, user_id, warehouse_code, resource, record_id, operation, changes) VALUES (?, ?, NULL, 'accounts', ?, 'passwordReset', ?)`,
          [now, row.userId, row.accountId, JSON.stringify(changes)],
        );
      });
      req.log.info(
        { event: 'passwordReset', userId: row.userId, unlocked: row.status === STATUS.locked && newStatus !== STATUS.locked },
        'password reset through the e-mailed link',
      );
      return { status: 200, message: translate(req.locale, 'message.passwordResetDone') };
    },
  );
}
