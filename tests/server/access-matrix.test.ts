/**
 * The permission matrix and the row scope, for EVERY resource and EVERY action in the metadata
 * (the loop reads the compiled metadata: a new entity is covered without touching this file).
 * Each demo role reads, creates, updates, deletes and acts; the answer must match the grants, and
 * a supplier must never see or change a row of another supplier or of another warehouse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompiledEntity, Operation, Profile } from '../../codegen/runtime/model.ts';
import { metadata } from '../../server/generated/index.ts';
import { bearer, build, listUrl, type TestApp } from './helpers.ts';
import { callersOfEveryProfile, type Caller } from './profile-callers.ts';

let t: TestApp;
const callers: Caller[] = [];
const entities = Object.values(metadata.entities);

beforeAll(async () => {
  t = await build();
  callers.push(...(await callersOfEveryProfile(t)));
});
afterAll(() => t.close());

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, c: Caller, payload?: unknown) =>
  t.app.inject({ method, url, headers: bearer(c.token), ...(payload !== undefined ? { payload: payload as object } : {}) });

const granted = (e: CompiledEntity, op: Operation, p: Profile) => !!(op === 'export' && !e.access.export ? e.access.read : e.access[op])?.[p];

/** All ids of an entity with the raw scope columns, straight from the database. */
function rows(e: CompiledEntity): Promise<Record<string, unknown>[]> {
  const cols = ['id', ...e.scope.supplierFields, ...(e.scope.warehouseField ? [e.scope.warehouseField] : [])].map((f) => `"${e.fields[f].column}" AS "${f}"`);
  return t.app.db.all(`SELECT ${cols.join(', ')} FROM "${e.table}"`);
}
/** Is the row inside the caller's supplier and warehouse scope (ignoring grant conditions)? */
function inScope(e: CompiledEntity, c: Caller, row: Record<string, unknown>): boolean {
  const supplierOk = !c.supplier || e.scope.supplierFields.length === 0 || e.scope.supplierFields.some((f) => row[f] === c.supplier);
  const warehouseOk = !e.scope.warehouseField || row[e.scope.warehouseField] === c.warehouse;
  return supplierOk && warehouseOk;
}

describe.each(entities.map((e) => [e.resource, e] as const))('%s', (_resource, e) => {
  it('list: allowed exactly where the matrix grants read, and only rows in scope come back', async () => {
    for (const c of callers) {
      const r = await req('GET', listUrl(e.resource, { range: [0, 499] }), c);
      const blockedByWarehouse = e.claimWarehouseOnly && !c.claimWarehouse;
      const expected = granted(e, 'read', c.profile) && !blockedByWarehouse ? 200 : 403;
      expect(r.statusCode, `${c.name} list ${e.resource}: ${r.body.slice(0, 200)}`).toBe(expected);
      if (blockedByWarehouse && granted(e, 'read', c.profile)) expect(r.json().code).toBe('error.notClaimWarehouse');
      if (expected !== 200) continue;
      for (const rec of r.json() as Record<string, unknown>[]) {
        if (c.supplier && e.scope.supplierFields.length)
          expect(
            e.scope.supplierFields.some((f) => rec[f] === c.supplier),
            `${c.name} saw ${e.resource} ${rec.id} of another supplier`,
          ).toBe(true);
        if (e.scope.warehouseField) expect(rec[e.scope.warehouseField], `${c.name} saw ${e.resource} ${rec.id} of another warehouse`).toBe(c.warehouse);
        const where = e.access.read?.[c.profile]?.where;
        for (const [f, vals] of Object.entries(where ?? {})) expect(vals).toContain(rec[f]);
        for (const f of Object.keys(rec)) expect(e.fields[f]?.private, `${e.resource}.${f} is private`).not.toBe(true);
      }
    }
  });

  it('rows out of scope are 404 for get, update, delete and every action', async () => {
    const all = await rows(e);
    for (const c of callers.filter((x) => x.supplier)) {
      if (!granted(e, 'read', c.profile) || (e.claimWarehouseOnly && !c.claimWarehouse)) continue;
      const foreign = all.filter((r) => !inScope(e, c, r)).slice(0, 3);
      for (const row of foreign) {
        const id = Number(row.id);
        expect((await req('GET', `/api/${e.resource}/${id}`, c)).statusCode, `${c.name} get foreign ${e.resource} ${id}`).toBe(404);
        const put = await req('PUT', `/api/${e.resource}/${id}`, c, { version: 1 });
        expect([403, 404], `${c.name} put foreign ${e.resource} ${id}`).toContain(put.statusCode);
        const del = await req('DELETE', `/api/${e.resource}/${id}`, c);
        expect([403, 404], `${c.name} delete foreign ${e.resource} ${id}`).toContain(del.statusCode);
        for (const a of Object.values(e.actions).filter((x) => !x.collection && !x.internal)) {
          const r = await req('POST', `/api/${e.resource}/${id}/actions/${a.name}`, c, {});
          // 400 is possible first when the input is invalid; it must never be a success
          expect([400, 403, 404], `${c.name} ${a.name} on foreign ${e.resource} ${id}: ${r.body.slice(0, 120)}`).toContain(r.statusCode);
          if (r.statusCode === 400) expect(r.json().code).toBe('error.validation');
        }
      }
      // and the row is really unchanged
      for (const row of foreign) {
        const after = (await t.app.db.get(`SELECT * FROM "${e.table}" WHERE id = ?`, [row.id]))!;
        if (e.versioned) expect(after.version, `${e.resource} ${row.id} was changed`).toBe(1);
      }
    }
  });

  it('create, update and delete are refused (403) where the matrix does not grant them', async () => {
    const any = (await rows(e))[0];
    for (const c of callers) {
      if (e.claimWarehouseOnly && !c.claimWarehouse) continue;
      if (!granted(e, 'create', c.profile)) {
        const r = await req('POST', `/api/${e.resource}`, c, {});
        expect(r.statusCode, `${c.name} create ${e.resource}`).toBe(403);
      }
      if (any && !granted(e, 'update', c.profile)) {
        const r = await req('PUT', `/api/${e.resource}/${any.id}`, c, { version: 1 });
        expect(r.statusCode, `${c.name} update ${e.resource}`).toBe(403);
      }
      if (any && !granted(e, 'delete', c.profile)) {
        const r = await req('DELETE', `/api/${e.resource}/${any.id}`, c);
        expect(r.statusCode, `${c.name} delete ${e.resource}`).toBe(403);
      }
    }
  });

  it('every action is refused (403) for profiles it does not allow; engine-only actions have no route at all', async () => {
    const any = (await rows(e))[0];
    for (const a of Object.values(e.actions).filter((x) => x.internal)) {
      for (const c of callers) {
        const url = any ? `/api/${e.resource}/${any.id}/actions/${a.name}` : `/api/${e.resource}/actions/${a.name}`;
        expect((await req('POST', url, c, {})).statusCode, `${c.name} ${e.resource}.${a.name} (internal)`).toBe(404);
      }
    }
    for (const a of Object.values(e.actions).filter((x) => !x.internal)) {
      for (const c of callers) {
        if (e.claimWarehouseOnly && !c.claimWarehouse) continue;
        if (a.allow[c.profile]) continue;
        const url = a.collection || !any ? `/api/${e.resource}/actions/${a.name}` : `/api/${e.resource}/${any.id}/actions/${a.name}`;
        if (!a.collection && !a.bulk && !any) continue;
        const r = await req('POST', url, c, a.collection || !any ? { ids: [] } : {});
        expect(r.statusCode, `${c.name} ${e.resource}.${a.name}: ${r.body.slice(0, 120)}`).toBe(403);
      }
    }
  });
});

describe('allowed where declared', () => {
  it('every action passes the permission check for each profile it allows (probed with an invalid body: nothing changes)', async () => {
    let probed = 0;
    for (const e of entities) {
      const any = (await rows(e))[0];
      for (const a of Object.values(e.actions).filter((x) => !x.internal)) {
        for (const c of callers) {
          if (!a.allow[c.profile] || (e.claimWarehouseOnly && !c.claimWarehouse)) continue;
          const url = a.collection || a.bulk || !any ? `/api/${e.resource}/actions/${a.name}` : `/api/${e.resource}/${any.id}/actions/${a.name}`;
          const r = await req('POST', url, c, { __probe: 1 });
          // the grant is checked first, then the input: an allowed caller reaches the input check
          expect(r.statusCode, `${c.name} ${e.resource}.${a.name}: ${r.body.slice(0, 150)}`).toBe(400);
          expect(r.json().errors.__probe).toBe('validation.unknownField');
          probed++;
        }
      }
    }
    expect(probed).toBeGreaterThan(30);
  });

  it('reading is possible for each profile the matrix grants it to', async () => {
    for (const e of entities) {
      for (const c of callers) {
        if (!granted(e, 'read', c.profile) || (e.claimWarehouseOnly && !c.claimWarehouse)) continue;
        expect((await req('GET', `/api/${e.resource}?range=[0,0]`, c)).statusCode, `${c.name} ${e.resource}`).toBe(200);
      }
    }
  });
});

describe('the matrix covers what the metadata declares', () => {
  it('every entity declares who reads it, and the test exercised all of them', () => {
    expect(entities.length).toBeGreaterThanOrEqual(19);
    for (const e of entities) expect(Object.keys(e.access.read ?? {}).length, e.name).toBeGreaterThan(0);
  });
  it('every business entity has demo rows, so row-scope checks are not vacuous', async () => {
    // file entities need stored files, and an entity whose metadata says "seed": { "rows": 0 } (the
    // audit trail) starts empty; every other one has rows, hand-written or generic (server/seed/generic.ts)
    const empty: string[] = [];
    for (const e of entities) if (!e.file && e.seed?.rows !== 0 && (await rows(e)).length === 0) empty.push(e.name);
    expect(empty).toEqual([]);
  });
});

describe('operations routes (server/ops/)', () => {
  it('/healthz and /readyz answer anybody alike; /metrics is absent for everybody without PORTAL_METRICS_TOKEN', async () => {
    for (const c of [null, ...callers]) {
      const headers = c ? bearer(c.token) : {};
      const who = c?.name ?? 'anonymous';
      expect((await t.app.inject({ method: 'GET', url: '/healthz', headers })).json(), who).toEqual({ status: 'ok' });
      expect((await t.app.inject({ method: 'GET', url: '/readyz', headers })).json(), who).toEqual({ status: 'ready' });
      // a session token is no metrics token: the route does not exist here
      expect((await t.app.inject({ method: 'GET', url: '/metrics', headers })).statusCode, who).toBe(404);
    }
  });
});

describe('inbound interfaces (POST /api/interfaces/<code>): machine clients only', () => {
  it("every person's token is refused on every inbound interface (403 error.clientOnly), and nothing is written", async () => {
    const codes = Object.keys(metadata.outbox?.inbound ?? {});
    expect(codes.length).toBeGreaterThanOrEqual(5);
    const before = await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM interface_message`);
    for (const c of callers)
      for (const code of codes) {
        const r = await req('POST', `/api/interfaces/${code}`, c, { messages: [{ idempotencyKey: 'x', payload: {} }] });
        expect(r.statusCode, `${c.name} ${code}`).toBe(403);
        expect(r.json().code).toBe('error.clientOnly');
      }
    expect(await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM interface_message`)).toEqual(before);
  });
});
