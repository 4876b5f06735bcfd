/**
 * Files the e2e server (serve.ts) and the browser specs share, named after the port so suites on
 * other ports never meet: the outbox's endpoints file (a spec writes it to point the interfaces at
 * a receiver it started; the server's dispatcher reads it again when it changes) and where the
 * server's database is (a spec reads what the browser did from it).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { e2ePort } from './e2e-port.ts';

const port = e2ePort();

/** PORTAL_INTERFACES_FILE of the e2e server */
export const E2E_INTERFACES_FILE = join(tmpdir(), `portal-e2e-${port}-interfaces.json`);
/** { dbFile } or { databaseUrl } of the e2e server, written when it starts */
export const E2E_SERVER_INFO_FILE = join(tmpdir(), `portal-e2e-${port}-server.json`);
/** the token secret of the e2e server, shared by a second server process over its database (second-server.ts) */
export const E2E_JWT_SECRET = 'e2e-secret-0123456789-0123456789-0123456789';
