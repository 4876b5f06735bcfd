/**
 * The server's side of the generic screen capabilities of issue 9, over real HTTP handling and a
 * real database (SQLite and PostgreSQL): inverted range filters are refused by the list and the
 * export; an exported reference column holds the referenced record's title; the logistics delivery
 * method is a code table (translated in lists and exports; old free-text rows migrated); a lookup
 * field (an adjustment's part) accepts only a record of the target within its scope; messages name
 * the limit, the field and the reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, build, code, listUrl, login, multipart, PDF, type TestApp } from './helpers.ts';
import { feeItemTemplate } from '../../server/handlers/fee-import.ts';
import { readFirstSheet } from '../../server/documents/xlsx.ts';
import { messages, metadata, migrations, tables } from '../../server/generated/index.ts';
import { migrate, type Migration } from '../../server/db/migrate.ts';
import { BACKEND } from './helpers.ts';

let t: TestApp;
let sup: string;

beforeAll(async () => {
  t = await build();
  sup = await login(t.app, 'sup01');
});
afterAll(() => t.close());

const get = (url: string, token = sup, lang = 'en-US') => t.app.inject({ method: 'GET', url, headers: { ...bearer(token), 'accept-language': lang } });

describe('range filters (spec point 5: start date must not be after end date)', () => {
  it('refuses an inverted date range on the list, in the caller language', async () => {
    const r = await get(listUrl('orders', { filter: { releaseDate_gte: '2026-12-31', releaseDate_lte: '2026-01-01' } }));
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'error.dateRange', message: 'Start date must not be after end date' });
    const zh = await get(listUrl('orders', { filter: { releaseDate_gte: '2026-12-31', releaseDate_lte: '2026-01-01' } }), sup, 'zh-CN');
    expect(zh.json().message).toBe('开始日期不能大于结束日期');
  });

  it('refuses an inverted range on a date-time column and on a number column', async () => {
    const dt = await get(listUrl('stock-adjustments', { filter: { submittedAt_gte: '2026-11-02', submittedAt_lte: '2026-11-01' } }));
    expect(dt.statusCode).toBe(400);
    expect(dt.json().code).toBe('error.dateRange');
    const n = await get(listUrl('child-part-stocks', { filter: { shortageQty_gte: 5, shortageQty_lte: -5 } }));
    expect(n.statusCode).toBe(400);
    expect(n.json().code).toBe('error.numberRange');
  });

  it('takes a one-day range, one bound alone, and a day against a date-time of that day', async () => {
    for (const filter of [
      { releaseDate_gte: '2026-11-01', releaseDate_lte: '2026-11-01' },
      { releaseDate_gte: '2026-11-01' },
      { releaseDate_lte: '2026-11-01' },
    ])
      expect((await get(listUrl('orders', { filter }))).statusCode).toBe(200);
    expect((await get(listUrl('stock-adjustments', { filter: { submittedAt_gte: '2026-11-01', submittedAt_lte: '2026-11-01T08:00:00Z' } }))).statusCode).toBe(
      200,
    );
  });

  it('refuses it on the export as well', async () => {
    const q = new URLSearchParams({ screen: 'orderConfirm', filter: JSON.stringify({ releaseDate_gte: '2026-12-31', releaseDate_lte: '2026-01-01' }) });
    const r = await get(`/api/orders/export?${q}`);
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('error.dateRange');
  });
});

describe("reference columns (a reference shows the referenced record's title field)", () => {
  it('the consulting list export shows settlement numbers, not ids, for every caller', async () => {
    const screen = metadata.screens.find((x) => x.name === 'consultingList')!;
    const col = screen.columns.findIndex((c) => c.field === 'settlementId');
    for (const user of ['sup01', 'staff01']) {
      const token = await login(t.app, user);
      const lines = (
        await get(listUrl('settlement-lines', { filter: { status: screen.tabs.find((x) => x.key === 'inProgress')!.filter.status }, range: [0, 499] }), token)
      ).json() as { settlementId: number }[];
      expect(lines.length).toBeGreaterThan(0);
      const ids = [...new Set(lines.map((l) => l.settlementId))];
      const settlements = (await get(listUrl('settlements', { filter: { id: ids } }), token)).json() as { id: number; settlementNo: string }[];
      const numberOf = new Map(settlements.map((x) => [x.id, x.settlementNo]));
      const r = await get(`/api/settlement-lines/export?${new URLSearchParams({ screen: 'consultingList', tab: 'inProgress' })}`, token);
      expect(r.statusCode, r.body).toBe(200);
      const rows = readFirstSheet(r.rawPayload)
        .rows.slice(1)
        .map((x) => x.cells);
      expect(rows.length).toBe(lines.length);
      expect(rows.every((c) => /^JS/.test(String(c[col])))).toBe(true);
      expect(new Set(rows.map((c) => c[col]))).toEqual(new Set(lines.map((l) => numberOf.get(l.settlementId))));
    }
  });
});

describe('logistics delivery method is a code table (bilingual throughout)', () => {
  const METHOD = 'logisticsDeliveryMethod';
  const labels = (locale: 'zh-CN' | 'en-US') => new Set(metadata.codeTables[METHOD].values.map((v) => v.label[locale]));

  it('the list carries codes and the export shows the labels of the caller language', async () => {
    const rows = (await get(listUrl('orders', { range: [0, 199] }))).json() as Record<string, unknown>[];
    const codes = new Set(metadata.codeTables[METHOD].values.map((v) => v.code));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => codes.has(String(r[METHOD])))).toBe(true);
    const screen = metadata.screens.find((x) => x.name === 'orderConfirm')!;
    const col = screen.columns.findIndex((c) => c.field === METHOD);
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const r = await get(`/api/orders/export?${new URLSearchParams({ screen: 'orderConfirm' })}`, sup, locale);
      expect(r.statusCode).toBe(200);
      const cells = readFirstSheet(r.rawPayload)
        .rows.slice(1)
        .map((x) => x.cells[col]);
      expect(cells.length).toBeGreaterThan(0);
      expect(cells.every((c) => labels(locale).has(String(c)))).toBe(true);
    }
  });

  it('migration 0001 turns the old free texts into codes and leaves unknown texts alone', async () => {
    const m = migrations.find((x) => x.id.startsWith('0001-')) as Migration;
    const db = t.app.db;
    const ids = ((await db.all<{ id: number }>('SELECT id FROM "order" ORDER BY id LIMIT 3')) as { id: number }[]).map((r) => Number(r.id));
    // a database of before the change: free text, the column recorded as a string, 0001 not applied
    await db.run('UPDATE "order" SET logistics_delivery_method = ? WHERE id = ?', ['快递', ids[0]]);
    await db.run('UPDATE "order" SET logistics_delivery_method = ? WHERE id = ?', ['循环取货(Milk Run)', ids[1]]);
    await db.run('UPDATE "order" SET logistics_delivery_method = ? WHERE id = ?', ['自提', ids[2]]);
    await db.run(`UPDATE _schema_columns SET field_type = 'string' WHERE table_name = 'order' AND column_name = 'logistics_delivery_method'`);
    await db.run('DELETE FROM _migrations WHERE id = ?', [m.id]);
    const report = await migrate(db, tables[BACKEND], migrations as Migration[]);
    expect(report.migrations).toEqual([m.id]);
    const after = await db.all<{ id: number; v: string }>(`SELECT id, logistics_delivery_method AS v FROM "order" WHERE id IN (?, ?, ?) ORDER BY id`, ids);
    expect(after.map((r) => r.v)).toEqual(['04', '03', '自提']);
    const type = await db.get<{ t: string }>(
      `SELECT field_type AS t FROM _schema_columns WHERE table_name = 'order' AND column_name = 'logistics_delivery_method'`,
    );
    expect(type!.t).toBe(`code:${METHOD}`);
  });
});

describe("lookup fields: an adjustment names a part of the supplier's child-part stock at this PDC", () => {
  const post = (url: string, token: string, payload: unknown, method: 'POST' | 'PUT' = 'POST', lang = 'en-US') =>
    t.app.inject({ method, url, headers: { ...bearer(token), 'accept-language': lang }, payload: payload as object });
  const mine = async (token: string) =>
    ((await get(listUrl('child-part-stocks', { range: [0, 499] }), token)).json() as { partsCode: string }[]).map((x) => x.partsCode);

  it("refuses a part that is not in stock, or only in another supplier's stock, with a message on the field", async () => {
    const sup2 = await login(t.app, 'sup02');
    const own = await mine(sup);
    const theirs = (await mine(sup2)).filter((p) => !own.includes(p));
    expect(own.length).toBeGreaterThan(0);
    expect(theirs.length).toBeGreaterThan(0);
    for (const partsCode of ['NO-SUCH-PART', theirs[0]]) {
      const r = await post('/api/stock-adjustments', sup, { partsCode, adjustQty: 5, reason: 'lookup' });
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json()).toMatchObject({ code: 'error.validation', errors: { partsCode: 'validation.notInChildPartStock' } });
    }
    const ok = await post('/api/stock-adjustments', sup, { partsCode: own[0], adjustQty: 5, reason: 'lookup' });
    expect(ok.statusCode, ok.body).toBe(201);
    // an update to a part out of stock is refused as well; zero is never an adjustment
    const moved = await post(`/api/stock-adjustments/${ok.json().id}`, sup, { ...(ok.json() as object), partsCode: 'NO-SUCH-PART' }, 'PUT');
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors).toEqual({ partsCode: 'validation.notInChildPartStock' });
    const zero = await post('/api/stock-adjustments', sup, { partsCode: own[0], adjustQty: 0, reason: 'lookup' });
    expect(zero.json().errors).toEqual({ adjustQty: 'rule.nonZero' });
  });

  it('the part must be in stock at the warehouse of the session', async () => {
    const inPdc02 = await login(t.app, 'sup01', 'PDC02');
    const here = await mine(inPdc02);
    const onlyPdc01 = (await mine(sup)).filter((p) => !here.includes(p));
    expect(onlyPdc01.length).toBeGreaterThan(0);
    const r = await post('/api/stock-adjustments', inPdc02, { partsCode: onlyPdc01[0], adjustQty: 5, reason: 'lookup' });
    expect(r.statusCode).toBe(400);
    expect(r.json().errors).toEqual({ partsCode: 'validation.notInChildPartStock' });
  });

  it("the part's description is the stock's (lookup fills), whatever the caller sends, on create and on update", async () => {
    const stocks = (await get(listUrl('child-part-stocks', { range: [0, 499] }))).json() as { partsCode: string; partsDescription: string | null }[];
    const [a, b] = stocks.filter(
      (s) => s.partsDescription && !stocks.some((o) => o !== s && o.partsCode === s.partsCode && o.partsDescription !== s.partsDescription),
    );
    expect(a.partsDescription).not.toBe(b.partsDescription);
    const made = await post('/api/stock-adjustments', sup, { partsCode: a.partsCode, partsDescription: 'typed by hand', adjustQty: 5, reason: 'fills' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().partsDescription).toBe(a.partsDescription);
    const moved = await post(
      `/api/stock-adjustments/${made.json().id}`,
      sup,
      { ...(made.json() as object), partsCode: b.partsCode, partsDescription: 'old' },
      'PUT',
    );
    expect(moved.statusCode, moved.body).toBe(200);
    const stored = (await get(`/api/stock-adjustments/${made.json().id}`)).json() as { partsCode: string; partsDescription: string };
    expect(stored).toMatchObject({ partsCode: b.partsCode, partsDescription: b.partsDescription });
  });
});

describe('messages name the limit, the field and the reason', () => {
  const LIMIT = metadata.rules.genericUpload.maxSizeKiB!;

  it('an oversize upload names the size limit, in both languages', async () => {
    const admin = await login(t.app, 'supadmin');
    const notice = (
      await t.app.inject({ method: 'POST', url: '/api/notices', headers: bearer(admin), payload: { title: `limit ${Date.now()}`, content: 'x' } })
    ).json();
    for (const [lang, text] of [
      ['en-US', `The file exceeds the size limit of ${LIMIT} KB`],
      ['zh-CN', `文件大小超出限制（最大 ${LIMIT} KB）`],
    ]) {
      const m = multipart({ noticeId: String(notice.id) }, { name: 'big.pdf', data: Buffer.concat([PDF, Buffer.alloc(LIMIT * 1024)]) });
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/notice-attachments/upload',
        headers: { ...bearer(admin), ...m.headers, 'accept-language': lang },
        payload: m.payload,
      });
      expect(r.statusCode).toBe(413);
      expect(r.json()).toMatchObject({ code: 'error.fileTooLarge', message: text });
    }
  });

  it('a fee import error names the row, the column and the reason', async () => {
    const staff = await login(t.app, 'staff01');
    const good = {
      originalPartsCode: 'MSG-0001',
      feePartsCode: 'ZX-MSG-0001',
      consultingFee: 10,
      managementRate: 0.05,
      supplierCode: 'S001',
      effectiveDate: '2026-12-01',
    };
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const fee = metadata.entities.consultingFeeItem.fields;
      const header = (f: string) => messages[lang][fee[f].labelKey];
      // the template's columns are the field labels of the caller's language; row 3 has a rate of 7
      const file = feeItemTemplate(metadata, lang, [good, { ...good, originalPartsCode: 'MSG-0002', managementRate: 7 }]);
      const m = multipart({}, { name: file.fileName, data: Buffer.from(file.body as Uint8Array) });
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/consulting-fee-items/actions/import',
        headers: { ...bearer(staff), ...m.headers, 'accept-language': lang },
        payload: m.payload,
      });
      expect(r.statusCode, r.body).toBe(400);
      const body = r.json();
      expect(body.code).toBe('error.importFailed');
      const reason = messages[lang]['rule.decimal01'];
      expect(body.message).toContain(lang === 'en-US' ? `row 3, ${header('managementRate')}: ${reason}` : `第 3 行 ${header('managementRate')}：${reason}`);
    }
  });

  it('a stale ship says which line (order/item/part) is now in which status', async () => {
    const confirmed = (await get(listUrl('orders', { filter: { status: code('purchaseOrderStatus', 'confirmed') }, range: [0, 0] }))).json()[0] as {
      id: number;
      orderNo: string;
      unsentQty: number;
    };
    const first = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${confirmed.id}/actions/ship`,
      headers: bearer(sup),
      payload: { shipQty: confirmed.unsentQty },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().status).toBe(code('purchaseOrderStatus', 'shipped'));
    // the line, not only its order (issue 20 point 5)
    const lineLabel = (metadata.entities.order.identifyBy ?? []).map((f) => String((confirmed as Record<string, unknown>)[f])).join('/');
    expect(lineLabel.split('/')).toHaveLength(3);
    for (const [lang, text] of [
      [
        'en-US',
        `${lineLabel} is now “${messages['en-US'][`code.purchaseOrderStatus.${code('purchaseOrderStatus', 'shipped')}`]}”, so “${messages['en-US']['action.order.ship'] ?? messages['en-US'][metadata.entities.order.actions.ship.labelKey]}” is not possible`,
      ],
      [
        'zh-CN',
        `${lineLabel} 当前状态为“${messages['zh-CN'][`code.purchaseOrderStatus.${code('purchaseOrderStatus', 'shipped')}`]}”，不能执行“${messages['zh-CN'][metadata.entities.order.actions.ship.labelKey]}”`,
      ],
    ]) {
      const again = await t.app.inject({
        method: 'POST',
        url: `/api/orders/${confirmed.id}/actions/ship`,
        headers: { ...bearer(sup), 'accept-language': lang },
        payload: { shipQty: 1 },
      });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'error.illegalTransition', message: text });
    }
  });
});
