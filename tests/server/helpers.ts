/**
 * Server test helpers: `build()` gives a Fastify app over a fresh temporary database with the
 * demo data (cheap password hashing: the full cost is tested once, in passwords.test.ts), and
 * `login()` returns a bearer token for a demo account.
 *
 * The backend is PORTAL_TEST_BACKEND: `sqlite` (default: a temporary SQLite file) or `postgres`
 * (a fresh database on the server PORTAL_TEST_PG_URL names, which tests/support/pg-global-setup.ts
 * starts for the vitest project "server-pg"). The same test files run on both.
 */
import { afterAll, beforeAll } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, targetOf, type AppOptions } from '../../server/app.ts';
import { seedDatabase } from '../../server/seed/index.ts';
import { metadata, migrations, tables } from '../../server/generated/index.ts';
import { openDb } from '../../server/db/open.ts';
import { migrate } from '../../server/db/migrate.ts';
import type { Db } from '../../server/db/types.ts';
import { TEST_PARAMS } from '../../server/engine/passwords.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';
import { feeItemTemplate } from '../../server/handlers/fee-import.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { copySqliteTemplate, templateFor, TEST_SECRET, type Backend } from './seeded-template.ts';
import { testLogger } from '../support/log-grep.ts';

export type { Backend };
export const BACKEND: Backend = process.env.PORTAL_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';

/** The PostgreSQL server the tests of the "server-pg" project use. */
export function pgServerUrl(): string {
  const url = process.env.PORTAL_TEST_PG_URL;
  if (!url) throw new Error('PORTAL_TEST_PG_URL is not set: run the PostgreSQL tests through vitest (project server-pg), which starts a server');
  return url;
}

/**
 * Where a test's data lives: a SQLite file in `dir`, or a fresh PostgreSQL database (dropped by
 * `drop`). Tests that start server processes of their own pass these options on.
 */
export async function testDatabase(
  dir: string,
  backend: Backend = BACKEND,
  /** a seeded template of this run to start from (seeded-template.ts templateFor), else an empty database */
  template?: string,
): Promise<{ options: Pick<AppOptions, 'dbFile' | 'databaseUrl' | 'filesDir'>; drop(): Promise<void> }> {
  if (backend === 'postgres') {
    const t = await createTestDatabase(pgServerUrl(), 'portal_test', template);
    return { options: { databaseUrl: t.url }, drop: t.drop };
  }
  if (template) copySqliteTemplate(template, dir);
  return { options: { dbFile: join(dir, 'portal.db'), filesDir: join(dir, 'files') }, drop: async () => undefined };
}

/**
 * A demo database this process prepares before any server process runs, as main.ts's primary does:
 * a temporary folder, a fresh database on the test backend, migrated and seeded. Its data is what
 * several server processes then share (`options`); `cleanUp` ends it.
 */
export async function preparedDatabase(prefix: string): Promise<{ dir: string; db: Db; options: TestApp['database']; drop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const template = templateFor(BACKEND, 1);
  const database = await testDatabase(dir, BACKEND, template);
  const db = await openDb(targetOf(database.options));
  await migrate(db, tables[db.kind], migrations);
  if (!template) await seedDatabase(db, metadata, { hashParams: TEST_PARAMS });
  return { dir, db, options: database.options, drop: database.drop };
}

/** Runs every clean-up step even when an earlier one fails (no server, connection or database is left behind), then throws the first error. */
export async function cleanUp(steps: (() => Promise<unknown>)[]): Promise<void> {
  const errors: unknown[] = [];
  for (const step of steps) await step().catch((err: unknown) => errors.push(err));
  if (errors.length) throw errors[0];
}

export interface TestApp {
  app: FastifyInstance;
  dir: string;
  /** where its data lives (a second app over the same data: build({ same: this })) */
  database: Pick<AppOptions, 'dbFile' | 'databaseUrl' | 'filesDir'>;
  close(): Promise<void>;
}

export { TEST_SECRET };

/**
 * A test app. `same`: over the data of another test app (a restart, other options); closing it
 * leaves that data to the other app's close().
 */
export type BuildOptions = { seed?: boolean; scale?: number; app?: Partial<AppOptions>; same?: TestApp };

/**
 * The run's seeded template that a new test app may start from instead of seeding: when it is to be
 * seeded at a scale the run made a template of, over a database of its own (not `same`, no database
 * options of the test's), and the run made templates (tests/support/template-global-setup.ts).
 */
function templateOf(opts: BuildOptions): string | undefined {
  const own = opts.app && ('dbFile' in opts.app || 'databaseUrl' in opts.app || 'filesDir' in opts.app || 'db' in opts.app || 'migrate' in opts.app);
  if (opts.same || opts.seed === false || own) return undefined;
  return templateFor(BACKEND, opts.scale ?? 1);
}

export async function build(opts: BuildOptions = {}): Promise<TestApp> {
  const dir = opts.same?.dir ?? mkdtempSync(join(tmpdir(), 'portal-test-'));
  const template = templateOf(opts);
  const database = opts.same ? { options: opts.same.database, drop: async () => undefined } : await testDatabase(dir, BACKEND, template);
  const app = await buildApp({
    ...database.options,
    jwtSecret: TEST_SECRET,
    hashParams: TEST_PARAMS,
    loginRateLimit: 100_000,
    writesPerMinute: 100_000,
    accountAttemptsPerMinute: 100_000,
    // PORTAL_TEST_LOG=FILE: every test app logs there, for the log grep (tests/support/log-grep.ts)
    ...(process.env.PORTAL_TEST_LOG ? { logger: testLogger() } : {}),
    // a copy of a template has the template's schema, which the same start-up code migrated at the
    // run's start (seeded-template.ts seedOne); migrating it again finds nothing to do and cost about
    // 220 ms a test app on PostgreSQL (issue 34). The start-up migration is tested where it is the
    // subject (migrate, startup, chart-sums, trigram tests: their apps seed or name their own data).
    ...(template ? { migrate: false } : {}),
    ...opts.app,
  });
  // a copy of a template holds what this seed would write (seeded-template.ts)
  if (opts.seed !== false && !template) await seedDatabase(app.db, metadata, { hashParams: TEST_PARAMS, scale: opts.scale ?? 1, files: app.fileStore });
  return {
    app,
    dir,
    database: database.options,
    close: async () => {
      await app.close();
      await database.drop();
      if (!opts.same) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function tokenResponse(
  app: FastifyInstance,
  username: string,
  password = DEMO_PASSWORD,
  warehouse = 'PDC01',
  lang?: string,
): Promise<LightMyRequestResponse> {
  const form = new URLSearchParams({ grant_type: 'password', username, password, warehouse, ...(lang ? { lang } : {}) });
  return app.inject({ method: 'POST', url: '/connect/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
}

export async function login(app: FastifyInstance, username: string, warehouse = 'PDC01', password = DEMO_PASSWORD): Promise<string> {
  const r = await tokenResponse(app, username, password, warehouse);
  if (r.statusCode !== 200) throw new Error(`login ${username} failed: ${r.statusCode} ${r.body}`);
  return r.json().access_token as string;
}

/**
 * Bearer tokens for demo accounts, in the order named (`'sup02@PDC02'` logs in at another warehouse
 * than PDC01): the start most server test files share,
 *   beforeAll(async () => {
 *     t = await build();
 *     [admin, sup] = await loginAll(t.app, ['supadmin', 'sup01']);
 *   });
 */
export async function loginAll(app: FastifyInstance, accounts: readonly string[]): Promise<string[]> {
  const tokens: string[] = [];
  for (const account of accounts) {
    const [username, warehouse] = account.split('@');
    tokens.push(await login(app, username, warehouse));
  }
  return tokens;
}

/** A test app for a file's tests with the tokens of the accounts it signs in (serverSuite). */
export interface ServerSuite<K extends string = string> extends TestApp {
  /** bearer tokens by the names given to serverSuite */
  tokens: Readonly<Record<K, string>>;
  /** a request as `token` in `lang` (accept-language; en-US unless named), with a JSON payload if given */
  request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown, lang?: string): Promise<LightMyRequestResponse>;
}

/**
 * The start most server test files share, in one line: a test app on the backend under test built
 * before the file's tests (beforeAll) and closed after them (afterAll), and demo accounts signed
 * in, each by a name of the test's (`{ sup: 'sup02@PDC02' }`, as loginAll names accounts; a list
 * names each by itself). Its fields are there once the tests run:
 *   const t = serverSuite({ staff: 'staff01', sup: 'sup01' }, { scale: 0 });
 *   it('...', async () => expect((await t.request('GET', '/api/orders', t.tokens.sup)).statusCode).toBe(200));
 */
export function serverSuite<K extends string>(accounts: Readonly<Record<K, string>> | readonly K[], opts: BuildOptions = {}): ServerSuite<K> {
  const named: [K, string][] = Array.isArray(accounts) ? accounts.map((a: K) => [a, a]) : (Object.entries(accounts) as [K, string][]);
  let built: TestApp | undefined;
  const tokens = {} as Record<K, string>;
  beforeAll(async () => {
    built = await build(opts);
    const signedIn = await loginAll(
      built.app,
      named.map(([, account]) => account),
    );
    named.forEach(([name], i) => (tokens[name] = signedIn[i]));
  });
  afterAll(() => built?.close());
  const the = (): TestApp => {
    if (!built) throw new Error('serverSuite: the test app exists only while the tests run (beforeAll builds it)');
    return built;
  };
  return {
    get app() {
      return the().app;
    },
    get dir() {
      return the().dir;
    },
    get database() {
      return the().database;
    },
    close: () => the().close(),
    tokens,
    request: (method, url, token, payload, lang = 'en-US') =>
      the().app.inject({
        method,
        url,
        headers: { ...bearer(token), 'accept-language': lang },
        ...(payload !== undefined ? { payload: payload as object } : {}),
      }),
  };
}

/** The storage names of every stored file (a directory beside SQLite, the _files table on PostgreSQL). */
export async function storedFiles(t: TestApp): Promise<string[]> {
  if (t.app.fileStore.kind === 'directory') return readdirSync(join(t.dir, 'files'));
  return (await t.app.db.all<{ name: string }>(`SELECT name FROM _files ORDER BY name`)).map((r) => r.name);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** ra-data-simple-rest style list URL */
export function listUrl(resource: string, q: { sort?: [string, string]; range?: [number, number]; filter?: Record<string, unknown> } = {}): string {
  const p = new URLSearchParams();
  if (q.sort) p.set('sort', JSON.stringify(q.sort));
  if (q.range) p.set('range', JSON.stringify(q.range));
  if (q.filter) p.set('filter', JSON.stringify(q.filter));
  const s = p.toString();
  return `/api/${resource}${s ? `?${s}` : ''}`;
}

/** code of a code-table key, from the compiled metadata */
export const code = (table: string, key: string): string => {
  const v = metadata.codeTables[table].values.find((x) => x.key === key);
  if (!v) throw new Error(`no key ${key} in ${table}`);
  return v.code;
};

/** A multipart body as a browser would send it. */
export function multipart(fields: Record<string, string>, file?: { name: string; data: Buffer; type?: string }) {
  const boundary = '----portal' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
        'utf8',
      ),
    );
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

/** Uploads `rows` to the fee import as a workbook made from its template (the form's and the API's one way in). */
export function importFeeRows(
  app: FastifyInstance,
  token: string,
  rows: Parameters<typeof feeItemTemplate>[2],
  lang = 'en-US',
): Promise<LightMyRequestResponse> {
  const m = multipart({}, { name: 'fees.xlsx', data: feeItemTemplate(metadata, 'en-US', rows).body });
  return app.inject({
    method: 'POST',
    url: '/api/consulting-fee-items/actions/import',
    headers: { ...bearer(token), ...m.headers, 'accept-language': lang },
    payload: m.payload,
  });
}
