/** Settings from the environment (docs/environment.md), with the documented defaults. */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { isPostgresUrl, type DbTarget } from './db/open.ts';
import type { Db } from './db/types.ts';
import { normalisePublicUrl } from './mail/public-url.ts';

export interface Config {
  port: number;
  host: string;
  /** DATABASE_URL (PostgreSQL) when set, else PORTAL_DB (SQLite) */
  database: DbTarget;
  seed: 'demo' | 'none';
  /** JWT_SECRET when set; otherwise resolveSecret() finds or makes one */
  jwtSecret: string | undefined;
  /** uploaded files beside the SQLite file; null on PostgreSQL (files live in the database) */
  filesDir: string | null;
  /** PORTAL_WORKERS: server processes on the one port (default 1) */
  workers: number;
  /** the portal's address as users reach it, for links in mails (PORTAL_PUBLIC_URL) */
  publicUrl: string;
  /** e-mail: SMTP_URL, SMTP_ALLOW_PLAINTEXT, PORTAL_MAIL_DIR (.eml files without SMTP), PORTAL_MAIL_FROM */
  mail: { smtpUrl?: string; smtpAllowPlaintext?: boolean; dir?: string; from?: string };
  /** the outbox dispatcher: PORTAL_OUTBOX (on unless "off"), PORTAL_OUTBOX_INTERVAL_MS (default 2000); endpoints: server/outbox/endpoints.ts */
  outbox: { enabled: boolean; intervalMs: number };
  /** operations (docs/operations.md): PORTAL_DRAIN_MS, not-ready time before a stopping process closes (default 3000); PORTAL_METRICS_TOKEN, the bearer token of GET /metrics (unset: no metrics); PORTAL_TRUST_REQUEST_ID=on, take the proxy's X-Request-Id */
  ops: { drainMs: number; metricsToken?: string; trustRequestId: boolean };
}

function checkSecret(s: string): string {
  if (s.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
  return s;
}

/**
 * The token-signing secret every process shares: JWT_SECRET; else, on SQLite, one generated once
 * and kept beside the database (mode 600); on PostgreSQL, one generated once and kept in the
 * database (_settings), so processes on other machines find the same one. Two processes making
 * one at the same moment agree on the first that was stored.
 */
export async function resolveSecret(config: Pick<Config, 'jwtSecret' | 'database'>, db: Db): Promise<string> {
  if (config.jwtSecret) return checkSecret(config.jwtSecret);
  if ('file' in config.database) {
    const file = join(dirname(config.database.file), 'jwt-secret');
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return readFileSync(file, 'utf8').trim();
  }
  await db.run(`INSERT INTO _settings (name, value) VALUES ('jwt_secret', ?) ON CONFLICT (name) DO NOTHING`, [randomBytes(48).toString('base64url')]);
  return (await db.get<{ value: string }>(`SELECT value FROM _settings WHERE name = 'jwt_secret'`))!.value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const url = env.DATABASE_URL;
  if (url && !isPostgresUrl(url)) throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
  const dbFile = resolve(env.PORTAL_DB ?? 'data/portal.db');
  const database: DbTarget = url ? { url } : { file: dbFile };
  const seed = env.PORTAL_SEED ?? 'demo';
  if (seed !== 'demo' && seed !== 'none') throw new Error(`PORTAL_SEED must be "demo" or "none", not "${seed}"`);
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  const workers = Number(env.PORTAL_WORKERS ?? 1);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64)
    throw new Error(`PORTAL_WORKERS must be a whole number from 1 to 64, not "${env.PORTAL_WORKERS}"`);
  const host = env.HOST ?? '127.0.0.1';
  // links in mails never come from a request's Host header (it can be forged): configuration, or
  // for a development machine the address the server listens on
  const localHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const publicUrl = normalisePublicUrl(env.PORTAL_PUBLIC_URL || `http://${localHost}:${port}`);
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
  const plaintext = env.SMTP_ALLOW_PLAINTEXT ?? 'false';
  if (plaintext !== 'true' && plaintext !== 'false') throw new Error(`SMTP_ALLOW_PLAINTEXT must be "true" or "false", not "${plaintext}"`);
  const outboxSwitch = env.PORTAL_OUTBOX ?? 'on';
  if (outboxSwitch !== 'on' && outboxSwitch !== 'off') throw new Error(`PORTAL_OUTBOX must be "on" or "off", not "${env.PORTAL_OUTBOX}"`);
  const intervalMs = Number(env.PORTAL_OUTBOX_INTERVAL_MS ?? 2000);
  if (!Number.isInteger(intervalMs) || intervalMs < 50 || intervalMs > 3_600_000)
    throw new Error(`PORTAL_OUTBOX_INTERVAL_MS must be a whole number of milliseconds from 50 to 3600000, not "${env.PORTAL_OUTBOX_INTERVAL_MS}"`);
  const drainMs = Number(env.PORTAL_DRAIN_MS ?? 3000);
  if (!Number.isInteger(drainMs) || drainMs < 0 || drainMs > 120_000)
    throw new Error(`PORTAL_DRAIN_MS must be a whole number of milliseconds from 0 to 120000, not "${env.PORTAL_DRAIN_MS}"`);
  const metricsToken = env.PORTAL_METRICS_TOKEN || undefined;
  if (metricsToken && metricsToken.length < 16) throw new Error('PORTAL_METRICS_TOKEN must be at least 16 characters');
  const trust = env.PORTAL_TRUST_REQUEST_ID ?? 'off';
  if (trust !== 'on' && trust !== 'off') throw new Error(`PORTAL_TRUST_REQUEST_ID must be "on" or "off", not "${trust}"`);
  return {
    port,
    host,
    database,
    seed,
    jwtSecret: env.JWT_SECRET ? checkSecret(env.JWT_SECRET) : undefined,
    filesDir: url ? null : join(dirname(dbFile), 'files'),
    workers,
    publicUrl,
    mail: {
      ...(smtpUrl ? { smtpUrl } : {}),
      ...(plaintext === 'true' ? { smtpAllowPlaintext: true } : {}),
      ...(env.PORTAL_MAIL_DIR ? { dir: resolve(env.PORTAL_MAIL_DIR) } : {}),
      ...(env.PORTAL_MAIL_FROM ? { from: env.PORTAL_MAIL_FROM } : {}),
    },
    outbox: { enabled: outboxSwitch === 'on', intervalMs },
    ops: { drainMs, trustRequestId: trust === 'on', ...(metricsToken ? { metricsToken } : {}) },
  };
}
