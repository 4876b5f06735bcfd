/**
 * The database behind the browser tests' server (serve.ts), opened by a spec to check what the
 * screens did: rows the UI cannot show, such as the private mail queue. serve.ts writes where the
 * data lives to E2E_SERVER_INFO_FILE (named after the port, so runs on other ports never mix).
 */
import { readFileSync } from 'node:fs';
import { openDb } from '../../../server/db/open.ts';
import type { Db } from '../../../server/db/types.ts';
import { E2E_SERVER_INFO_FILE } from '../e2e-files.ts';

/** The server's database (SQLite file or PostgreSQL URL); close it when done. */
export function openE2eDatabase(): Promise<Db> {
  const info = JSON.parse(readFileSync(E2E_SERVER_INFO_FILE, 'utf8')) as { dbFile?: string; databaseUrl?: string };
  return openDb(info.databaseUrl ? { url: info.databaseUrl } : { file: info.dbFile! });
}
