/**
 * Opens the database the configuration names: PostgreSQL when a `postgres://` URL is given
 * (DATABASE_URL), else the SQLite file (PORTAL_DB). Nothing outside server/db/ touches a driver.
 */
import type { Db } from './types.ts';
import { SqliteDb } from './sqlite.ts';
import { PostgresDb } from './postgres.ts';

export type DbTarget = { url: string; poolSize?: number } | { file: string };

export const isPostgresUrl = (s: string | undefined): s is string => !!s && /^postgres(ql)?:\/\//.test(s);

export async function openDb(target: DbTarget): Promise<Db> {
  if ('url' in target) {
    if (!isPostgresUrl(target.url)) throw new Error('DATABASE_URL must start with postgres:// or postgresql://');
    const db = new PostgresDb({ url: target.url, ...(target.poolSize ? { poolSize: target.poolSize } : {}) });
    // fail at start, with the driver's reason, rather than at the first request
    await db.get('SELECT 1 AS ok');
    return db;
  }
  return new SqliteDb(target.file);
}

/** Where the database is, for logs (a PostgreSQL URL without its password). */
export function describeTarget(target: DbTarget): string {
  if ('file' in target) return target.file;
  const u = new URL(target.url);
  if (u.password) u.password = '***';
  return u.toString();
}

export type { Db, Queryable } from './types.ts';
