/**
 * The ra-data-simple-rest protocol over real HTTP handling (inject) and a real SQLite file:
 * sort, range, filters, Content-Range, and the 400s for anything the metadata does not declare.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, build, listUrl, login, type TestApp } from './helpers.ts';
import { metadata } from '../../server/generated/index.ts';

let t: TestApp;
let admin: string;
let sup: string;

beforeAll(async () => {
  t = await build();
  admin = await login(t.app, 'supadmin');
  sup = await login(t.app, 'sup01');
  // 30 more notices so paging and sorting have something to bite on
  for (let i = 0; i < 30; i++) {
    const r = await t.app.inject({
      method: 'POST',
      url: '/api/notices',
      headers: bearer(admin),
      payload: { title: `测试公告 ${String(i).padStart(2, '0')}`, content: `内容 ${i}` },
    });
    expect(r.statusCode).toBe(201);
  }
});
afterAll(() => t.close());

const get = (url: string, token = admin, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...bearer(token), ...headers } });

describe('list protocol', () => {
  it('answers an array with Content-Range start-end/total', async () => {
    const r = await get(listUrl('notices', { range: [0, 9], sort: ['title', 'ASC'] }));
    expect(r.statusCode).toBe(200);
    expect(r.json()).toHaveLength(10);
    expect(r.headers['content-range']).toMatch(/^notices 0-9\/33$/);
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('ranges page through without overlap', async () => {
    const a = (await get(listUrl('notices', { range: [0, 14], sort: ['title', 'ASC'] }))).json() as { id: number }[];
    const b = (await get(listUrl('notices', { range: [15, 29], sort: ['title', 'ASC'] }))).json() as { id: number }[];
    const ids = new Set([...a, ...b].map((x) => x.id));
    expect(ids.size).toBe(30);
  });

  it('sorts ascending and descending by a declared field', async () => {
    const asc = (await get(listUrl('notices', { range: [0, 49], sort: ['title', 'ASC'] }))).json() as { title: string }[];
    const desc = (await get(listUrl('notices', { range: [0, 49], sort: ['title', 'DESC'] }))).json() as { title: string }[];
    expect(asc.map((x) => x.title)).toEqual([...asc.map((x) => x.title)].sort());
    expect(desc.map((x) => x.title)).toEqual(asc.map((x) => x.title).reverse());
  });

  it('filters: contains, eq, in, id list (getMany), quick search', async () => {
    const like = (await get(listUrl('notices', { filter: { title_like: '测试公告 1' } }))).json() as { title: string }[];
    expect(like.length).toBe(10);
    expect(like.every((x) => x.title.includes('测试公告 1'))).toBe(true);
    const ids = like.slice(0, 3).map((x) => (x as unknown as { id: number }).id);
    const many = (await get(listUrl('notices', { filter: { id: ids } }))).json() as { id: number }[];
    expect(many.map((x) => x.id).sort()).toEqual([...ids].sort());
    const q = await get(listUrl('notices', { filter: { q: '春节' } }));
    expect((q.json() as unknown[]).length).toBe(1);
    const st = await get(listUrl('notices', { filter: { status: ['0', '1'] } }));
    expect(st.headers['content-range']).toMatch(/\/33$/);
  });

  it('LIKE wildcards typed by a user are searched literally', async () => {
    const r = await get(listUrl('notices', { filter: { title_like: '%' } }));
    expect(r.statusCode).toBe(200);
    expect(r.json()).toHaveLength(0);
    expect(r.headers['content-range']).toBe('notices */0');
  });

  it('the default page is the app page size and the maximum is enforced', async () => {
    expect(metadata.app.pageSize).toBe(500);
    const r = await get(listUrl('notices', { range: [0, metadata.app.maxPageSize - 1] }));
    expect(r.statusCode).toBe(200);
  });
});

describe('bad list queries are 400 with a code, never 500', () => {
  const cases: [string, string, string][] = [
    ['unknown sort field', listUrl('notices', { sort: ['secret', 'ASC'] }), 'error.unknownSortField'],
    ['sort on a field not declared sortable', listUrl('notices', { sort: ['content', 'ASC'] }), 'error.unknownSortField'],
    ['sort direction', listUrl('notices', { sort: ['title', 'SIDEWAYS'] }), 'error.malformedQuery'],
    ['malformed sort', '/api/notices?sort=%5B%22title%22', 'error.malformedQuery'],
    ['malformed filter', '/api/notices?filter=%7Bbad', 'error.malformedQuery'],
    ['filter is an array', '/api/notices?filter=%5B1%5D', 'error.malformedQuery'],
    ['unknown filter field', listUrl('notices', { filter: { password: 'x' } }), 'error.unknownFilter'],
    ['operator not declared', listUrl('notices', { filter: { content_like: 'x' } }), 'error.unknownFilter'],
    ['object as a filter value', listUrl('notices', { filter: { title: { $ne: 1 } } }), 'error.malformedQuery'],
    ['huge range', listUrl('notices', { range: [0, 100000] }), 'error.rangeTooLarge'],
    ['negative range', '/api/notices?range=%5B-1%2C5%5D', 'error.malformedQuery'],
    ['reversed range', listUrl('notices', { range: [10, 5] }), 'error.malformedQuery'],
    ['SQL in a sort field', listUrl('notices', { sort: ['title; DROP TABLE notice', 'ASC'] }), 'error.unknownSortField'],
  ];
  for (const [name, url, code] of cases) {
    it(name, async () => {
      const r = await get(url);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().code).toBe(code);
      expect(r.body).not.toMatch(/SQLITE|sqlite|SELECT|stack/);
    });
  }

  it('messages follow Accept-Language', async () => {
    const zh = await get(listUrl('notices', { sort: ['secret', 'ASC'] }), admin, { 'accept-language': 'zh-CN' });
    const en = await get(listUrl('notices', { sort: ['secret', 'ASC'] }), admin, { 'accept-language': 'en-US,en;q=0.9' });
    expect(zh.json().message).toMatch(/[\u4e00-\u9fff]/);
    expect(en.json().message).not.toMatch(/[\u4e00-\u9fff]/);
  });

  it('unknown resource and unknown id are 404', async () => {
    expect((await get('/api/nothing')).statusCode).toBe(404);
    expect((await get('/api/notices/999999')).statusCode).toBe(404);
    expect((await get('/api/notices/abc')).statusCode).toBe(400);
  });

  it('no token is 401, except for public resources', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/notices' })).statusCode).toBe(401);
    const wh = await t.app.inject({ method: 'GET', url: '/api/warehouses' });
    expect(wh.statusCode).toBe(200);
    expect((wh.json() as { code: string }[]).map((w) => w.code)).toEqual(['PDC01', 'PDC02']);
  });

  it('a supplier reads only active, not deleted notices', async () => {
    const r = await get(listUrl('notices', { range: [0, 99] }), sup);
    const rows = r.json() as { status: string; deleted: boolean }[];
    expect(rows.length).toBe(33);
    expect(rows.every((x) => x.status === '0' && x.deleted === false)).toBe(true);
  });
});
