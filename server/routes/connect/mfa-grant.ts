/**
 * POST /connect/token, grant_type=mfa: the second step. The ticket of the password step and a
 * current code of the authenticator app (or a recovery code). A wrong code counts like a wrong
 * password; a code is accepted once.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLocale } from '../../engine/i18n.ts';
import type { Locale } from '../../../codegen/runtime/model.ts';
import { verifyMfaToken } from '../../auth/mfa-token.ts';
import { useSecondFactor } from '../../auth/totp.ts';
import type { LoginGuard } from './login-guard.ts';
import { finishLogin } from './finish-login.ts';

export async function mfaGrant(app: FastifyInstance, g: LoginGuard, req: FastifyRequest, reply: FastifyReply, b: Record<string, string | undefined>) {
  const { db, MAY_LOG_IN, STATUS, tokenError, failures, statuses, throttled, tooManyAttempts } = g;
  const claims = verifyMfaToken(app, b.mfa_token ?? '');
  if (!claims) return tokenError(req, reply, 400, 'error.mfaExpired');
  const uid = claims.uid;
  const lang: Locale = isLocale(b.lang) ? b.lang : isLocale(claims.lang) ? claims.lang : req.locale;
  req.locale = lang;
  if (await tooManyAttempts(uid.toLowerCase())) return tokenError(req, reply, 429, 'error.rateLimited', {}, uid);
  if (await app.tokens.isRevoked(claims.jti)) return tokenError(req, reply, 400, 'error.mfaExpired', {}, uid);
  const acc = await app.tokens.account(Number(claims.sub));
  if (!acc || acc.userId !== uid) return tokenError(req, reply, 400, 'error.mfaExpired', {}, uid);
  // a password change, ended sessions or two-step verification turned off since the password step void the ticket
  if (acc.sessionsValidFrom && claims.ms < Date.parse(acc.sessionsValidFrom)) return tokenError(req, reply, 400, 'error.mfaExpired', {}, uid);
  if (!acc.totpEnabled) return tokenError(req, reply, 400, 'error.mfaExpired', {}, uid);
  if (acc.status === STATUS.locked) return tokenError(req, reply, 400, 'error.userLocked', {}, uid);
  if (!MAY_LOG_IN.has(acc.status)) return tokenError(req, reply, 400, 'error.noRight', {}, uid);
  // a code is an attempt like a password: counted in advance, refused while the ID must wait
  const claim = await failures.claim(uid);
  if (!claim.ok) return throttled(req, reply, claim, uid);
  const factor = await useSecondFactor(db, acc.id, b.code ?? '');
  if (!factor) {
    await failures.failAccount(acc.id, acc.userId, claim.failures, statuses);
    return tokenError(req, reply, 400, 'error.mfaInvalidCode', {}, uid);
  }
  // the ticket is used up
  await app.tokens.revoke(claims.jti, claims.exp);
  const wh = await app.tokens.warehouse(claims.wh);
  if (!wh) return tokenError(req, reply, 400, 'error.wrongWarehouse', {}, uid);
  return finishLogin(app, g, req, reply, acc, wh.code, lang, { factor });
}
