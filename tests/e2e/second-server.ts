/**
 * A second server process over the e2e server's database (the one serve.ts started and described in
 * E2E_SERVER_INFO_FILE), on the port SECOND_PORT names: what PORTAL_WORKERS does on one port, made
 * visible, so that a spec can write through one process and watch a page served by the other
 * (home.spec.ts: the bell's live delivery across processes). No seeding, no outbox or mail loop: the
 * first server does those. Started and stopped by the spec (pages/second-server.ts).
 */
import { readFileSync } from 'node:fs';
import { buildApp } from '../../server/app.ts';
import { TEST_PARAMS } from '../../server/engine/passwords.ts';
import { E2E_JWT_SECRET, E2E_SERVER_INFO_FILE } from './e2e-files.ts';

const port = Number(process.env.SECOND_PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error('SECOND_PORT: the port of the second server');
const database = JSON.parse(readFileSync(E2E_SERVER_INFO_FILE, 'utf8')) as { dbFile: string; filesDir: string } | { databaseUrl: string };
const app = await buildApp({
  ...database,
  jwtSecret: E2E_JWT_SECRET,
  hashParams: TEST_PARAMS,
  loginRateLimit: 10_000,
  writesPerMinute: 100_000,
  accountAttemptsPerMinute: 10_000,
  publicUrl: `http://127.0.0.1:${port}`,
});
await app.listen({ port, host: '127.0.0.1' });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
