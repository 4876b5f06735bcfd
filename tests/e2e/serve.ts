/**
 * The server the browser tests talk to: built admin + API on one port, a fresh temporary database
 * with the demo data (cheap password hashing so test logins are fast, a high login rate limit so
 * the suite is not throttled). Started by playwright.config.ts (webServer). The database is a
 * temporary SQLite file, or the PostgreSQL database E2E_DATABASE_URL names (npm run test:e2e:pg,
 * through tests/support/with-postgres.ts); which one is written to a file beside the temporary
 * folders (e2e-files.ts, read by pages/database.ts) for the specs that look into it. Mail goes over SMTP to a real SMTP
 * server started here, which keeps what it receives in the inbox folder of tests/e2e/inbox.ts (the
 * specs read it); the mail flows' own accounts come from mail-fixtures.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildApp } from '../../server/app.ts';
import { seedDatabase } from '../../server/seed/index.ts';
import { metadata } from '../../server/generated/index.ts';
import { TEST_PARAMS } from '../../server/engine/passwords.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { inboxDir } from './inbox.ts';
import { addMailAccounts } from './mail-fixtures.ts';
import { E2E_INTERFACES_FILE, E2E_JWT_SECRET, E2E_SERVER_INFO_FILE } from './e2e-files.ts';
import { e2ePort } from './e2e-port.ts';

const port = e2ePort();
const dir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
const pgUrl = process.env.E2E_DATABASE_URL;
// the mailbox: a real SMTP server the portal sends to, each mail kept as an .eml file for the specs
const inbox = inboxDir(port);
rmSync(inbox, { recursive: true, force: true });
mkdirSync(inbox, { recursive: true });
let received = 0;
const smtp = await startSmtpServer({ onMessage: (m) => writeFileSync(join(inbox, `${String(++received).padStart(5, '0')}.eml`), m.raw) });
const database = pgUrl ? { databaseUrl: pgUrl } : { dbFile: join(dir, 'portal.db'), filesDir: join(dir, 'files') };
// the outbox runs as in production; its interfaces have no endpoint until a spec writes the file
rmSync(E2E_INTERFACES_FILE, { force: true });
writeFileSync(E2E_SERVER_INFO_FILE, JSON.stringify(database));
const app = await buildApp({
  ...database,
  outbox: { enabled: true, intervalMs: 250, interfacesFile: E2E_INTERFACES_FILE, env: {} },
  jwtSecret: E2E_JWT_SECRET,
  adminDir: resolve('admin/dist'),
  hashParams: TEST_PARAMS,
  loginRateLimit: 10_000,
  writesPerMinute: 100_000,
  accountAttemptsPerMinute: 10_000,
  // the sender loop runs as in production, polling often so a spec waits little for its mail
  mail: { smtpUrl: smtp.url, loop: true, pollMs: 250 },
  publicUrl: `http://127.0.0.1:${port}`,
});
await seedDatabase(app.db, metadata, { hashParams: TEST_PARAMS, files: app.fileStore });
await addMailAccounts(app.db, metadata, TEST_PARAMS);
app.addHook('onClose', () => smtp.close());
await app.listen({ port, host: '127.0.0.1' });
