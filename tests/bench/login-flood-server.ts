/**
 * The login-flood bench's server (tests/bench/login-flood.ts): the real application over a fresh
 * SQLite file or PostgreSQL database with the demo accounts, listening on 127.0.0.1; their
 * passwords are at production cost once the bench's warm-up has logged each in (the point is the
 * cost of a hash). Per-account limits are raised (the normal logins
 * repeat a few accounts); the per-address limit stays (the flood rotates addresses, as the probe's
 * did). Environment: FLOOD_DB (SQLite file) or FLOOD_DATABASE_URL. IPC: -> { type: 'ready', port }.
 */
import { buildApp } from '../../server/app.ts';
import { seedBase } from '../../server/seed/base.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { metadata } from '../../server/generated/index.ts';
import { TEST_PARAMS } from '../../server/engine/passwords.ts';

const url = process.env.FLOOD_DATABASE_URL;
const app = await buildApp({
  ...(url ? { databaseUrl: url } : { dbFile: process.env.FLOOD_DB! }),
  jwtSecret: 'bench-secret-0123456789-0123456789-0123456789',
  accountAttemptsPerMinute: 1_000_000,
});
// the accounts and warehouses only, with cheap hashes (hashing every seeded account at production cost takes minutes on
// a loaded machine): the first login of each account rehashes its password at production cost
// (server/routes/connect.ts), and the bench's warm-up logs each one in before measuring
const w = await RowWriter.open(app.db, metadata, new Date().toISOString());
await seedBase(w, metadata, TEST_PARAMS);
await w.close();
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.send!({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 });
process.on('message', (m: { type: string }) => {
  if (m.type === 'exit') void app.close().then(() => process.exit(0));
});
