/**
 * vitest globalSetup: one PostgreSQL server for the whole run (a throw-away cluster, or the one in
 * DATABASE_URL), shared by every worker; each test file then makes its own database on it with
 * createTestDatabase(). Starting one server per run instead of per file keeps `npm test` fast.
 *
 * Use it from a vitest project:  test: { globalSetup: ['tests/support/pg-global-setup.ts'] }
 * Then in a test:  inject('pgUrl')  or  process.env.PORTAL_TEST_PG_URL
 */
import type { TestProject } from 'vitest/node';
import { ensurePostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the test PostgreSQL server (its `postgres` database); see tests/support/postgres.ts */
    pgUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { url, stop } = await ensurePostgres();
  // Workers are forked after global setup, so they inherit this; helpers that are not running
  // inside a test context (plain modules, scripts) can read it without vitest's inject().
  process.env.PORTAL_TEST_PG_URL = url;
  project.provide('pgUrl', url);
  return async () => {
    await stop();
    delete process.env.PORTAL_TEST_PG_URL;
  };
}
