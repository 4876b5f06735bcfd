/** Settings from the environment (README "Environment"), with the documented defaults. */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dbFile: string;
  seed: 'demo' | 'none';
  jwtSecret: string;
  filesDir: string;
}

/**
 * JWT_SECRET, or a secret generated once and kept beside the database (mode 600), so tokens stay
 * valid across restarts without anybody having to invent a secret.
 */
export function loadSecret(dbFile: string, fromEnv: string | undefined): string {
  if (fromEnv) {
    if (fromEnv.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    return fromEnv;
  }
  const file = join(dirname(dbFile), 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dbFile = resolve(env.PORTAL_DB ?? 'data/portal.db');
  const seed = env.PORTAL_SEED ?? 'demo';
  if (seed !== 'demo' && seed !== 'none') throw new Error(`PORTAL_SEED must be "demo" or "none", not "${seed}"`);
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  return { port, host: env.HOST ?? '127.0.0.1', dbFile, seed, jwtSecret: loadSecret(dbFile, env.JWT_SECRET), filesDir: join(dirname(dbFile), 'files') };
}
