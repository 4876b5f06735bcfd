/**
 * Password hashing with scrypt at the OWASP ASVS 5.0 parameters (N=2^17, r=8, p=1: 128 MiB),
 * on the libuv pool so the event loop stays free. The parameters are stored in the hash, so a
 * stronger setting later only needs a rehash on the next successful login (needsRehash).
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}
export const PRODUCTION_PARAMS: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };
/** Only for test databases built by the test helpers: hashing at full cost would make every test login take half a second. */
export const TEST_PARAMS: ScryptParams = { N: 2 ** 10, r: 8, p: 1 };

const KEY_LEN = 32;

function scrypt(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, KEY_LEN, { ...params, maxmem: 256 * params.N * params.r + 16 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string, params: ScryptParams = PRODUCTION_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

function parse(hash: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const m = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([^$]+)\$([^$]+)$/.exec(hash);
  if (!m) return null;
  return { params: { N: Number(m[1]), r: Number(m[2]), p: Number(m[3]) }, salt: Buffer.from(m[4], 'base64'), key: Buffer.from(m[5], 'base64') };
}

/**
 * A hash to verify against when the user does not exist, so timing does not tell. The promise is
 * kept (not its result), so concurrent first calls share one production-cost hash.
 */
let dummyHash: Promise<string> | null = null;

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword('dummy-password-0', PRODUCTION_PARAMS);
    await verifyPassword(password, await dummyHash);
    return false;
  }
  const parsed = parse(hash);
  if (!parsed) return false;
  const key = await scrypt(password, parsed.salt, parsed.params);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

export function needsRehash(hash: string, params: ScryptParams = PRODUCTION_PARAMS): boolean {
  const parsed = parse(hash);
  return !parsed || parsed.params.N < params.N || parsed.params.r < params.r || parsed.params.p < params.p;
}
