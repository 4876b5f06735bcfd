/**
 * The database behind the browser tests' server (serve.ts), opened read-side by a spec to check
 * what the screens did: rows the UI cannot show, such as the private mail queue. serve.ts writes
 * where the data lives to a file named after the port, so parallel runs on other ports never mix.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type DbTarget } from '../../../server/db/open.ts';
import type { Db } from '../../../server/db/types.ts';

export const e2eDatabaseInfo = (port = Number(process.env.E2E_PORT ?? 3310)): string => join(tmpdir(), `portal-e2e-${port}.json`);

/** The server's database (SQLite file or PostgreSQL URL); close it when done. */
export function openE2eDatabase(): Promise<Db> {
  return openDb(JSON.parse(readFileSync(e2eDatabaseInfo(), 'utf8')) as DbTarget);
}
