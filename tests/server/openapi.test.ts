/**
 * GET /api/openapi.json: an OpenAPI 3.1 document that covers every route the server registers
 * (the app is built as `npm start` builds it, with a built admin folder), with the JSON Schemas of
 * the validator as bodies and answers, every filter key and sort field of every list, every
 * action, upload, download and export the metadata declares; and the page that shows it, served
 * under the Content-Security-Policy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metadata, schemas } from '../../server/generated/index.ts';
import { createAjv } from '../../codegen/runtime/validation.ts';
import { isApiRoute } from '../../server/openapi/document.ts';
import { bearer, build, login, type TestApp } from './helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let doc: Json;
let adminDir: string;
const adminFiles = ['index.html', 'assets/app-1234.js'];

beforeAll(async () => {
  // a built admin, so that its static routes are registered as in production
  const dir = (adminDir = mkdtempSync(join(tmpdir(), 'openapi-admin-')));
  mkdirSync(join(dir, 'assets'), { recursive: true });
  for (const f of adminFiles) writeFileSync(join(dir, f), f.endsWith('.html') ? '<!doctype html><title>admin</title>' : 'export {}');
  t = await build({ app: { adminDir: dir } });
  const r = await t.app.inject({ method: 'GET', url: '/api/openapi.json', headers: bearer(await login(t.app, 'sup01')) });
  expect(r.statusCode).toBe(200);
  doc = r.json();
});
afterAll(async () => {
  await t.close();
  rmSync(adminDir, { recursive: true, force: true });
});

const ops = () =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, m]) =>
    Object.entries(m).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
const fastifyUrl = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
const opOf = (method: string, url: string): Json | undefined => doc.paths[url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')]?.[method.toLowerCase()];

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 about this metadata, for logged-in callers only', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(metadata.hash);
    expect((await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(401);
  });

  it("documents every route the server registers; what is not in it is the admin's static files", () => {
    const routes = t.app.registeredRoutes.filter((r) => r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(150);
    const missing: string[] = [];
    for (const r of routes) {
      if (isApiRoute(r.url)) {
        if (!opOf(r.method, r.url)) missing.push(`${r.method} ${r.url}`);
      } else expect(['/', ...adminFiles.map((f) => `/${f}`)], `${r.method} ${r.url} is neither API nor an admin file`).toContain(r.url);
    }
    expect(missing).toEqual([]);
    // and nothing more: every documented operation is a route Fastify really has
    for (const { path, method } of ops()) expect(t.app.hasRoute({ method: method as 'GET', url: fastifyUrl(path) }), `${method} ${path}`).toBe(true);
    expect(ops().length).toBe(new Set(routes.filter((r) => isApiRoute(r.url)).map((r) => `${r.method} ${r.url}`)).size);
  });

  it('every entity: list with its sort fields and filter keys, get, create, update, delete, export; files: upload and download', () => {
    for (const e of Object.values(metadata.entities)) {
      const base = `/api/${e.resource}`;
      const list = opOf('GET', base)!;
      expect(list, e.resource).toBeDefined();
      const param = (n: string) => list.parameters.find((p: Json) => p.name === n).content['application/json'].schema;
      const sortable = param('sort').prefixItems[0].enum as string[];
      for (const n of e.fieldOrder) if (e.fields[n].sort && !e.fields[n].private) expect(sortable, `${e.resource} sort ${n}`).toContain(n);
      const keys = Object.keys(param('filter').properties);
      for (const n of e.fieldOrder) {
        const f = e.fields[n];
        if (f.private) continue;
        if (f.filter.includes('eq') || f.filter.includes('in')) expect(keys, `${e.resource} filter ${n}`).toContain(n);
        if (f.filter.includes('contains')) expect(keys).toContain(`${n}_like`);
        if (f.filter.includes('range')) expect(keys).toEqual(expect.arrayContaining([`${n}_gte`, `${n}_lte`]));
      }
      for (const [m, u] of [
        ['GET', `${base}/:id`],
        ['POST', base],
        ['PUT', `${base}/:id`],
        ['DELETE', `${base}/:id`],
        ['GET', `${base}/export`],
      ])
        expect(opOf(m, u), `${m} ${u}`).toBeDefined();
      if (e.file) {
        expect(opOf('POST', `${base}/upload`)!.requestBody.content['multipart/form-data']).toBeDefined();
        expect(opOf('GET', `${base}/:id/download`)).toBeDefined();
      }
      for (const a of Object.values(e.actions)) {
        if (a.internal) {
          expect(opOf('POST', `${base}/:id/actions/${a.name}`)).toBeUndefined();
          continue;
        }
        if (!a.collection) expect(opOf('POST', `${base}/:id/actions/${a.name}`), `${e.name}.${a.name}`).toBeDefined();
        if (a.bulk || a.collection) expect(opOf('POST', `${base}/actions/${a.name}`), `${e.name}.${a.name} bulk`).toBeDefined();
      }
    }
  });

  it("bodies and answers are the validator's own JSON Schemas (server/generated/schemas.json)", () => {
    for (const e of Object.values(metadata.entities)) {
      const base = `/api/${e.resource}`;
      const component = (o: Json, media = 'application/json') => {
        const r = o.content[media].schema.$ref as string;
        return doc.components.schemas[r.split('/').pop()!];
      };
      expect(component(opOf('POST', base)!.requestBody)).toEqual(schemas[e.name].create);
      expect(component(opOf('PUT', `${base}/:id`)!.requestBody)).toEqual(schemas[e.name].update);
      expect(component(opOf('GET', `${base}/:id`)!.responses['200'])).toEqual(schemas[e.name].record);
      for (const a of Object.values(e.actions).filter((x) => !x.internal && !x.collection)) {
        expect(component(opOf('POST', `${base}/:id/actions/${a.name}`)!.requestBody), `${e.name}.${a.name}`).toEqual(schemas[e.name].actions[a.name]);
      }
    }
  });

  it("every $ref resolves, every path parameter is declared, every schema compiles with the validator's ajv", () => {
    const refs: string[] = [];
    const walk = (x: unknown) => {
      if (Array.isArray(x)) x.forEach(walk);
      else if (x && typeof x === 'object')
        for (const [k, v] of Object.entries(x)) {
          if (k === '$ref') refs.push(v as string);
          else walk(v);
        }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(100);
    for (const r of refs) {
      const [, kind, name] = /^#\/components\/(schemas|responses)\/(.+)$/.exec(r) ?? [];
      expect(doc.components[kind]?.[name], r).toBeDefined();
    }
    for (const { path, method, op } of ops()) {
      for (const p of path.match(/\{[^}]+\}/g) ?? [])
        expect(
          (op.parameters ?? []).some((x: Json) => x.in === 'path' && x.name === p.slice(1, -1)),
          `${method} ${path} ${p}`,
        ).toBe(true);
      expect(op.summary, `${method} ${path}`).toBeTruthy();
      expect(op.operationId, `${method} ${path}`).toBeTruthy();
    }
    expect(new Set(ops().map((o) => o.op.operationId)).size).toBe(ops().length);
    const ajv = createAjv();
    for (const [name, s] of Object.entries(doc.components.schemas as Record<string, Json>)) expect(() => ajv.compile(s), name).not.toThrow();
  });

  it('the login call is form-encoded and anonymous; the legacy calls carry their envelope', () => {
    const token = opOf('POST', '/connect/token')!;
    expect(token.security).toEqual([]);
    expect(Object.keys(token.requestBody.content)).toEqual(['application/x-www-form-urlencoded']);
    expect(token.requestBody.content['application/x-www-form-urlencoded'].schema.properties.grant_type).toBeDefined();
    expect(opOf('POST', '/supplierApi/accountInfo/info')!.responses['200'].content['application/json'].schema.properties.status).toEqual(
      expect.objectContaining({ const: 200 }),
    );
  });
});

describe('the documentation page', () => {
  it('is served under the Content-Security-Policy with its script and style sheet as files of their own', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(String(page.headers['content-security-policy'])).toMatch(/script-src 'self'/);
    // no inline script: every <script> has a src on this origin
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(1);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src="\/api\/docs\/docs\.js"/);
      expect(body.trim()).toBe('');
    }
    const js = await t.app.inject({ method: 'GET', url: '/api/docs/docs.js' });
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
    expect(js.body).toContain('/api/openapi.json');
    expect((await t.app.inject({ method: 'GET', url: '/api/docs/docs.css' })).headers['content-type']).toMatch(/^text\/css/);
  });
});
