/**
 * The generic export (GET /api/<resource>/export?screen=..&filter=..&sort=..): a streamed .xlsx of
 * what the list screen shows, read back with the project's own reader. Scope, filters, fixed and
 * tab filters, labels in both languages, cell formats, refusals; the stream writer on 100,000 rows
 * (time and memory printed, not asserted); a client that disconnects releases the export's connection.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, build, code, listUrl, login, type TestApp } from './helpers.ts';
import { messages, metadata } from '../../server/generated/index.ts';
import { readFirstSheet, type CellValue } from '../../server/documents/xlsx.ts';
import { XlsxStreamWriter } from '../../server/documents/xlsx-stream.ts';
import { columnConverter, wallClock } from '../../server/routes/export.ts';
import type { CompiledField, Locale } from '../../codegen/runtime/model.ts';

let t: TestApp;
let sup01: string;
let sup02: string;
let staff: string;
let supadmin: string;

beforeAll(async () => {
  t = await build();
  [sup01, sup02, staff, supadmin] = await Promise.all(['sup01', 'sup02', 'staff01', 'supadmin'].map((u) => login(t.app, u)));
});
afterAll(() => t?.close());

const screenOf = (name: string) => metadata.screens.find((s) => s.name === name)!;
const orderSearch = screenOf('orderSearch');
const SUPPLIER_COLUMNS = ['directSupplierCode', 'productionSupplierCode', 'purchasingSupplierCode'];
const col = (field: string) => orderSearch.columns.findIndex((c) => c.field === field);
const label = (locale: Locale, key: string) => messages[locale][key];

function exportUrl(resource: string, q: { screen?: string; filter?: Record<string, unknown>; sort?: [string, string]; tab?: string; tz?: string }): string {
  const p = new URLSearchParams();
  if (q.screen !== undefined) p.set('screen', q.screen);
  if (q.filter) p.set('filter', JSON.stringify(q.filter));
  if (q.sort) p.set('sort', JSON.stringify(q.sort));
  if (q.tab !== undefined) p.set('tab', q.tab);
  if (q.tz !== undefined) p.set('tz', q.tz);
  return `/api/${resource}/export?${p.toString()}`;
}

const get = (url: string, token?: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(token ? bearer(token) : {}), ...headers } });

async function exportSheet(url: string, token: string, lang = 'zh-CN') {
  const r = await get(url, token, { 'accept-language': lang });
  expect(r.statusCode, r.body.slice(0, 300)).toBe(200);
  const sheet = readFirstSheet(r.rawPayload);
  return { r, header: sheet.rows[0].cells, rows: sheet.rows.slice(1).map((x) => x.cells), name: sheet.name };
}

/** Every record of a list call (pages of 500) and its total. */
async function listAll(resource: string, token: string, filter: Record<string, unknown>, sort?: [string, string]) {
  const out: Record<string, unknown>[] = [];
  let total: number;
  for (let start = 0; ; start += 500) {
    const r = await get(listUrl(resource, { filter, sort, range: [start, start + 499] }), token);
    expect(r.statusCode, r.body).toBe(200);
    total = Number(/\/(\d+)$/.exec(r.headers['content-range'] as string)![1]);
    out.push(...(r.json() as Record<string, unknown>[]));
    if (out.length >= total) break;
  }
  return { records: out, total };
}

const ALL = { orderNo_like: 'P' };

describe('export of the orderSearch screen', () => {
  it('as sup01 in zh-CN: headers, file name, labels, formats; exactly the rows the list API gives', async () => {
    const { r, header, rows, name } = await exportSheet(
      exportUrl('orders', { screen: 'orderSearch', filter: ALL, sort: ['orderNo', 'ASC'], tz: 'UTC' }),
      sup01,
    );
    expect(r.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(r.headers['cache-control']).toBe('no-store');
    const title = label('zh-CN', 'route.orderSearch');
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(r.headers['content-disposition'] as string)![1])).toMatch(
      new RegExp(`^${title}-\\d{8}-\\d{6}\\.xlsx$`),
    );
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="[\x20-\x7e]+"/);
    expect(name).toBe(title);

    expect(header).toEqual(orderSearch.columns.map((c) => label('zh-CN', c.labelKey)));

    const list = await listAll('orders', sup01, ALL, ['orderNo', 'ASC']);
    expect(list.total).toBeGreaterThan(100);
    expect(rows).toHaveLength(list.total);
    // same rows in the same order, each cell as the screen shows it
    rows.forEach((cells, i) => {
      const rec = list.records[i];
      orderSearch.columns.forEach((c, j) => {
        const f = metadata.entities.order.fields[c.field];
        const v = rec[c.field];
        let expected: CellValue;
        if (v === null || v === undefined || v === '') expected = null;
        else if (f.type === 'code') expected = label('zh-CN', `code.${f.codeTable}.${v}`);
        else if (f.type === 'datetime') expected = String(v).slice(0, 19).replace('T', ' ');
        else expected = v as CellValue;
        expect(cells[j] ?? null, `row ${i} ${c.field}`).toEqual(expected);
      });
    });
    // the formats in particular
    expect(rows.every((c) => /^\d{4}-\d{2}-\d{2}$/.test(String(c[col('releaseDate')])))).toBe(true);
    expect(rows.some((c) => /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(String(c[col('receiveTime')])))).toBe(true);
    expect(rows.every((c) => typeof c[col('orderQty')] === 'number')).toBe(true);
    const statusLabels = new Set(metadata.codeTables.purchaseOrderStatus.values.map((v) => label('zh-CN', `code.purchaseOrderStatus.${v.code}`)));
    expect(rows.every((c) => statusLabels.has(String(c[col('status')])))).toBe(true);
  });

  it("scope: only rows of the caller's supplier and warehouse; another supplier's never", async () => {
    const a = await exportSheet(exportUrl('orders', { screen: 'orderSearch', filter: ALL }), sup01);
    const b = await exportSheet(exportUrl('orders', { screen: 'orderSearch', filter: ALL }), sup02);
    const mine = (rows: CellValue[][], supplier: string) => rows.every((c) => SUPPLIER_COLUMNS.some((f) => c[col(f)] === supplier));
    expect(a.rows.length).toBeGreaterThan(0);
    expect(b.rows.length).toBeGreaterThan(0);
    expect(mine(a.rows, 'S001')).toBe(true);
    expect(mine(b.rows, 'S002')).toBe(true);
    expect(a.rows.every((c) => c[col('warehouseCode')] === 'PDC01')).toBe(true);
    const key = (c: CellValue[]) => `${c[col('orderNo')]}/${c[col('itemNo')]}`;
    const onlyS002 = new Set(b.rows.filter((c) => !SUPPLIER_COLUMNS.some((f) => c[col(f)] === 'S001')).map(key));
    expect(onlyS002.size).toBeGreaterThan(0);
    expect(a.rows.filter((c) => onlyS002.has(key(c)))).toEqual([]);
    // internal staff see every supplier: as many rows as their list says
    const s = await exportSheet(exportUrl('orders', { screen: 'orderSearch', filter: ALL }), staff);
    expect(s.rows.length).toBe((await listAll('orders', staff, ALL)).total);
    expect(s.rows.length).toBeGreaterThan(a.rows.length);
  });

  it('en-US via Accept-Language: English headers, code labels and file name', async () => {
    const { r, header, rows } = await exportSheet(
      exportUrl('orders', { screen: 'orderSearch', filter: { ...ALL, status: [code('purchaseOrderStatus', 'released')] } }),
      sup01,
      'en-US',
    );
    expect(header).toEqual(orderSearch.columns.map((c) => label('en-US', c.labelKey)));
    expect(header).not.toEqual(orderSearch.columns.map((c) => label('zh-CN', c.labelKey)));
    const released = label('en-US', `code.purchaseOrderStatus.${code('purchaseOrderStatus', 'released')}`);
    expect(rows.length).toBe((await listAll('orders', sup01, { ...ALL, status: [code('purchaseOrderStatus', 'released')] })).total);
    expect(rows.every((c) => c[col('status')] === released)).toBe(true);
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(r.headers['content-disposition'] as string)![1])).toMatch(/^Order search-\d{8}-\d{6}\.xlsx$/);
  });

  it('filters and sort as the list API, with its codes', async () => {
    const f = { orderNo_like: 'P2026', orderType: code('purchaseOrderType', metadata.codeTables.purchaseOrderType.values[0].key) };
    const { rows } = await exportSheet(exportUrl('orders', { screen: 'orderSearch', filter: f, sort: ['releaseDate', 'DESC'] }), sup01);
    const list = await listAll('orders', sup01, f, ['releaseDate', 'DESC']);
    expect(rows.map((c) => `${c[col('orderNo')]}/${c[col('itemNo')]}`)).toEqual(list.records.map((x) => `${x.orderNo}/${x.itemNo}`));
    const bad = async (filter: unknown, sort: string | undefined, code: string) => {
      const p = new URLSearchParams({ screen: 'orderSearch', filter: typeof filter === 'string' ? filter : JSON.stringify(filter) });
      if (sort) p.set('sort', sort);
      const r = await get(`/api/orders/export?${p}`, sup01);
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json().code).toBe(code);
    };
    await bad({ nope: 1 }, undefined, 'error.unknownFilter');
    await bad({ orderNo_gte: 'P' }, undefined, 'error.unknownFilter');
    await bad(ALL, JSON.stringify(['deliveryPlace', 'ASC']), 'error.unknownSortField');
    await bad('{not json', undefined, 'error.malformedQuery');
    await bad(ALL, '["orderNo"]', 'error.malformedQuery');
  });

  it('requireFilter: the screen needs a search condition of the caller (fixed filters and includeDeleted are none)', async () => {
    expect(orderSearch.requireFilter).toBe(true);
    for (const filter of [undefined, {}, { orderNo_like: '' }, { status: [] }]) {
      const r = await get(exportUrl('orders', { screen: 'orderSearch', ...(filter ? { filter } : {}) }), sup01);
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('error.searchConditionRequired');
    }
    // orderShip has no such flag: its fixed filter alone is enough
    const ship = screenOf('orderShip');
    expect(ship.requireFilter).toBe(false);
    expect((await get(exportUrl('orders', { screen: 'orderShip' }), sup01)).statusCode).toBe(200);
  });
});

describe('screen filters', () => {
  it("applies the screen's fixedFilter whatever the client sends", async () => {
    const screen = screenOf('orderConfirm');
    const [field, value] = Object.entries(screen.fixedFilter)[0];
    const { rows } = await exportSheet(exportUrl('orders', { screen: 'orderConfirm', tz: 'UTC' }), sup01);
    const list = await listAll('orders', sup01, { [field]: value });
    expect(rows.length).toBe(list.total);
    expect(rows.length).toBeGreaterThan(0);
    const i = screen.columns.findIndex((c) => c.field === field);
    if (i >= 0) expect(new Set(rows.map((c) => c[i]))).toEqual(new Set([label('zh-CN', `code.purchaseOrderStatus.${value}`)]));
    // a client filter for another status cannot widen it: nothing matches both
    const other = metadata.codeTables.purchaseOrderStatus.values.find((v) => v.code !== value)!.code;
    expect((await exportSheet(exportUrl('orders', { screen: 'orderConfirm', filter: { status: other } }), sup01)).rows).toEqual([]);
  });

  it('tab=<key> (or index) selects the tab filter; an unknown tab is a 400', async () => {
    const screen = screenOf('consultingList');
    expect(screen.tabs.length).toBeGreaterThan(1);
    const statusCol = screen.columns.findIndex((c) => c.field === 'status');
    let total = 0;
    for (const [i, tab] of screen.tabs.entries()) {
      const byKey = await exportSheet(exportUrl('settlement-lines', { screen: 'consultingList', tab: tab.key }), staff);
      const byIndex = await exportSheet(exportUrl('settlement-lines', { screen: 'consultingList', tab: String(i) }), staff);
      expect(byIndex.rows).toEqual(byKey.rows);
      const list = await listAll('settlement-lines', staff, tab.filter);
      expect(byKey.rows.length).toBe(list.total);
      const expected = label('zh-CN', `code.settlementLineStatus.${tab.filter.status as string}`);
      expect(byKey.rows.every((c) => c[statusCol] === expected)).toBe(true);
      total += byKey.rows.length;
    }
    expect(total).toBe((await listAll('settlement-lines', staff, {})).total);
    const r = await get(exportUrl('settlement-lines', { screen: 'consultingList', tab: 'nope' }), staff);
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('error.malformedQuery');
  });
});

describe('refusals', () => {
  it('no token: 401; the static /export wins over /:id', async () => {
    const r = await get(exportUrl('orders', { screen: 'orderSearch', filter: ALL }));
    expect(r.statusCode).toBe(401);
    expect(r.json().code).toBe('error.unauthorized');
    // GET /:id still answers records
    const one = (await listAll('orders', sup01, { orderNo_like: 'P2026' })).records[0];
    const byId = await get(`/api/orders/${one.id as number}`, sup01);
    expect(byId.statusCode).toBe(200);
    expect(byId.json().orderNo).toBe(one.orderNo);
  });

  it('the screen must be given, exist, belong to the resource and offer export', async () => {
    const missing = await get(`/api/orders/export?filter=${encodeURIComponent(JSON.stringify(ALL))}`, sup01, { 'accept-language': 'en-US' });
    expect(missing.statusCode).toBe(400);
    // the answer names the missing parameter, in the caller's language
    expect(missing.json()).toMatchObject({ code: 'error.missingParameter', message: 'The query parameter "screen" is required' });
    const zh = await get(`/api/orders/export?screen=&filter=${encodeURIComponent(JSON.stringify(ALL))}`, sup01, { 'accept-language': 'zh-CN' });
    expect(zh.json()).toMatchObject({ code: 'error.missingParameter', message: '缺少查询参数“screen”' });
    for (const url of [exportUrl('orders', { screen: 'nope', filter: ALL }), exportUrl('notices', { screen: 'orderSearch', filter: ALL })]) {
      const r = await get(url, sup01);
      expect(r.statusCode).toBe(404);
      expect(r.json().code).toBe('error.notFound');
    }
    // noticeList (role sys) has no export button: refused even for its own role
    const noticeList = screenOf('noticeList');
    expect(noticeList.buttons).not.toContain('export');
    const r = await get(exportUrl('notices', { screen: 'noticeList' }), supadmin);
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('error.forbidden');
    // a screen of another role
    const wrongRole = await get(exportUrl('orders', { screen: 'orderSearch', filter: ALL }), supadmin);
    expect(wrongRole.statusCode).toBe(403);
  });

  it('claim screens need a claim warehouse', async () => {
    const pdc02 = await login(t.app, 'sup01', 'PDC02');
    const r = await get(exportUrl('claims', { screen: 'claimList' }), pdc02);
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('error.notClaimWarehouse');
    expect((await get(exportUrl('claims', { screen: 'claimList' }), sup01)).statusCode).toBe(200);
  });

  it("a screen of the caller's role over records it may not read is refused (the interface log is internal staff's)", async () => {
    const s = screenOf('interfaceLog');
    expect(s.roles).toContain('user');
    expect(s.buttons).toContain('export');
    const r = await get(exportUrl('interface-messages', { screen: 'interfaceLog' }), sup01);
    expect(r.statusCode).toBe(403);
    expect(r.json().code).toBe('error.forbidden');
    expect((await get(exportUrl('interface-messages', { screen: 'interfaceLog' }), staff)).statusCode).toBe(200);
  });

  it('bad tz is a 400; a time zone shifts date-times', async () => {
    const bad = await get(exportUrl('orders', { screen: 'orderSearch', filter: ALL, tz: 'Mars/Olympus' }), sup01);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('error.malformedQuery');
    const utc = await exportSheet(exportUrl('orders', { screen: 'orderSearch', filter: ALL, tz: 'UTC' }), sup01);
    const sh = await exportSheet(exportUrl('orders', { screen: 'orderSearch', filter: ALL, tz: 'Asia/Shanghai' }), sup01);
    const i = utc.rows.findIndex((c) => c[col('receiveTime')]);
    const plus8 = new Date(Date.parse(`${String(utc.rows[i][col('receiveTime')]).replace(' ', 'T')}Z`) + 8 * 3600_000)
      .toISOString()
      .slice(0, 19)
      .replace('T', ' ');
    expect(sh.rows[i][col('receiveTime')]).toBe(plus8);
    // plain dates do not move
    expect(sh.rows[i][col('releaseDate')]).toBe(utc.rows[i][col('releaseDate')]);
  });

  it('more rows than the cap: 400 error.rangeTooLarge before anything is streamed', async () => {
    const capped = await build({ same: t, seed: false, app: { exportMaxRows: 5 } });
    try {
      const token = await login(capped.app, 'sup01');
      const r = await capped.app.inject({ method: 'GET', url: exportUrl('orders', { screen: 'orderSearch', filter: ALL }), headers: bearer(token) });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ code: 'error.rangeTooLarge' });
      expect(capped.app.db.snapshotsInUse).toBe(0);
    } finally {
      await capped.app.close();
    }
  });
});

describe('cells', () => {
  const field = (type: CompiledField['type'], extra: Partial<CompiledField> = {}) =>
    ({
      name: 'x',
      column: 'x',
      type,
      labelKey: 'field.common.remarks',
      required: false,
      unique: false,
      readOnly: false,
      createOnly: false,
      private: false,
      rules: [],
      filter: [],
      sort: false,
      search: false,
      system: false,
      ...extra,
    }) as CompiledField;
  const cell = (f: CompiledField, v: unknown, locale: Locale = 'zh-CN', format?: 'date' | 'datetime' | 'money', tz = 'Asia/Shanghai') =>
    columnConverter(f, { field: 'x', labelKey: f.labelKey, ...(format ? { format } : {}) }, locale, wallClock(tz)).convert(v);

  it("booleans as export.yes / export.no in the caller's language; null stays empty", () => {
    const b = field('boolean');
    expect([cell(b, 1), cell(b, 0), cell(b, null)]).toEqual([label('zh-CN', 'export.yes'), label('zh-CN', 'export.no'), null]);
    expect([cell(b, 1, 'en-US'), cell(b, 0, 'en-US')]).toEqual(['Yes', 'No']);
    expect(label('zh-CN', 'export.yes')).toBe('是');
  });

  it('dates as yyyy-MM-dd, date-times as yyyy-MM-dd HH:mm:ss in the time zone, numbers numeric, codes as labels', () => {
    expect(cell(field('date'), '2026-03-01')).toBe('2026-03-01');
    expect(cell(field('datetime'), '2026-03-01T17:30:05.000Z')).toBe('2026-03-02 01:30:05');
    expect(cell(field('datetime'), '2026-03-01T17:30:05.000Z', 'zh-CN', 'date')).toBe('2026-03-02');
    expect(cell(field('datetime'), '2026-07-01T12:00:00.000Z', 'zh-CN', undefined, 'Europe/Berlin')).toBe('2026-07-01 14:00:00');
    expect(cell(field('datetime'), '2026-01-01T12:00:00.000Z', 'zh-CN', undefined, 'Europe/Berlin')).toBe('2026-01-01 13:00:00');
    expect(cell(field('decimal'), 12.5, 'zh-CN', 'money')).toBe(12.5);
    expect(cell(field('decimal'), '3.25')).toBe(3.25);
    expect(cell(field('integer'), null)).toBe(null);
    const status = field('code', { codeTable: 'purchaseOrderStatus' });
    expect(cell(status, '0', 'en-US')).toBe(label('en-US', 'code.purchaseOrderStatus.0'));
    expect(cell(status, 'zz')).toBe('zz');
    expect(cell(field('string'), 'abc')).toBe('abc');
  });
});

describe('streaming', () => {
  it('a client that disconnects stops the export and frees its connection', async () => {
    // 60,000 more orders of S001 so that the export outlives the client's patience
    const e = metadata.entities.order;
    const cols = e.fieldOrder.filter((n) => n !== 'id').map((n) => `"${e.fields[n].column}"`);
    const db = t.app.db;
    const base = Number((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM "order" WHERE direct_supplier_code = 'S001' AND warehouse_code = 'PDC01'`))!.n);
    await db.exec(`WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ${Math.ceil(60_000 / base)})
      INSERT INTO "order" (${cols.join(', ')}) SELECT ${cols.map((c) => (c === '"order_no"' ? `"order_no" || 'X' || k.n` : c)).join(', ')}
      FROM "order", k WHERE direct_supplier_code = 'S001' AND warehouse_code = 'PDC01' LIMIT 60000`);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    let inUseWhilePaused = -1;
    const received = await new Promise<number>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: exportUrl('orders', { screen: 'orderSearch', filter: ALL }), headers: bearer(sup01) }, (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', (c: Buffer) => {
          res.pause(); // a slow client: the server must wait, not buffer
          setTimeout(() => {
            inUseWhilePaused = t.app.db.snapshotsInUse;
            req.destroy();
            resolve(c.length);
          }, 300);
        });
      });
      req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    });
    expect(received).toBeGreaterThan(0);
    // still running (waiting for the client) when the client went away
    expect(inUseWhilePaused).toBe(1);
    for (let i = 0; i < 100 && t.app.db.snapshotsInUse > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(t.app.db.snapshotsInUse).toBe(0);
    // and the server is fine afterwards
    const r = await get(listUrl('orders', { range: [0, 0] }), sup01);
    expect(r.statusCode).toBe(200);
  });

  it('the stream writer: 100,000 rows with bounded memory, readable back', async () => {
    const N = 100_000;
    const header = ['文本 Text', 'Number', 'Bool', 'Date', 'Empty', 'Escaped'];
    const w = new XlsxStreamWriter({
      sheetName: 'Bench: 100k/rows',
      header,
      columns: [{ width: 20, style: 'text' }, { style: 'money' }, {}, { style: 'text' }, {}, {}],
    });
    const chunks: Buffer[] = [];
    w.stream.on('data', (c: Buffer) => chunks.push(c));
    const run = await streamRows(w, N, (i) => [
      `订单 ${String(i).padStart(8, '0')}`,
      i * 1.25,
      i % 2 === 0,
      `2026-01-${String((i % 28) + 1).padStart(2, '0')}`,
      null,
      i % 1000 === 0 ? ` <a & "b"> \u0001 ` : 'x',
    ]);
    const bytes = chunks.reduce((n, c) => n + c.length, 0);
    console.log(
      `xlsx-stream: ${N} rows in ${run.ms.toFixed(0)} ms, ${(bytes / 1e6).toFixed(1)} MB; ${run.peaks} (the ${(bytes / 1e6).toFixed(1)} MB collected by this test included)`,
    );
    expect(w.rowCount).toBe(N);

    const sheet = readFirstSheet(Buffer.concat(chunks));
    expect(sheet.name).toBe('Bench  100k rows');
    expect(sheet.rows).toHaveLength(N + 1);
    expect(sheet.rows[0].cells).toEqual(header);
    expect(sheet.rows[1].cells).toEqual(['订单 00000000', 0, true, '2026-01-01', null, ' <a & "b">  ']);
    expect(sheet.rows[N].cells).toEqual([
      `订单 ${String(N - 1).padStart(8, '0')}`,
      (N - 1) * 1.25,
      false,
      `2026-01-${String(((N - 1) % 28) + 1).padStart(2, '0')}`,
      null,
      'x',
    ]);
  });

  it('the stream writer: 100,000 rows as wide as orderSearch (21 columns), consumed as they come', async () => {
    const N = 100_000;
    const w = new XlsxStreamWriter({ sheetName: 'wide', header: Array.from({ length: 21 }, (_, i) => `列 ${i}`) });
    let bytes = 0;
    w.stream.on('data', (c: Buffer) => (bytes += c.length));
    const run = await streamRows(w, N, (i) => [
      `P2026${String(i).padStart(8, '0')}`,
      i % 50,
      `04E-521-${i % 997}-A`,
      '常规订单',
      100 + (i % 30),
      5,
      3,
      2,
      10,
      '2026-03-01',
      '2026-02-11',
      '2026-02-11 08:31:22',
      '上海配件中心 D区6号收货口',
      '专用包装',
      '第三方物流配送',
      '已关闭',
      'PDC01',
      'S001',
      'S001',
      'S001',
      i % 7,
    ]);
    console.log(`xlsx-stream, 21 columns: ${N} rows in ${run.ms.toFixed(0)} ms (cpu ${run.cpuMs.toFixed(0)} ms), ${(bytes / 1e6).toFixed(1)} MB; ${run.peaks}`);
    expect(w.rowCount).toBe(N);
    expect(bytes).toBeGreaterThan(1e6);
  });

  it('the stream writer stops when its consumer goes away', async () => {
    const w = new XlsxStreamWriter({ sheetName: 's', header: ['a'] });
    let stopped = false;
    w.onAbort(() => (stopped = true));
    w.addRow(['x']);
    w.flush();
    w.stream.destroy();
    await w.ready();
    expect(w.aborted).toBe(true);
    expect(stopped).toBe(true);
    expect(() => w.addRow(['y'])).toThrow();
  });
});

/**
 * Writes n rows through the stream writer as the export route does (flushing when it asks) and
 * answers the time, the CPU and the memory peaks above the start (the caller consumes the stream).
 */
async function streamRows(w: XlsxStreamWriter, n: number, rowOf: (i: number) => CellValue[]) {
  const ended = new Promise((resolve, reject) => w.stream.on('end', resolve).on('error', reject));
  global.gc?.();
  const start = process.memoryUsage();
  let peakHeap = start.heapUsed;
  let peakRss = start.rss;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    w.addRow(rowOf(i));
    if (w.wantsFlush) {
      w.flush();
      await w.ready();
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    }
  }
  w.end();
  await ended;
  const cpu = process.cpuUsage(cpu0);
  const mb = (b: number) => (b / 1e6).toFixed(1);
  return {
    ms: performance.now() - started,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peaks: `heap peak +${mb(peakHeap - start.heapUsed)} MB, rss peak +${mb(peakRss - start.rss)} MB`,
  };
}
