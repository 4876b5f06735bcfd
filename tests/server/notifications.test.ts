/**
 * Notifications (metadata "notify"): a published notice reaches every supplier's feed with its
 * label in the caller's language, an action on a supplier's record reaches that supplier only,
 * the writer's own doings are left out, read marks are per account, and the live stream of a
 * second server over the same database (PostgreSQL: LISTEN/NOTIFY; SQLite: polling) says
 * "changed" within seconds of a write made through the first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { bearer, build, code, listUrl, login, type TestApp } from './helpers.ts';

let t: TestApp;
let other: TestApp;
let supadmin: string;
let sup01: string;
let sup02: string;
let staff: string;

beforeAll(async () => {
  t = await build();
  other = await build({ same: t, seed: false });
  supadmin = await login(t.app, 'supadmin');
  sup01 = await login(t.app, 'sup01');
  sup02 = await login(t.app, 'sup02');
  staff = await login(t.app, 'staff01');
});
afterAll(async () => {
  await other?.close();
  await t.close();
});

interface Feed {
  unread: number;
  items: { id: number; label: string; title: string | null; read: boolean; path: string }[];
}
const feedOf = async (token: string, lang = 'en-US'): Promise<Feed> => {
  const r = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: { ...bearer(token), 'accept-language': lang } });
  expect(r.statusCode).toBe(200);
  return r.json();
};
const post = (url: string, token: string, payload: unknown = {}) => t.app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as object });

describe('notifications', () => {
  it('a published notice reaches every supplier and internal staff, labelled in their language; not its author', async () => {
    const before = (await feedOf(sup01)).unread;
    const n = await post('/api/notices', supadmin, { title: 'Plant closed on Friday', content: 'c' });
    expect(n.statusCode).toBe(201);
    const en = await feedOf(sup01);
    expect(en.unread).toBe(before + 1);
    expect(en.items[0]).toMatchObject({ label: 'New notice', title: 'Plant closed on Friday', read: false, path: '/dashboard' });
    expect((await feedOf(sup01, 'zh-CN')).items[0].label).toBe('新公告');
    expect((await feedOf(sup02)).items[0].title).toBe('Plant closed on Friday');
    expect((await feedOf(staff)).items[0].title).toBe('Plant closed on Friday');
    expect((await feedOf(supadmin)).items.map((i) => i.title)).not.toContain('Plant closed on Friday');
  });

  it("an action on a supplier's record tells that supplier only, and opens the record", async () => {
    // staff return an adjustment of S001 for changes
    const submitted = await t.app.inject({
      method: 'GET',
      url: listUrl('stock-adjustments', { filter: { status: code('stockAdjustStatus', 'unaudited'), supplierCode: 'S001' }, range: [0, 0] }),
      headers: bearer(staff),
    });
    const adj = submitted.json()[0];
    const r = await post(`/api/stock-adjustments/${adj.id}/actions/return`, staff, { auditNote: 'please fix' });
    expect(r.statusCode, r.body).toBe(200);
    const mine = await feedOf(sup01);
    expect(mine.items[0]).toMatchObject({
      label: 'Adjustment returned for changes',
      title: adj.billNo,
      path: `/ChildPartsDiffAdjustApplyQuery/edit?id=${adj.id}`,
    });
    expect((await feedOf(sup02)).items.map((i) => i.title)).not.toContain(adj.billNo);
  });

  it('read marks are per account; another audience cannot mark (404); read-all', async () => {
    const item = (await feedOf(sup01)).items[0];
    expect((await post(`/api/notifications/${item.id}/read`, sup01)).statusCode).toBe(204);
    expect((await feedOf(sup01)).items[0].read).toBe(true);
    expect((await feedOf(sup02)).items.find((i) => i.id === item.id)?.read ?? false).toBe(false);
    expect((await post(`/api/notifications/${item.id}/read`, sup02)).statusCode).toBe(404);
    expect((await post('/api/notifications/read-all', sup01)).statusCode).toBe(204);
    expect((await feedOf(sup01)).unread).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
  });

  it("the stream of another server over the same database says 'changed' after a write through the first", async () => {
    await other.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (other.app.server.address() as AddressInfo).port;
    const tokenB = await login(other.app, 'sup01');
    const ac = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/api/notifications/stream`, { headers: bearer(tokenB), signal: ac.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (pattern: RegExp, ms: number) => {
      const end = Date.now() + ms;
      while (!pattern.test(text)) {
        const left = end - Date.now();
        if (left <= 0) throw new Error(`no ${pattern} within ${ms} ms: ${text}`);
        const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
        if (chunk && !chunk.done) text += decoder.decode(chunk.value);
      }
    };
    await until(/event: hello/, 5000);
    expect(text).not.toMatch(/event: changed/);
    const n = await post('/api/notices', supadmin, { title: 'Live one', content: 'c' });
    expect(n.statusCode).toBe(201);
    await until(/event: changed\ndata: \{"id":\d+\}/, 5000);
    ac.abort();
    // the stream carries no content: the page reads its feed, from either server
    const r = await other.app.inject({ method: 'GET', url: '/api/notifications', headers: bearer(tokenB) });
    expect(r.json().items[0].title).toBe('Live one');
  });
});
