/**
 * Report forms and task details (issue 9 point 8): the settlement report is a view entity (totals
 * of the settlement lines per supplier, period and status, metadata "view"), listed, filtered and
 * exported like any list, read-only, within the supplier's scope, and it follows the lines as they
 * move; each settlement order's lines (task details) are its children.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadata, messages } from '../../server/generated/index.ts';
import { readFirstSheet } from '../../server/documents/xlsx.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { bearer, build, code, listUrl, login, type TestApp } from './helpers.ts';

let t: TestApp;
let sup: string;
let staff: string;
beforeAll(async () => {
  t = await build();
  [sup, staff] = [await login(t.app, 'sup01'), await login(t.app, 'staff01')];
});
afterAll(() => t.close());

const get = (url: string, tok: string, lang = 'en-US') => t.app.inject({ method: 'GET', url, headers: { ...bearer(tok), 'accept-language': lang } });
type Row = { id: number; supplierCode: string; period: string; status: string; lineCount: number; totalQty: number; totalAmount: number };
const report = async (tok: string, filter: Record<string, unknown> = {}) => {
  const r = await get(listUrl('settlement-reports', { filter, sort: ['period', 'DESC'], range: [0, 499] }), tok);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as Row[];
};
/** the same totals computed from the lines themselves */
async function expected(supplier?: string): Promise<Map<string, { n: number; qty: number; amount: number }>> {
  const rows = await t.app.db.all<{ supplier_code: string; period: string; status: string; qty: number; amount: number }>(
    `SELECT supplier_code, period, status, qty, amount FROM settlement_line${supplier ? ' WHERE supplier_code = ?' : ''}`,
    supplier ? [supplier] : [],
  );
  const out = new Map<string, { n: number; qty: number; amount: number }>();
  for (const r of rows) {
    const k = `${r.supplier_code}|${r.period}|${r.status}`;
    const v = out.get(k) ?? { n: 0, qty: 0, amount: 0 };
    out.set(k, { n: v.n + 1, qty: v.qty + Number(r.qty ?? 0), amount: Math.round((v.amount + Number(r.amount)) * 100) / 100 });
  }
  return out;
}
const asMap = (rows: Row[]) =>
  new Map(rows.map((r) => [`${r.supplierCode}|${r.period}|${r.status}`, { n: r.lineCount, qty: r.totalQty, amount: r.totalAmount }]));

describe('the settlement report', () => {
  it('totals the lines per supplier, period and status; a supplier sees its own only', async () => {
    const all = await report(staff);
    expect(all.length).toBeGreaterThan(3);
    expect(asMap(all)).toEqual(await expected());
    expect(new Set(all.map((r) => r.supplierCode))).toEqual(new Set(['S001', 'S002']));
    const mine = await report(sup);
    expect(asMap(mine)).toEqual(await expected('S001'));
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
  });

  it('filters by period and status, and moves with the lines', async () => {
    const period = '2030-01';
    const ids = await RowWriter.write(t.app.db, metadata, (w) =>
      [1, 2, 3].map((i) =>
        w.insert('settlementLine', {
          period,
          supplierCode: 'S001',
          originalPartsCode: `OP-${i}`,
          feePartsCode: `FP-${i}`,
          qty: i,
          unitFee: 10.1,
          amount: 10.1 * i,
          status: code('settlementLineStatus', 'toBeSettled'),
        }),
      ),
    );
    expect(await report(sup, { period })).toMatchObject([
      { supplierCode: 'S001', period, status: code('settlementLineStatus', 'toBeSettled'), lineCount: 3, totalQty: 6, totalAmount: 60.6 },
    ]);
    const init = await t.app.inject({ method: 'POST', url: '/api/settlement-lines/actions/initiate', headers: bearer(sup), payload: { ids: ids.slice(0, 2) } });
    expect(init.statusCode, init.body).toBe(200);
    const after = await report(sup, { period, status: [code('settlementLineStatus', 'toBeSettled'), code('settlementLineStatus', 'inProgress')] });
    const byStatus = new Map(after.map((r) => [r.status, [r.lineCount, r.totalAmount]]));
    expect(byStatus).toEqual(
      new Map([
        [code('settlementLineStatus', 'inProgress'), [2, 30.3]],
        [code('settlementLineStatus', 'toBeSettled'), [1, 30.3]],
      ]),
    );
    // the order's task details: its lines
    const sid = init.json().data[0].settlementId;
    const lines = (await get(listUrl('settlement-lines', { filter: { settlementId: sid } }), sup)).json();
    expect(lines.map((l: { id: number }) => l.id).sort()).toEqual(ids.slice(0, 2).sort());
  });

  it("exports the screen's columns with totals, in the caller's language", async () => {
    const s = metadata.screens.find((x) => x.name === 'consultingReport')!;
    const r = await get(
      `/api/settlement-reports/export?screen=consultingReport&filter=${encodeURIComponent(JSON.stringify({ period: '2030-01' }))}`,
      sup,
      'zh-CN',
    );
    expect(r.statusCode, r.body.slice(0, 200)).toBe(200);
    const sheet = readFirstSheet(r.rawPayload);
    expect(sheet.rows[0].cells).toEqual(s.columns.map((c) => messages['zh-CN'][c.labelKey]));
    const body = sheet.rows.slice(1).map((x) => x.cells);
    expect(body).toHaveLength(2);
    expect(body.map((c) => c[s.columns.findIndex((x) => x.field === 'totalAmount')]).sort()).toEqual([30.3, 30.3]);
    expect(body.map((c) => c[s.columns.findIndex((x) => x.field === 'status')]).sort()).toEqual(
      [
        messages['zh-CN'][`code.settlementLineStatus.${code('settlementLineStatus', 'inProgress')}`],
        messages['zh-CN'][`code.settlementLineStatus.${code('settlementLineStatus', 'toBeSettled')}`],
      ].sort(),
    );
  });

  it('is read-only', async () => {
    const [row] = await report(sup);
    expect((await t.app.inject({ method: 'POST', url: '/api/settlement-reports', headers: bearer(staff), payload: { period: '2030-02' } })).statusCode).toBe(
      403,
    );
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/settlement-reports/${row.id}`, headers: bearer(sup), payload: { period: '2030-02' } })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/settlement-reports/${row.id}`, headers: bearer(staff) })).statusCode).toBe(403);
    expect((await get(`/api/settlement-reports/${row.id}`, sup)).json()).toMatchObject({ id: row.id, period: row.period });
  });
});
