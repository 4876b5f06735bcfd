/**
 * Seeded databases made once per test run and copied for each test app (issue 34): a server test
 * file used to migrate and seed a fresh database in its beforeAll, about 1 s on SQLite and 3.5 s on
 * PostgreSQL, 70-odd times per backend. Now the run's global setup
 * (tests/support/template-global-setup.ts) migrates and seeds one database per demo-data scale the
 * tests ask for, exactly as `build()` would, and `build()` starts from a copy: a file copy on
 * SQLite (the database file and the stored files beside it), `CREATE DATABASE ... TEMPLATE` on
 * PostgreSQL. The copy is what a fresh seed writes, so the tests cannot tell the difference; a test
 * that seeds by itself (`seed: false`, another scale, its own database options) still does.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/app.ts';
import { seedDatabase } from '../../server/seed/index.ts';
import { metadata } from '../../server/generated/index.ts';
import { TEST_PARAMS } from '../../server/engine/passwords.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { testLogger } from '../support/log-grep.ts';

export type Backend = 'sqlite' | 'postgres';

/** The demo-data scales templates are made for: what build() and serverSuite() ask for in the tests. */
export const TEMPLATE_SCALES = [0, 1] as const;

/** The token secret of every test app. */
export const TEST_SECRET = 'test-secret-0123456789-0123456789-0123456789';

/** Where a backend's templates are: scale -> a folder (SQLite) or a database name (PostgreSQL). */
type Locations = Record<string, string>;

/** The environment variable that hands the templates to the test workers (forked after the global setup). */
export const templateEnvName = (backend: Backend): string => `PORTAL_TEST_TEMPLATES_${backend.toUpperCase()}`;

/** The template for a scale on this backend, when the run made one. */
export function templateFor(backend: Backend, scale: number): string | undefined {
  const raw = process.env[templateEnvName(backend)];
  return raw ? (JSON.parse(raw) as Locations)[String(scale)] : undefined;
}

/** A SQLite template's folder copied into a test's own folder: the database file and the stored files. */
export function copySqliteTemplate(templateDir: string, dir: string): void {
  cpSync(templateDir, dir, { recursive: true });
}

/** Migrates and seeds one database the way build() does, then closes it. */
async function seedOne(database: { dbFile: string; filesDir: string } | { databaseUrl: string }, scale: number): Promise<void> {
  const app = await buildApp({
    ...database,
    jwtSecret: TEST_SECRET,
    hashParams: TEST_PARAMS,
    ...(process.env.PORTAL_TEST_LOG ? { logger: testLogger() } : {}),
  });
  try {
    await seedDatabase(app.db, metadata, { hashParams: TEST_PARAMS, scale, files: app.fileStore });
  } finally {
    await app.close();
  }
}

/** Makes the templates of every scale on one backend; `remove` deletes them. */
export async function makeTemplates(backend: Backend, pgServerUrl?: string): Promise<{ locations: Locations; remove(): Promise<void> }> {
  const locations: Locations = {};
  const removals: (() => Promise<void>)[] = [];
  for (const scale of TEMPLATE_SCALES) {
    if (backend === 'postgres') {
      if (!pgServerUrl) throw new Error('makeTemplates: PostgreSQL templates need the test server (pg-global-setup.ts first)');
      const db = await createTestDatabase(pgServerUrl, `portal_template_${scale}`);
      await seedOne({ databaseUrl: db.url }, scale);
      locations[String(scale)] = db.name;
      removals.push(db.drop);
    } else {
      const dir = mkdtempSync(join(tmpdir(), `portal-template-${scale}-`));
      await seedOne({ dbFile: join(dir, 'portal.db'), filesDir: join(dir, 'files') }, scale);
      locations[String(scale)] = dir;
      removals.push(async () => rmSync(dir, { recursive: true, force: true }));
    }
  }
  return { locations, remove: async () => void (await Promise.all(removals.map((r) => r()))) };
}
