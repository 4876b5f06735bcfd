/**
 * Saved views (GET/POST/PUT/DELETE /api/views): kept per account, surviving a new login; one
 * default per screen; rename and delete; another account (another supplier's too) neither sees
 * nor changes them (404); a view holds only what its screen offers (400 error.invalidView).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, build, login, type TestApp } from './helpers.ts';

let t: TestApp;
let sup01: string;
let sup02: string;

beforeAll(async () => {
  t = await build();
  sup01 = await login(t.app, 'sup01');
  sup02 = await login(t.app, 'sup02');
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });

const state = {
  filter: { orderNo_like: 'P2026', forecastReceiveDate_gte: '2026-01-01' },
  sort: { field: 'orderNo', order: 'DESC' },
  columns: ['orderNo', 'partsCode'],
};

describe('saved views', () => {
  it('saves, lists by name, and a new login of the same account finds them', async () => {
    const r = await call('POST', '/api/views', sup01, { screen: 'orderShip', name: '  Urgent ones ', state, isDefault: true });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toMatchObject({ screen: 'orderShip', name: 'Urgent ones', state, isDefault: true });
    const again = await login(t.app, 'sup01');
    const list = await call('GET', '/api/views?screen=orderShip', again);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((v: { name: string }) => v.name)).toEqual(['Urgent ones']);
  });

  it('one default per screen; rename; a taken name is 409', async () => {
    const second = (await call('POST', '/api/views', sup01, { screen: 'orderShip', name: 'Second', state: { filter: {} }, isDefault: true })).json();
    const views = (await call('GET', '/api/views?screen=orderShip', sup01)).json() as { name: string; isDefault: boolean }[];
    expect(views.filter((v) => v.isDefault).map((v) => v.name)).toEqual(['Second']);
    expect((await call('PUT', `/api/views/${second.id}`, sup01, { name: 'Urgent ones' })).statusCode).toBe(409);
    const renamed = await call('PUT', `/api/views/${second.id}`, sup01, { name: 'Renamed', isDefault: false });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Renamed', isDefault: false });
    expect((await call('POST', '/api/views', sup01, { screen: 'orderShip', name: 'Renamed', state: { filter: {} } })).statusCode).toBe(409);
  });

  it('another supplier sees none of them and cannot change or delete them (404)', async () => {
    const mine = (await call('GET', '/api/views?screen=orderShip', sup01)).json() as { id: number }[];
    expect(mine.length).toBeGreaterThan(0);
    expect((await call('GET', '/api/views?screen=orderShip', sup02)).json()).toEqual([]);
    for (const v of mine) {
      expect((await call('PUT', `/api/views/${v.id}`, sup02, { name: 'stolen' })).statusCode).toBe(404);
      expect((await call('DELETE', `/api/views/${v.id}`, sup02)).statusCode).toBe(404);
    }
    expect(((await call('GET', '/api/views?screen=orderShip', sup01)).json() as unknown[]).length).toBe(mine.length);
  });

  it('deletes its own', async () => {
    const v = (await call('POST', '/api/views', sup01, { screen: 'orderConfirm', name: 'gone soon', state: { filter: {} } })).json();
    expect((await call('DELETE', `/api/views/${v.id}`, sup01)).statusCode).toBe(204);
    expect((await call('GET', '/api/views?screen=orderConfirm', sup01)).json()).toEqual([]);
    expect((await call('DELETE', `/api/views/${v.id}`, sup01)).statusCode).toBe(404);
  });

  it('a view holds only what the screen offers', async () => {
    const bad = [
      { filter: { deliveryPlace: 'x' } },
      { filter: { status: '2' } },
      { filter: { orderNo_like: { $gt: '' } } },
      { filter: {}, sort: { field: 'packing', order: 'ASC' } },
      { filter: {}, sort: { field: 'orderNo', order: 'sideways' } },
      { filter: {}, columns: ['passwordHash'] },
      { filter: {}, columns: [] },
      { filter: {}, tab: 'nope' },
    ];
    for (const s of bad) {
      const r = await call('POST', '/api/views', sup01, { screen: 'orderShip', name: 'bad', state: s });
      expect([JSON.stringify(s), r.statusCode, r.json().code]).toEqual([JSON.stringify(s), 400, 'error.invalidView']);
    }
    expect((await call('POST', '/api/views', sup01, { screen: 'orderShip', name: '', state: { filter: {} } })).statusCode).toBe(400);
    expect((await call('POST', '/api/views', sup01, { screen: 'recConfirm', name: 'tabbed', state: { filter: {}, tab: 'pending' } })).statusCode).toBe(201);
  });

  it('a screen the caller may not open, or that is no list, is 404; no token is 401', async () => {
    expect((await call('GET', '/api/views?screen=accountList', sup01)).statusCode).toBe(404);
    expect((await call('POST', '/api/views', sup01, { screen: 'dashboard', name: 'x', state: { filter: {} } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/views?screen=orderShip' })).statusCode).toBe(401);
  });
});
