/**
 * People shown by name (issue 20, point 6): a field that holds a user ID (`"holds": "userId"`)
 * keeps the ID, and every read path sends the person's name beside it as `<field>__name` (list,
 * lean list, record, the database-built JSON page) or in its place (export). A user ID no account
 * has shows as itself; a record sent back with its names is saved as if they were not there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, build, code, listUrl, loginAll, type TestApp } from './helpers.ts';
import { readFirstSheet } from '../../server/documents/xlsx.ts';
import { metadata } from '../../server/generated/index.ts';
import { personNameKey } from '../../codegen/runtime/person-name.ts';

type Rec = Record<string, unknown>;
let t: TestApp;
/** the supplier whose records these are, and the staff member who audits them */
let [sup, staff] = ['', ''];

beforeAll(async () => {
  t = await build();
  [sup, staff] = await loginAll(t.app, ['sup01', 'staff01']);
});
afterAll(() => t?.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { ...bearer(token), 'accept-language': 'en-US' }, ...(payload !== undefined ? { payload: payload as object } : {}) });
/** The name the accounts table holds for a user ID, read from the database itself. */
const nameOf = async (userId: string) => (await t.app.db.get<{ name: string }>(`SELECT name FROM account WHERE user_id = ?`, [userId]))!.name;

describe('a stock adjustment audited by staff', () => {
  let id: number;
  beforeAll(async () => {
    // a part the supplier holds stock of in the warehouse (the adjustment's lookup)
    const part = (await t.app.db.get<{ code: string }>(
      `SELECT parts_code AS code FROM child_part_stock WHERE supplier_code = 'S001' AND warehouse_code = 'PDC01' ORDER BY id LIMIT 1`,
    ))!;
    const created = await call('POST', '/api/stock-adjustments', sup, {
      partsCode: part.code,
      adjustQty: 2,
      adjustType: code('adjustType', 'adjustAccount'),
      reason: '盘点差异',
    });
    expect(created.statusCode, created.body).toBe(201);
    id = created.json().id;
    expect((await call('POST', `/api/stock-adjustments/${id}/actions/submit`, sup, {})).statusCode).toBe(200);
    // "return" records the auditor ($user) and leaves the adjustment editable by its supplier
    const r = await call('POST', `/api/stock-adjustments/${id}/actions/return`, staff, { auditNote: 'please fix' });
    expect(r.statusCode, r.body).toBe(200);
  });

  it("keeps the auditor's user ID and sends the name beside it: record (staff and supplier) and list", async () => {
    const name = await nameOf('staff01');
    expect(name).not.toBe('staff01');
    for (const token of [staff, sup]) {
      const one = (await call('GET', `/api/stock-adjustments/${id}`, token)).json() as Rec;
      expect(one).toMatchObject({ auditor: 'staff01', auditor__name: name });
      const list = await call('GET', listUrl('stock-adjustments', { filter: { billNo: one.billNo } }), token);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json()).toEqual([expect.objectContaining({ id, auditor: 'staff01', auditor__name: name })]);
    }
  });

  it('sent back unchanged (names included) saves and changes nothing but the edit; the name is never written', async () => {
    const one = (await call('GET', `/api/stock-adjustments/${id}`, sup)).json() as Rec;
    const put = await call('PUT', `/api/stock-adjustments/${id}`, sup, { ...one, reason: '盘点差异 (复核)' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ auditor: 'staff01', auditor__name: one.auditor__name, reason: '盘点差异 (复核)' });
    // a name the client changed is shown text: ignored, the ID stays
    const again = (await call('GET', `/api/stock-adjustments/${id}`, sup)).json() as Rec;
    const tampered = await call('PUT', `/api/stock-adjustments/${id}`, sup, { ...again, auditor__name: 'someone else' });
    expect(tampered.statusCode, tampered.body).toBe(200);
    expect(await t.app.db.get(`SELECT auditor FROM stock_adjustment WHERE id = ?`, [id])).toEqual({ auditor: 'staff01' });
    expect(((await call('GET', `/api/stock-adjustments/${id}`, sup)).json() as Rec).auditor__name).toBe(one.auditor__name);
  });

  it("the record's history names who did each step, and the auditor it recorded", async () => {
    const h = await call('GET', `/api/history/stock-adjustments/${id}`, sup);
    expect(h.statusCode, h.body).toBe(200);
    const entries = h.json() as { userId: string; userName: string; operation: string; changes: { field: string; after: string | null }[] }[];
    const returned = entries.find((x) => x.operation === 'action:return')!;
    expect(returned).toMatchObject({ userId: 'staff01', userName: await nameOf('staff01') });
    expect(returned.changes.find((c) => c.field === 'auditor')?.after).toBe(await nameOf('staff01'));
    expect(entries.find((x) => x.operation === 'create')).toMatchObject({ userId: 'sup01', userName: await nameOf('sup01') });
  });

  it('a user ID no account has any more shows as itself', async () => {
    await t.app.db.run(`UPDATE stock_adjustment SET auditor = ? WHERE id = ?`, ['gone01', id]);
    expect((await call('GET', `/api/stock-adjustments/${id}`, staff)).json()).toMatchObject({ auditor: 'gone01', auditor__name: 'gone01' });
    await t.app.db.run(`UPDATE stock_adjustment SET auditor = ? WHERE id = ?`, ['staff01', id]);
  });

  it('the name is no field: no filter or sort on it', async () => {
    const f = await call('GET', listUrl('stock-adjustments', { filter: { auditor__name: 'x' } }), staff);
    expect(f.statusCode).toBe(400);
    const s = await call('GET', listUrl('stock-adjustments', { sort: ['auditor__name', 'ASC'] }), staff);
    expect(s.statusCode).toBe(400);
  });
});

describe('a hazard receipt confirmed by its supplier', () => {
  let receipt: Rec;
  const screen = metadata.screens.find((s) => s.name === 'recConfirm')!;
  beforeAll(async () => {
    const r = await call('GET', listUrl('hazard-receipts', { filter: { status: code('hazardReceiptStatus', 'uploaded') }, range: [0, 0] }), sup);
    receipt = (r.json() as Rec[])[0];
    expect(receipt).toBeTruthy();
    const c = await call('POST', `/api/hazard-receipts/${receipt.id}/actions/confirm`, sup, {});
    expect(c.statusCode, c.body).toBe(200);
    expect(c.json()).toMatchObject({ confirmedBy: 'sup01', confirmedBy__name: await nameOf('sup01') });
  });

  it("carries the confirmer's name on the screen's lean page, and exports it in place of the ID", async () => {
    expect(screen.columns.map((c) => c.field)).toContain('confirmedBy');
    const name = await nameOf('sup01');
    const lean = await call('GET', `${listUrl('hazard-receipts', { filter: { receiptNo: receipt.receiptNo } })}&screen=recConfirm`, sup);
    expect(lean.statusCode, lean.body).toBe(200);
    expect(lean.json()).toEqual([expect.objectContaining({ id: receipt.id, confirmedBy: 'sup01', [personNameKey('confirmedBy')]: name })]);
    const x = await t.app.inject({
      method: 'GET',
      url: `/api/hazard-receipts/export?screen=recConfirm&filter=${encodeURIComponent(JSON.stringify({ receiptNo: receipt.receiptNo }))}`,
      headers: { ...bearer(sup), 'accept-language': 'en-US' },
    });
    expect(x.statusCode, x.body.slice(0, 300)).toBe(200);
    const rows = readFirstSheet(x.rawPayload).rows.map((r) => r.cells);
    const at = screen.columns.findIndex((c) => c.field === 'confirmedBy');
    expect(rows.length).toBe(2);
    expect(rows[1][at]).toBe(name);
  });
});
