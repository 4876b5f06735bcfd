/**
 * POST /connect/token, grant_type=password: the first step of a login. The attempt is counted before
 * the password is checked and answers alike for every user ID, known or not; with two-step
 * verification on, a right password answers a ticket for the second step (mfa-grant.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { metadata } from '../../generated/index.ts';
import { translate } from '../../engine/i18n.ts';
import { hashPassword, needsRehash } from '../../engine/passwords.ts';
import type { Locale } from '../../../codegen/runtime/model.ts';
import { signMfaToken } from '../../auth/mfa-token.ts';
import type { LoginGuard } from './login-guard.ts';
import { finishLogin } from './finish-login.ts';

export async function passwordGrant(
  app: FastifyInstance,
  g: LoginGuard,
  req: FastifyRequest,
  reply: FastifyReply,
  b: Record<string, string | undefined>,
  lang: Locale,
) {
  const { db, hashParams, MAY_LOG_IN, STATUS, tokenError, failures, statuses, throttled, checkPassword, busy, tooManyAttempts } = g;
  const username = (b.username ?? '').trim();
  const password = b.password ?? '';
  if (!username || password.length < metadata.app.password.loginMinLength || !b.warehouse) return tokenError(req, reply, 400, 'error.loginFailed');
  // per account, whatever the address (the per-address limit is the route's rateLimit)
  if (await tooManyAttempts(username.toLowerCase())) return tokenError(req, reply, 429, 'error.rateLimited');
  // counted as a failure before the password is checked, refused while the ID must wait: the
  // same for every user ID, known or not
  const claim = await failures.claim(username);
  if (!claim.ok) return throttled(req, reply, claim, username);
  const acc = await app.tokens.accountByUserId(username);
  // bounded hashing; no hash for a user ID that does not exist, the same wait (server/auth/hash-pool.ts)
  const ok = await checkPassword(password, acc?.passwordHash ?? null);
  if (ok === 'busy') return busy(req, reply, username);
  if (!acc) return tokenError(req, reply, 400, 'error.loginFailed');
  if (!ok) {
    await failures.failAccount(acc.id, acc.userId, claim.failures, statuses);
    // the same answer as for an unknown user, locked or not: only the right password learns
    // that the account is locked (otherwise the guesses would tell which user IDs exist)
    return tokenError(req, reply, 400, 'error.loginFailed');
  }
  // the right password: this attempt was no failure (with two-step verification on, the count
  // before it stands until the code is right: wrong codes add to the wrong passwords)
  await failures.refund(username);
  // the password is right: from here on the answer may say why the account cannot log in
  if (acc.status === STATUS.locked) return tokenError(req, reply, 400, 'error.userLocked');
  if (!MAY_LOG_IN.has(acc.status)) return tokenError(req, reply, 400, 'error.noRight');
  const wh = await app.tokens.warehouse(b.warehouse);
  if (!wh) return tokenError(req, reply, 400, 'error.wrongWarehouse');
  if (acc.totpEnabled) {
    // two-step verification: the code decides. The password does not reset the failure counter:
    // wrong codes add to the wrong passwords before them, up to the same lockout. Failures
    // counted during the slow password check (here or in another process) may have locked it.
    const now = await app.tokens.account(acc.id);
    if (!now || !MAY_LOG_IN.has(now.status)) return tokenError(req, reply, 400, now?.status === STATUS.locked ? 'error.userLocked' : 'error.noRight');
    if (acc.passwordHash && needsRehash(acc.passwordHash, hashParams))
      await db.run(`UPDATE account SET password_hash = ? WHERE id = ?`, [await hashPassword(password, hashParams), acc.id]);
    const t = signMfaToken(app, acc, wh.code, lang);
    req.log.info({ event: 'login', outcome: 'mfa_required', userId: acc.userId }, 'login: password right, second factor asked');
    return reply
      .status(400)
      .header('cache-control', 'no-store')
      .send({
        error: 'mfa_required',
        code: 'error.mfaRequired',
        message: translate(lang, 'error.mfaRequired'),
        mfa_token: t.token,
        expires_in: t.expiresIn,
      });
  }
  return finishLogin(app, g, req, reply, acc, wh.code, lang, { password });
}
