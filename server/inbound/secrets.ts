/**
 * Machine-client secrets. A secret is 256 random bits (base64url, with a `mcs_` prefix so that a
 * leaked one is recognisable in logs and scanners); only its SHA-256 is stored. A slow password
 * hash (scrypt) protects guessable human passwords; a 256-bit random secret cannot be guessed, so a
 * plain digest is as safe and keeps the token call cheap for senders that fetch tokens often.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'mcs_';

export function newClientSecret(): { secret: string; hash: string } {
  const secret = SECRET_PREFIX + randomBytes(32).toString('base64url');
  return { secret, hash: hashClientSecret(secret) };
}

export function hashClientSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret, 'utf8').digest('hex')}`;
}

/** Whether `secret` is the one `hash` was made from (constant time). */
export function secretMatches(secret: string, hash: string | null | undefined): boolean {
  if (!hash) return false;
  const a = Buffer.from(hashClientSecret(secret));
  const b = Buffer.from(hash);
  return a.length === b.length && timingSafeEqual(a, b);
}
