/**
 * The ticket between the two steps of a login with two-step verification. The password step
 * answers `mfa_token` instead of an access token: a JWT signed like every token (HS256, the shared
 * secret) but for another audience, so it is never accepted as a bearer token, and an access token
 * is never accepted here. It lives 5 minutes, carries what the second step needs (account,
 * warehouse, language, when the password was checked) and is used once (revoked when it succeeds).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Locale } from '../../codegen/runtime/model.ts';

export const MFA_AUDIENCE = 'supplier-portal:mfa';
export const MFA_TOKEN_SECONDS = 300;

export interface MfaClaims {
  typ: 'mfa';
  sub: string;
  uid: string;
  wh: string;
  lang: Locale;
  jti: string;
  /** when the password was checked (ms): a password change or ended sessions after it void the ticket */
  ms: number;
  exp: number;
}

export function signMfaToken(
  app: FastifyInstance,
  account: { id: number; userId: string },
  warehouse: string,
  lang: Locale,
): { token: string; jti: string; expiresIn: number } {
  const jti = randomUUID();
  const token = app.jwt.sign(
    { typ: 'mfa', sub: String(account.id), uid: account.userId, wh: warehouse, lang, jti, ms: Date.now() },
    { aud: MFA_AUDIENCE, expiresIn: MFA_TOKEN_SECONDS },
  );
  return { token, jti, expiresIn: MFA_TOKEN_SECONDS };
}

/** The ticket's claims, or null when it is forged, expired or not a ticket. */
export function verifyMfaToken(app: FastifyInstance, token: string): MfaClaims | null {
  if (!token || token.length > 2000 || !/^[A-Za-z0-9._-]+$/.test(token)) return null;
  try {
    const c = app.jwt.verify<MfaClaims>(token, { allowedAud: MFA_AUDIENCE });
    return c.typ === 'mfa' && typeof c.sub === 'string' && typeof c.jti === 'string' && typeof c.ms === 'number' ? c : null;
  } catch {
    return null;
  }
}
