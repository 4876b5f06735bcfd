/**
 * Two-step verification with an authenticator app: TOTP (RFC 6238: HMAC-SHA1, 6 digits, 30 s
 * steps, what every authenticator app reads from an otpauth:// URI) and single-use recovery codes.
 *
 * No hand-made cryptography: codes are made and compared by `otpauth` (HMAC from @noble/hashes,
 * constant-time comparison), seeds and recovery codes come from node's CSPRNG, recovery codes are
 * kept as SHA-256 hashes (a standard hash is enough for a random secret of at least 112 bits,
 * ASVS 6.5.2; a recovery code has 120).
 *
 * State lives in the account row (metadata/entities/account.json, private fields):
 *   totp_secret          the seed (base32); pending between setup and enable, while totp_enabled is false
 *   totp_enabled         on/off; totp_enrolled_at when it was turned on
 *   totp_last_step       the time step of the last accepted code: a code (and any older one) is accepted once
 *   totp_recovery_codes  JSON array of the hashes of the unused recovery codes
 * Every "use" is one conditional UPDATE (compare and set), so two processes presenting the same
 * code at the same moment cannot both succeed, on SQLite or PostgreSQL.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Queryable } from '../db/types.ts';

export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
/** RFC 6238's default, and the only algorithm every authenticator app supports */
export const TOTP_ALGORITHM = 'SHA1';
/** clock drift allowed between the server and the phone: one step either way */
export const TOTP_DRIFT_STEPS = 1;
/** 160-bit seeds (RFC 4226 section 4 recommends 160) */
export const SECRET_BYTES = 20;
export const RECOVERY_CODE_COUNT = 10;
/** 32 letters and digits without i, l, o, u: 5 bits a character; 24 characters = 120 bits */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstvwxyz0123456789';
const RECOVERY_LENGTH = 24;

/** A fresh seed, base32 (as authenticator apps take it by hand). */
export const newSecret = (): string => new Secret({ size: SECRET_BYTES }).base32;

const totpOf = (secret: string, issuer = '', label = 'OTP') =>
  new TOTP({ issuer, label, issuerInLabel: !!issuer, secret: Secret.fromBase32(secret), algorithm: TOTP_ALGORITHM, digits: TOTP_DIGITS, period: TOTP_PERIOD });

/** The otpauth:// URI an authenticator app reads from the QR code (issuer and account shown in the app). */
export const otpauthUri = (secret: string, issuer: string, account: string): string => totpOf(secret, issuer, account).toString();

/** The URI as a QR code, an SVG data: URL (the CSP allows img-src data:). */
export async function qrCodeDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** The time step of an instant (ms). */
export const timeStep = (now: number = Date.now()): number => TOTP.counter({ period: TOTP_PERIOD, timestamp: now });

/** Six digits (spaces allowed, as apps show "123 456"): a TOTP code; anything else may be a recovery code. */
export const isTotpShaped = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s+/g, ''));

/** The time step `code` belongs to, within the allowed drift around `now`, or null. */
export function matchingStep(secret: string, code: string, now: number = Date.now()): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = TOTP.validate({
    token,
    secret: Secret.fromBase32(secret),
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    timestamp: now,
    window: TOTP_DRIFT_STEPS,
  });
  return delta === null ? null : timeStep(now) + delta;
}

/** Ten fresh recovery codes, shown once as `abcd-efgh-jkmn-pqrs-tvwx-yz01`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    let s = '';
    for (let i = 0; i < RECOVERY_LENGTH; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return s.match(/.{4}/g)!.join('-');
  });
}

/** What the user typed, as it was made: case, separators and the look-alikes o/0, i/l/1 do not matter. */
export const normalizeRecoveryCode = (code: string): string =>
  code
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/o/g, '0')
    .replace(/[il]/g, '1');

export const hashRecoveryCode = (code: string): string => createHash('sha256').update(normalizeRecoveryCode(code)).digest('hex');

/** The index of the code's hash in `hashes`, or -1; every entry is compared, in constant time. */
export function findRecoveryCode(hashes: readonly string[], code: string): number {
  const normal = normalizeRecoveryCode(code);
  if (normal.length !== RECOVERY_LENGTH) return -1;
  const h = Buffer.from(hashRecoveryCode(normal), 'hex');
  let found = -1;
  hashes.forEach((x, i) => {
    const b = Buffer.from(x, 'hex');
    if (b.length === h.length && timingSafeEqual(b, h) && found < 0) found = i;
  });
  return found;
}

/* ---- the account's state ---- */

export interface MfaState {
  enabled: boolean;
  /** the seed: the enabled one, or a pending one (setup done, not enabled yet) */
  secret: string | null;
  enrolledAt: string | null;
  lastStep: number | null;
  /** the stored JSON (compare-and-set) and its hashes */
  recoveryRaw: string | null;
  recoveryHashes: string[];
}

export async function mfaState(q: Queryable, accountId: number): Promise<MfaState | undefined> {
  const row = await q.get<{
    enabled: number | boolean | null;
    secret: string | null;
    enrolledAt: string | null;
    lastStep: number | string | null;
    recovery: string | null;
  }>(
    `SELECT totp_enabled AS "enabled", totp_secret AS "secret", totp_enrolled_at AS "enrolledAt", totp_last_step AS "lastStep", totp_recovery_codes AS "recovery" FROM account WHERE id = ?`,
    [accountId],
  );
  if (!row) return undefined;
  let hashes: string[] = [];
  try {
    const parsed: unknown = row.recovery ? JSON.parse(row.recovery) : [];
    if (Array.isArray(parsed)) hashes = parsed.filter((x): x is string => typeof x === 'string');
  } catch {
    hashes = [];
  }
  return {
    enabled: !!row.enabled && !!row.secret,
    secret: row.secret,
    enrolledAt: row.enrolledAt,
    lastStep: row.lastStep === null ? null : Number(row.lastStep),
    recoveryRaw: row.recovery,
    recoveryHashes: hashes,
  };
}

/**
 * Accepts a TOTP code of an account with two-step verification on, once: the code's step must be
 * newer than the last accepted one, and recording it is the same statement as the check.
 */
export async function useTotpCode(q: Queryable, accountId: number, code: string, now: number = Date.now()): Promise<boolean> {
  const s = await mfaState(q, accountId);
  if (!s?.enabled || !s.secret) return false;
  const step = matchingStep(s.secret, code, now);
  if (step === null) return false;
  const r = await q.run(
    `UPDATE account SET totp_last_step = ? WHERE id = ? AND totp_enabled = ? AND totp_secret = ? AND (totp_last_step IS NULL OR totp_last_step < ?)`,
    [step, accountId, q.dialect.bool(true), s.secret, step],
  );
  return r.changes === 1;
}

/** Accepts one of the account's unused recovery codes, and crosses it off (compare-and-set on the list). */
export async function useRecoveryCode(q: Queryable, accountId: number, code: string): Promise<boolean> {
  // a concurrent use of another code of the account changes the list under us: read it again
  for (let attempt = 0; attempt < 5; attempt++) {
    const s = await mfaState(q, accountId);
    if (!s?.enabled || s.recoveryRaw === null) return false;
    const i = findRecoveryCode(s.recoveryHashes, code);
    if (i < 0) return false;
    const rest = JSON.stringify(s.recoveryHashes.filter((_, j) => j !== i));
    const r = await q.run(`UPDATE account SET totp_recovery_codes = ? WHERE id = ? AND totp_enabled = ? AND totp_recovery_codes = ?`, [
      rest,
      accountId,
      q.dialect.bool(true),
      s.recoveryRaw,
    ]);
    if (r.changes === 1) return true;
  }
  return false;
}

/** A second factor: a current TOTP code (six digits) or a recovery code. Which one was used, or null. */
export async function useSecondFactor(q: Queryable, accountId: number, code: string, now: number = Date.now()): Promise<'totp' | 'recovery' | null> {
  const c = code.trim();
  if (!c || c.length > 64) return null;
  if (isTotpShaped(c)) return (await useTotpCode(q, accountId, c, now)) ? 'totp' : null;
  return (await useRecoveryCode(q, accountId, c)) ? 'recovery' : null;
}
