/** The end of every login: every factor has been checked. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { metadata } from '../../generated/index.ts';
import { translate } from '../../engine/i18n.ts';
import { hashPassword, needsRehash } from '../../engine/passwords.ts';
import type { Locale } from '../../../codegen/runtime/model.ts';
import { profileOfType, type AccountRow } from '../../plugins/auth.ts';
import { clearLoginFailures } from '../../auth/lockout.ts';
import type { LoginGuard } from './login-guard.ts';

const days = (ms: number) => Math.floor(ms / 86_400_000);

/** The failure counter starts again, the password expiry applies, the token is issued. */
export async function finishLogin(
  app: FastifyInstance,
  g: LoginGuard,
  req: FastifyRequest,
  reply: FastifyReply,
  acc: AccountRow,
  warehouse: string,
  lang: Locale,
  how: { password?: string; factor?: 'totp' | 'recovery' },
) {
  const { db, hashParams, MAY_LOG_IN, STATUS, tokenError } = g;
  const uid = acc.userId;
  // the account was read before the slow password check, and failures counted meanwhile (here or
  // in another process) may have locked it: the reset happens only while it may still log in,
  // otherwise the right password would undo a lockout that parallel guesses caused
  const current = await db.get<{ status: string }>(
    `UPDATE account SET failed_logins = 0, last_login_at = ? WHERE id = ? AND status IN (${[...MAY_LOG_IN].map(() => '?').join(',')}) RETURNING status`,
    [new Date().toISOString(), acc.id, ...MAY_LOG_IN],
  );
  if (!current) {
    const now = await app.tokens.account(acc.id);
    return tokenError(req, reply, 400, now?.status === STATUS.locked ? 'error.userLocked' : 'error.noRight', {}, uid);
  }
  await clearLoginFailures(db, uid);
  if (how.password && acc.passwordHash && needsRehash(acc.passwordHash, hashParams))
    await db.run(`UPDATE account SET password_hash = ? WHERE id = ?`, [await hashPassword(how.password, hashParams), acc.id]);
  // expiry: an expired password turns the login into 602 (must change); a near one is announced
  let status = current.status;
  let notice: { code: string; message: string; days?: number } | undefined;
  const changed = acc.passwordChangedAt ? Date.parse(acc.passwordChangedAt) : NaN;
  const left = Number.isNaN(changed) ? 0 : metadata.app.password.expiryDays - days(Date.now() - changed);
  if (status === STATUS.normal && left <= 0) {
    status = STATUS.mustChangePassword;
    notice = { code: 'error.passwordExpired', message: translate(lang, 'error.passwordExpired') };
  } else if (status === STATUS.mustChangePassword) {
    notice = { code: 'error.initialPassword', message: translate(lang, 'error.initialPassword') };
  } else if (left <= metadata.app.password.expiryWarnDays) {
    notice = { code: 'error.passwordExpiresSoon', message: translate(lang, 'error.passwordExpiresSoon', { days: left }), days: left };
  }
  if (status !== current.status) await db.run(`UPDATE account SET status = ? WHERE id = ?`, [status, acc.id]);
  const t = app.tokens.issue(acc, warehouse, lang);
  req.log.info({ event: 'login', outcome: 'ok', userId: uid, warehouse, accountStatus: status, ...(how.factor ? { secondFactor: how.factor } : {}) }, 'login');
  // an account whose type requires two-step verification and has none may only set it up
  const mustEnrol = !acc.totpEnabled && app.mfaRequired(profileOfType(acc.accountType));
  return reply.header('cache-control', 'no-store').send({
    access_token: t.token,
    token_type: 'Bearer',
    expires_in: t.expiresIn,
    account_status: Number(status),
    ...(notice ? { password_notice: notice } : {}),
    ...(mustEnrol ? { mfa_enrolment_required: true } : {}),
  });
}
