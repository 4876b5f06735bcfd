/**
 * Server test helpers: `build()` gives a Fastify app over a fresh temporary SQLite file with the
 * demo data (cheap password hashing: the full cost is tested once, in passwords.test.ts), and
 * `login()` returns a bearer token for a demo account.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../../server/app.ts';
import { seedDatabase } from '../../server/seed/index.ts';
import { metadata } from '../../server/generated/index.ts';
import { TEST_PARAMS } from '../../server/engine/passwords.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';

export interface TestApp {
  app: FastifyInstance;
  dir: string;
  close(): Promise<void>;
}

export async function build(opts: { seed?: boolean; scale?: number; app?: Partial<AppOptions>; dir?: string } = {}): Promise<TestApp> {
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'portal-test-'));
  const app = await buildApp({
    dbFile: join(dir, 'portal.db'),
    jwtSecret: 'test-secret-0123456789-0123456789-0123456789',
    filesDir: join(dir, 'files'),
    hashParams: TEST_PARAMS,
    loginRateLimit: 100_000,
    writesPerMinute: 100_000,
    accountAttemptsPerMinute: 100_000,
    ...opts.app,
  });
  if (opts.seed !== false) await seedDatabase(app.db, metadata, { hashParams: TEST_PARAMS, scale: opts.scale ?? 1 });
  return {
    app,
    dir,
    close: async () => {
      await app.close();
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function tokenResponse(app: FastifyInstance, username: string, password = DEMO_PASSWORD, warehouse = 'PDC01', lang?: string): Promise<LightMyRequestResponse> {
  const form = new URLSearchParams({ grant_type: 'password', username, password, warehouse, ...(lang ? { lang } : {}) });
  return app.inject({ method: 'POST', url: '/connect/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
}

export async function login(app: FastifyInstance, username: string, warehouse = 'PDC01', password = DEMO_PASSWORD): Promise<string> {
  const r = await tokenResponse(app, username, password, warehouse);
  if (r.statusCode !== 200) throw new Error(`login ${username} failed: ${r.statusCode} ${r.body}`);
  return r.json().access_token as string;
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
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`, 'utf8'));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
