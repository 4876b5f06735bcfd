/**
 * The server the browser tests talk to: built admin + API on one port, a fresh temporary database
 * with the demo data (cheap password hashing so test logins are fast, a high login rate limit so
 * the suite is not throttled). Started by playwright.config.ts (webServer). The database is a
 * temporary SQLite file, or the PostgreSQL database E2E_DATABASE_URL names (npm run test:e2e:pg,
 * through tests/support/with-postgres.ts); which one is written to a file beside the temporary
 * folders (pages/database.ts) for the specs that look into it.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp } from '../../server/app.ts';
import { seedDatabase } from '../../server/seed/index.ts';
import { metadata } from '../../server/generated/index.ts';
import { TEST_PARAMS } from '../../server/engine/passwords.ts';
import { e2eDatabaseInfo } from './pages/database.ts';

const dir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
const pgUrl = process.env.E2E_DATABASE_URL;
const app = await buildApp({
  ...(pgUrl ? { databaseUrl: pgUrl } : { dbFile: join(dir, 'portal.db'), filesDir: join(dir, 'files') }),
  jwtSecret: 'e2e-secret-0123456789-0123456789-0123456789',
  adminDir: resolve('admin/dist'),
  hashParams: TEST_PARAMS,
  loginRateLimit: 10_000,
  writesPerMinute: 100_000,
  accountAttemptsPerMinute: 10_000,
});
await seedDatabase(app.db, metadata, { hashParams: TEST_PARAMS });
// where the data is, for specs that check the database behind the screens (pages/database.ts)
writeFileSync(e2eDatabaseInfo(), JSON.stringify(pgUrl ? { url: pgUrl } : { file: join(dir, 'portal.db') }));
await app.listen({ port: Number(process.env.E2E_PORT ?? 3310), host: '127.0.0.1' });
