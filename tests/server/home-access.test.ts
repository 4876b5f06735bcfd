/**
 * The home page's routes for every profile (the access tests of issue 22): the work tiles and charts
 * answer exactly those whose list the profile may open (the metadata's screen rule, in every profile
 * and at a warehouse that is not a claim warehouse); saved views open for exactly the list screens
 * the profile may open, and one account's view is a 404 to every other caller; a record's history
 * answers exactly where reading the record does (200, 403 or 404), for every entity; notifications
 * reach exactly their audience, and nobody else can mark them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenRefusal } from '../../codegen/runtime/access-rules.ts';
import { metadata } from '../../server/generated/index.ts';
import { bearer, build, type TestApp } from './helpers.ts';
import { callersOfEveryProfile, type Caller } from './profile-callers.ts';

let t: TestApp;
const callers: Caller[] = [];

beforeAll(async () => {
  t = await build();
  callers.push(...(await callersOfEveryProfile(t)));
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, c: Caller | null, payload?: unknown) =>
  t.app.inject({ method, url, headers: c ? bearer(c.token) : {}, ...(payload !== undefined ? { payload: payload as object } : {}) });
const role = (c: Caller) => metadata.access.profiles[c.profile].role;
const entityOf = (resource?: string) => (resource ? metadata.entities[metadata.resources[resource]] : undefined);
const mayOpen = (c: Caller, screenName: string) => {
  const s = metadata.screens.find((x) => x.name === screenName)!;
  return !screenRefusal(s, { role: role(c), profile: c.profile, isClaimWarehouse: c.claimWarehouse }, entityOf(s.resource));
};
const lists = metadata.screens.filter((s) => s.kind === 'list');

describe('home routes for every profile', () => {
  it('tiles and charts: exactly those declared for the profile whose list it may open', async () => {
    const dashboard = metadata.screens.find((s) => s.name === 'dashboard')!;
    const mayShow = (c: Caller, x: { profiles: string[]; screen: string }) => (!x.profiles.length || x.profiles.includes(c.profile)) && mayOpen(c, x.screen);
    for (const c of callers) {
      const tiles = await call('GET', '/api/home/tiles', c);
      expect([c.name, tiles.statusCode]).toEqual([c.name, 200]);
      const expected = dashboard.tiles!.filter((x) => mayShow(c, x)).map((x) => x.key);
      expect([c.name, tiles.json().tiles.map((x: { key: string }) => x.key)]).toEqual([c.name, expected]);
      const charts = await call('GET', '/api/home/charts', c);
      expect([c.name, charts.statusCode]).toEqual([c.name, 200]);
      const expectedCharts = dashboard.charts!.filter((x) => mayShow(c, x)).map((x) => x.key);
      expect([c.name, charts.json().charts.map((x: { key: string }) => x.key)]).toEqual([c.name, expectedCharts]);
    }
    expect(callers.some((c) => c.profile === 'supplier')).toBe(true);
    expect((await call('GET', '/api/home/tiles', null)).statusCode).toBe(401);
    expect((await call('GET', '/api/home/charts', null)).statusCode).toBe(401);
  });

  it('saved views: open on exactly the list screens the profile may open', async () => {
    for (const c of callers)
      for (const s of lists) {
        const r = await call('GET', `/api/views?screen=${s.name}`, c);
        expect([c.name, s.name, r.statusCode]).toEqual([c.name, s.name, mayOpen(c, s.name) ? 200 : 404]);
      }
  });

  it('history: answers exactly where reading the record answers, for every entity and profile (a row of each supplier)', async () => {
    for (const e of Object.values(metadata.entities)) {
      const cols = e.scope.supplierFields.map((f) => `"${e.fields[f].column}"`);
      const ids = (await t.app.db.all<{ id: number }>(`SELECT id FROM "${e.table}" ORDER BY ${cols.length ? `${cols[0]}, ` : ''}id LIMIT 3`)).map((r) =>
        Number(r.id),
      );
      const last = await t.app.db.get<{ id: number }>(`SELECT MAX(id) AS id FROM "${e.table}"`);
      if (last?.id) ids.push(Number(last.id));
      for (const id of ids)
        for (const c of callers) {
          const record = (await call('GET', `/api/${e.resource}/${id}`, c)).statusCode;
          const hist = (await call('GET', `/api/history/${e.resource}/${id}`, c)).statusCode;
          expect([e.resource, id, c.name, hist]).toEqual([e.resource, id, c.name, record]);
        }
    }
  });

  it("notifications: every profile reads its own feed; a supplier's event reaches only the callers whose audience it is, others get 404 marking it", async () => {
    const staff = callers.find((c) => c.profile === 'internal')!;
    const adj = (
      await call('GET', `/api/stock-adjustments?filter=${encodeURIComponent(JSON.stringify({ status: '1', supplierCode: 'S001' }))}&range=[0,0]`, staff)
    ).json()[0];
    expect((await call('POST', `/api/stock-adjustments/${adj.id}/actions/return`, staff, { auditNote: 'x' })).statusCode).toBe(200);
    for (const c of callers) {
      const r = await call('GET', '/api/notifications', c);
      expect([c.name, r.statusCode]).toEqual([c.name, 200]);
      const item = (r.json().items as { id: number; title: string }[]).find((i) => i.title === adj.billNo);
      const audience = c.profile === 'supplier' && c.supplier === 'S001' && c.warehouse === adj.warehouseCode;
      expect([c.name, !!item]).toEqual([c.name, audience]);
    }
    const owner = callers.find((c) => c.name === 'sup01@PDC01')!;
    const id = ((await call('GET', '/api/notifications', owner)).json().items as { id: number; title: string }[]).find((i) => i.title === adj.billNo)!.id;
    for (const c of callers.filter((x) => x.name !== owner.name))
      expect([c.name, (await call('POST', `/api/notifications/${id}/read`, c)).statusCode]).toEqual([c.name, 404]);
    expect((await call('POST', `/api/notifications/${id}/read`, owner)).statusCode).toBe(204);
    expect((await call('GET', '/api/notifications', null)).statusCode).toBe(401);
    expect((await call('GET', '/api/notifications/stream', null)).statusCode).toBe(401);
  });

  it("saved views: one account's view is a 404 to every other caller, and untouched", async () => {
    for (const owner of callers) {
      const screen = lists.find((s) => mayOpen(owner, s.name));
      if (!screen) continue;
      const created = await call('POST', '/api/views', owner, { screen: screen.name, name: `mine ${owner.name}`, state: { filter: {} } });
      expect([owner.name, created.statusCode]).toEqual([owner.name, 201]);
      const id = created.json().id;
      for (const other of callers.filter((x) => x.token !== owner.token && x.name.split('@')[0] !== owner.name.split('@')[0])) {
        expect([other.name, (await call('PUT', `/api/views/${id}`, other, { name: 'x' })).statusCode]).toEqual([other.name, 404]);
        expect([other.name, (await call('DELETE', `/api/views/${id}`, other)).statusCode]).toEqual([other.name, 404]);
      }
      const mine = (await call('GET', `/api/views?screen=${screen.name}`, owner)).json() as { id: number; name: string }[];
      expect(mine.find((v) => v.id === id)?.name).toBe(`mine ${owner.name}`);
    }
    expect((await call('DELETE', '/api/views/1', null)).statusCode).toBe(401);
  });
});
