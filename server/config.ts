/** Settings from the environment, checked against the schema of server/env-schema.ts (docs/environment.md lists it). */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import type { DbTarget } from './db/open.ts';
import type { Db } from './db/types.ts';
import { normalisePublicUrl } from './mail/public-url.ts';
import { ENV_VARIABLES, envJsonSchema } from './env-schema.ts';

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

/** The environment as the schema reads it: each variable coerced to its type, defaults applied. */
interface Env {
  PORT: number;
  HOST: string;
  PORTAL_DB: string;
  DATABASE_URL?: string;
  PORTAL_WORKERS: number;
  PORTAL_SEED: 'demo' | 'none';
  JWT_SECRET?: string;
  PORTAL_PUBLIC_URL?: string;
  SMTP_URL?: string;
  SMTP_ALLOW_PLAINTEXT: 'true' | 'false';
  PORTAL_MAIL_DIR?: string;
  PORTAL_MAIL_FROM?: string;
  PORTAL_OUTBOX: 'on' | 'off';
  PORTAL_OUTBOX_INTERVAL_MS: number;
  PORTAL_METRICS_TOKEN?: string;
  PORTAL_DRAIN_MS: number;
  PORTAL_TRUST_REQUEST_ID: 'on' | 'off';
}

let checkEnv: ValidateFunction | undefined;

/**
 * The environment checked against server/env-schema.ts: every variable it lists, an empty value
 * counting as unset. Throws one sentence per wrong variable, naming it and what it must be (and the
 * value it got, unless the variable is a secret).
 */
export function readEnv(env: NodeJS.ProcessEnv): Env {
  checkEnv ??= new Ajv({ allErrors: true, coerceTypes: true, useDefaults: true, strict: true }).compile(envJsonSchema());
  const values: Record<string, unknown> = {};
  for (const name of Object.keys(ENV_VARIABLES)) if (env[name]) values[name] = env[name];
  if (checkEnv(values)) return values as unknown as Env;
  const wrong = [...new Set((checkEnv.errors ?? []).map((e) => e.instancePath.slice(1)))];
  throw new Error(
    wrong
      .map((name) => {
        const v = ENV_VARIABLES[name]!;
        return `${name} must be ${v.expected}${v.secret ? '' : `, not "${env[name]}"`}`;
      })
      .join('; '),
  );
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = readEnv(env);
  const url = e.DATABASE_URL;
  const dbFile = resolve(e.PORTAL_DB);
  const database: DbTarget = url ? { url } : { file: dbFile };
  const { PORT: port, PORTAL_WORKERS: workers, PORTAL_SEED: seed } = e;
  const host = e.HOST;
  // links in mails never come from a request's Host header (it can be forged): configuration, or
  // for a development machine the address the server listens on
  const localHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const publicUrl = normalisePublicUrl(e.PORTAL_PUBLIC_URL || `http://${localHost}:${port}`);
  const smtpUrl = e.SMTP_URL;
  const metricsToken = e.PORTAL_METRICS_TOKEN;
  return {
    port,
    host,
    database,
    seed,
    jwtSecret: e.JWT_SECRET,
    filesDir: url ? null : join(dirname(dbFile), 'files'),
    workers,
    publicUrl,
    mail: {
      ...(smtpUrl ? { smtpUrl } : {}),
      ...(e.SMTP_ALLOW_PLAINTEXT === 'true' ? { smtpAllowPlaintext: true } : {}),
      ...(e.PORTAL_MAIL_DIR ? { dir: resolve(e.PORTAL_MAIL_DIR) } : {}),
      ...(e.PORTAL_MAIL_FROM ? { from: e.PORTAL_MAIL_FROM } : {}),
    },
    outbox: { enabled: e.PORTAL_OUTBOX === 'on', intervalMs: e.PORTAL_OUTBOX_INTERVAL_MS },
    ops: { drainMs: e.PORTAL_DRAIN_MS, trustRequestId: e.PORTAL_TRUST_REQUEST_ID === 'on', ...(metricsToken ? { metricsToken } : {}) },
  };
}
