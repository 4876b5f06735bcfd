/**
 * GET /api/openapi.json: an OpenAPI 3.1 document that covers every route the server registers
 * (the app is built as `npm start` builds it, with a built admin folder), with the JSON Schemas of
 * the validator as bodies and answers, every filter key and sort field of every list, every
 * action, upload, download and export the metadata declares; and the page that shows it, served
 * under the Content-Security-Policy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate } from '@readme/openapi-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messages, metadata, schemas } from '../../server/generated/index.ts';
import type { CompiledEntity, Operation } from '../../codegen/runtime/model.ts';
import { createAjv } from '../../codegen/runtime/validation.ts';
import { buildOpenApi, isApiRoute } from '../../server/openapi/document.ts';
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
  refusedToAll = new Set(buildOpenApi({ meta: metadata, schemas, messages, routes: [...t.app.registeredRoutes] }).refusedToAll);
});
afterAll(async () => {
  await t.close();
  rmSync(adminDir, { recursive: true, force: true });
});

const ops = () =>
  Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, m]) =>
    Object.entries(m).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
/** generic routes the document leaves out: their operation is granted to nobody */
let refusedToAll = new Set<string>();
const granted = (e: CompiledEntity, op: Operation) => Object.keys(e.access[op] ?? {}).length > 0;
/** a component schema as the validator has it: the labels of code values are the document's addition */
const withoutLabels = (s: Json): Json =>
  s.properties
    ? {
        ...s,
        properties: Object.fromEntries(
          Object.entries(s.properties as Record<string, Json>).map(([n, p]) => [n, (({ 'x-enum-descriptions': _x, ...rest }) => rest)(p)]),
        ),
      }
    : s;
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
        if (!opOf(r.method, r.url) && !refusedToAll.has(`${r.method} ${r.url}`)) missing.push(`${r.method} ${r.url}`);
      } else expect(['/', ...adminFiles.map((f) => `/${f}`)], `${r.method} ${r.url} is neither API nor an admin file`).toContain(r.url);
    }
    expect(missing).toEqual([]);
    // and nothing more: every documented operation is a route Fastify really has
    for (const { path, method } of ops()) expect(t.app.hasRoute({ method: method as 'GET', url: fastifyUrl(path) }), `${method} ${path}`).toBe(true);
    expect(ops().length + refusedToAll.size).toBe(new Set(routes.filter((r) => isApiRoute(r.url)).map((r) => `${r.method} ${r.url}`)).size);
  });

  it('leaves out the generic routes the metadata grants to no profile (they answer 403 to everyone), so clients offer no call that cannot succeed', async () => {
    expect([...refusedToAll]).toEqual(expect.arrayContaining(['POST /api/accounts', 'DELETE /api/accounts/:id']));
    for (const key of refusedToAll) {
      const [method, url] = key.split(' ');
      expect(opOf(method, url), key).toBeUndefined();
    }
    for (const user of ['staff01', 'sup01', 'supadmin']) {
      const auth = bearer(await login(t.app, user));
      expect((await t.app.inject({ method: 'POST', url: '/api/accounts', headers: auth, payload: { userId: 'x' } })).statusCode, user).toBe(403);
      expect((await t.app.inject({ method: 'DELETE', url: '/api/accounts/1', headers: auth })).statusCode, user).toBe(403);
    }
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
      for (const [m, u, op] of [
        ['GET', `${base}/:id`, 'read'],
        ['POST', base, 'create'],
        ['PUT', `${base}/:id`, 'update'],
        ['DELETE', `${base}/:id`, 'delete'],
        ['GET', `${base}/export`, 'export'],
      ] as const)
        if (granted(e, op)) expect(opOf(m, u), `${m} ${u}`).toBeDefined();
        else expect(refusedToAll, `${m} ${u}`).toContain(`${m} ${u}`);
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
      if (granted(e, 'create')) expect(withoutLabels(component(opOf('POST', base)!.requestBody))).toEqual(schemas[e.name].create);
      if (granted(e, 'update')) expect(withoutLabels(component(opOf('PUT', `${base}/:id`)!.requestBody))).toEqual(schemas[e.name].update);
      expect(withoutLabels(component(opOf('GET', `${base}/:id`)!.responses['200']))).toEqual(schemas[e.name].record);
      for (const a of Object.values(e.actions).filter((x) => !x.internal && !x.collection)) {
        const op = opOf('POST', `${base}/:id/actions/${a.name}`)!;
        expect(withoutLabels(component(op.requestBody)), `${e.name}.${a.name}`).toEqual(schemas[e.name].actions[a.name]);
        // a body is required when the input has a required field (or carries the file)
        const required = (schemas[e.name].actions[a.name].required as string[]).length > 0 || !!a.upload;
        expect(op.requestBody.required, `${e.name}.${a.name}`).toBe(required);
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

describe('for client generators', () => {
  it('passes the strict 3.1 parser (@readme/openapi-parser): tuples (sort, range) have an items schema', async () => {
    const r = await validate(structuredClone(doc) as never);
    expect(r.valid ? [] : r.errors.map((e) => e.message)).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it('code fields list the labels of their codes beside them (x-enum-descriptions)', () => {
    const status = doc.components.schemas.Order.properties.status as Json;
    expect(status.enum.length).toBe(status['x-enum-descriptions'].length);
    const table = metadata.codeTables[metadata.entities.order.fields.status.codeTable!];
    for (const v of table.values) expect(status['x-enum-descriptions'][status.enum.indexOf(v.code)]).toBe(`${v.label['en-US']} / ${v.label['zh-CN']}`);
  });

  it('openapi-typescript generates a client whose call of every operation type-checks', { timeout: 120_000 }, async () => {
    const api = astToString(await openapiTS(structuredClone(doc) as never));
    const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'));
    try {
      writeFileSync(join(dir, 'api.ts'), api);
      const calls = ops().map(({ path, method, op }, i) => {
        const P = JSON.stringify(path);
        const M = JSON.stringify(method.toLowerCase());
        // a required body may not be left out; every operation's answer type resolves
        const body = op.requestBody?.required ? `body_${i}: Body<Op<${P}, ${M}>> = undefined` : '';
        return [
          `export const r_${i}: Promise<unknown> = call(${P}, ${M}, {} as Args<Op<${P}, ${M}>>);`,
          ...(body ? [`// @ts-expect-error a required request body\nexport const ${body};`] : []),
        ].join('\n');
      });
      const client = [
        "import type { paths } from './api.ts';",
        "type Method = 'get' | 'post' | 'put' | 'delete';",
        'type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;',
        'type Body<O> = O extends { requestBody: { content: infer C } } ? C[keyof C] : never;',
        'type Args<O> = O extends { parameters: infer A } ? A : never;',
        'type Ok<O> = O extends { responses: infer R } ? R[Extract<keyof R, 200 | 201>] : never;',
        'declare function call<P extends keyof paths, M extends Method>(path: P, method: M, args: Args<Op<P, M>>): Promise<Ok<Op<P, M>>>;',
        // the code fields are enums of their codes
        "type OrderStatus = paths['/api/orders/{id}']['get']['responses'][200]['content']['application/json']['status'];",
        `export const known: OrderStatus = ${JSON.stringify(metadata.codeTables[metadata.entities.order.fields.status.codeTable!].values[0].code)};`,
        "// @ts-expect-error not a code of the table\nexport const unknown: OrderStatus = 'no-such-code';",
        ...calls,
      ].join('\n');
      writeFileSync(join(dir, 'client.ts'), client);
      const program = ts.createProgram([join(dir, 'client.ts')], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        types: [],
        lib: ['lib.es2022.d.ts'],
      });
      const errors = ts
        .getPreEmitDiagnostics(program)
        .map((d) => `${d.file?.fileName.slice(dir.length) ?? ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(errors).toEqual([]);
      expect(calls.length).toBe(ops().length);
      expect(calls.length).toBeGreaterThan(100);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
