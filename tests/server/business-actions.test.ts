/**
 * The hand-written handlers behind declared actions: order confirm and ship (with a concurrency
 * test: parallel ship calls never ship more than was ordered), DFS ship with history, stock
 * adjustment audit, settlement initiate / agree / reject / objection (account administration: accounts.test.ts).
 * Rows are made here (not taken from the demo data) so every expectation is exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, build, code, login, multipart, PDF, type TestApp } from './helpers.ts';
import { numbering, orderLine, writeRow, type Values } from './rows.ts';

let t: TestApp;
let sup: string;
let sup2: string;
let staff: string;

beforeAll(async () => {
  t = await build();
  sup = await login(t.app, 'sup01');
  sup2 = await login(t.app, 'sup02');
  staff = await login(t.app, 'staff01');
});
afterAll(() => t.close());

const post = (url: string, token: string, payload: unknown = {}, lang = 'en-US') =>
  t.app.inject({ method: 'POST', url, headers: { ...bearer(token), 'accept-language': lang }, payload: payload as object });
const insert = (entity: string, values: Values) => writeRow(t.app.db, entity, values);
const orderNo = numbering('PT');
const order = (values: Values = {}) => insert('order', orderLine(orderNo(), values));
const row = async (table: string, id: number) => (await t.app.db.get(`SELECT * FROM ${table} WHERE id = ?`, [id]))!;

describe('purchase order lines', () => {
  it('confirm sets this-shipment qty; confirming twice answers "order already confirmed"', async () => {
    const id = await order();
    const r = await post(`/api/orders/${id}/actions/confirm`, sup, { thisShipmentQty: 6 });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: code('purchaseOrderStatus', 'confirmed'), thisShipmentQty: 6, confirmedBy: 'sup01' });
    const again = await post(`/api/orders/${id}/actions/confirm`, sup, { thisShipmentQty: 6 });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('error.orderAlreadyConfirmed');
  });

  it('confirm refuses a quantity above the order and a non-positive one', async () => {
    const id = await order();
    const big = await post(`/api/orders/${id}/actions/confirm`, sup, { thisShipmentQty: 11 });
    expect(big.statusCode).toBe(409);
    expect(big.json().code).toBe('error.shipQtyExceeded');
    const zero = await post(`/api/orders/${id}/actions/confirm`, sup, { thisShipmentQty: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().errors.thisShipmentQty).toBe('rule.positiveInteger');
  });

  it('ship accumulates partial shipments and finishes the line when nothing is left', async () => {
    const id = await order({ status: code('purchaseOrderStatus', 'confirmed'), thisShipmentQty: 10 });
    const a = await post(`/api/orders/${id}/actions/ship`, sup, { shipQty: 4 });
    expect(a.json()).toMatchObject({ shippedQty: 4, unsentQty: 6, status: code('purchaseOrderStatus', 'confirmed') });
    const over = await post(`/api/orders/${id}/actions/ship`, sup, { shipQty: 7 });
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('error.shipQtyExceeded');
    const b = await post(`/api/orders/${id}/actions/ship`, sup, { shipQty: 6 });
    expect(b.json()).toMatchObject({ shippedQty: 10, unsentQty: 0, status: code('purchaseOrderStatus', 'shipped') });
    expect((await post(`/api/orders/${id}/actions/ship`, sup, { shipQty: 1 })).statusCode).toBe(409);
  });

  it('N parallel ship calls on one line never ship more than the open quantity', async () => {
    const id = await order({ status: code('purchaseOrderStatus', 'confirmed'), orderQty: 10, unsentQty: 10 });
    const calls = Array.from({ length: 40 }, () => post(`/api/orders/${id}/actions/ship`, sup, { shipQty: 1 }));
    const res = await Promise.all(calls);
    const ok = res.filter((r) => r.statusCode === 200).length;
    const refused = res.filter((r) => r.statusCode === 409).length;
    expect(ok).toBe(10);
    expect(refused).toBe(30);
    expect(await row('"order"', id)).toMatchObject({ shipped_qty: 10, unsent_qty: 0, version: 11 });
    const audit = (await t.app.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM audit_entry WHERE resource = 'orders' AND record_id = ? AND operation = 'action:ship'`,
      [id],
    ))!;
    expect(audit.n).toBe(10);
  });

  it('bulk ship is all or nothing', async () => {
    const a = await order({ status: code('purchaseOrderStatus', 'confirmed') });
    const b = await order({ status: code('purchaseOrderStatus', 'confirmed'), orderQty: 2, unsentQty: 2 });
    const r = await post('/api/orders/actions/ship', sup, { ids: [a, b], shipQty: 3 });
    expect(r.statusCode).toBe(409);
    expect((await row('"order"', a)).shipped_qty).toBe(0);
    const ok = await post('/api/orders/actions/ship', sup, { ids: [a, b], shipQty: 2 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe('Shipped successfully!');
  });

  it('another supplier cannot confirm or ship the line (404), internal staff may not (403)', async () => {
    const id = await order();
    expect((await post(`/api/orders/${id}/actions/confirm`, sup2, { thisShipmentQty: 1 })).statusCode).toBe(404);
    expect((await post(`/api/orders/${id}/actions/confirm`, staff, { thisShipmentQty: 1 })).statusCode).toBe(403);
    expect((await row('"order"', id)).status).toBe(code('purchaseOrderStatus', 'released'));
  });
});

describe('DFS orders', () => {
  it('ship writes a history row, updates quantities and names the order/part at fault', async () => {
    const id = await insert('dfsOrder', {
      dealerCode: 'D100',
      dealerName: '上海一号店',
      dealerOrderNo: 'SA2026110001',
      purchaseOrderNo: 'P2026110001',
      partsCode: '1K0-199-262',
      orderQty: 5,
      sentQty: 0,
      unsentQty: 5,
      shipStatus: code('dfsShipStatus', 'wait'),
      originalSupplierCode: 'S001',
      purchaseSupplierCode: 'S001',
      warehouseCode: 'PDC01',
    });
    const r = await post(`/api/dfs-orders/${id}/actions/ship`, sup, { shipQty: 2 });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ sentQty: 2, unsentQty: 3, shipStatus: code('dfsShipStatus', 'partial') });
    const hist = await t.app.db.all(`SELECT ship_qty, dealer_order_no FROM dfs_shipment WHERE dfs_order_id = ?`, [id]);
    expect(hist).toEqual([{ ship_qty: 2, dealer_order_no: 'SA2026110001' }]);
    const bad = await post(`/api/dfs-orders/${id}/actions/ship`, sup, { shipQty: 4 });
    expect(bad.statusCode).toBe(409);
    expect(bad.json().message).toContain('SA2026110001/1K0-199-262');
    const done = await post(`/api/dfs-orders/${id}/actions/ship`, sup, { shipQty: 3 });
    expect(done.json().shipStatus).toBe(code('dfsShipStatus', 'finished'));
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/dfs-shipments?filter=${encodeURIComponent(JSON.stringify({ dfsOrderId: id }))}`,
      headers: bearer(sup),
    });
    expect(list.json()).toHaveLength(2);
  });
});

describe('difference adjustments', () => {
  // an adjustment names a part of the supplier's child-part stock (metadata lookup): two parts with none in stock
  const stockOf = (partsCode: string) =>
    insert('childPartStock', {
      partsCode,
      supplierCode: 'S001',
      warehouseCode: 'PDC01',
      demandQty: 0,
      stockQty: 0,
      availableQty: 0,
      totalStockQty: 0,
      abnormalStockQty: 0,
      waitingShipQty: 0,
      shortageQty: 0,
    });

  it('supplier saves (numbered, from the session) and submits; staff adjusts the stock', async () => {
    await stockOf('C-100');
    const created = await post('/api/stock-adjustments', sup, {
      partsCode: 'C-100',
      partsDescription: '垫片',
      adjustQty: 5,
      adjustType: code('adjustType', 'adjustAccount'),
      reason: '盘点差异',
    });
    expect(created.statusCode, created.body).toBe(201);
    const a = created.json();
    expect(a.billNo).toMatch(/^TZ\d{8}\d{6}$/);
    expect(a).toMatchObject({
      supplierCode: 'S001',
      supplierName: '华东汽车零部件有限公司',
      warehouseCode: 'PDC01',
      status: code('stockAdjustStatus', 'unsubmitted'),
    });
    expect((await post(`/api/stock-adjustments/${a.id}/actions/adjust`, staff, {})).statusCode).toBe(409);
    const sub = await post(`/api/stock-adjustments/${a.id}/actions/submit`, sup, {});
    expect(sub.json().status).toBe(code('stockAdjustStatus', 'unaudited'));
    const edit = await t.app.inject({
      method: 'PUT',
      url: `/api/stock-adjustments/${a.id}`,
      headers: bearer(sup),
      payload: { ...(sub.json() as object), adjustQty: 9 },
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().code).toBe('error.editNotAllowed');
    const adj = await post(`/api/stock-adjustments/${a.id}/actions/adjust`, staff, { auditNote: '同意' });
    expect(adj.statusCode, adj.body).toBe(200);
    expect(adj.json().status).toBe(code('stockAdjustStatus', 'adjust'));
    const stock = await t.app.db.get(
      `SELECT stock_qty FROM child_part_stock WHERE supplier_code = 'S001' AND warehouse_code = 'PDC01' AND parts_code = 'C-100'`,
    );
    expect(stock).toEqual({ stock_qty: 5 });
  });

  it('a negative adjustment below zero stock is refused and nothing changes', async () => {
    await stockOf('C-200');
    const a = (
      await post('/api/stock-adjustments', sup, { partsCode: 'C-200', adjustQty: -3, adjustType: code('adjustType', 'scrap'), reason: '报废' })
    ).json();
    await post(`/api/stock-adjustments/${a.id}/actions/submit`, sup, {});
    const r = await post(`/api/stock-adjustments/${a.id}/actions/adjust`, staff, {});
    expect(r.statusCode).toBe(409);
    expect(r.json().code).toBe('error.insufficientStock');
    expect((await row('stock_adjustment', a.id)).status).toBe(code('stockAdjustStatus', 'unaudited'));
  });
});

describe('consulting-fee settlement', () => {
  function line(supplier: string, amount: number): Promise<number> {
    return insert('settlementLine', {
      period: '2026-10',
      supplierCode: supplier,
      originalPartsCode: 'OP-1',
      feePartsCode: 'FP-1',
      qty: 1,
      unitFee: amount,
      amount,
      status: code('settlementLineStatus', 'toBeSettled'),
    });
  }
  it('initiate groups lines into a numbered order; reject sends them back; the objection takes them again; agree settles', async () => {
    const ids = [await line('S001', 100.5), await line('S001', 200.25)];
    const init = await post('/api/settlement-lines/actions/initiate', sup, { ids });
    expect(init.statusCode, init.body).toBe(200);
    const sid = init.json().data[0].settlementId as number;
    const s = await row('settlement', sid);
    expect(s).toMatchObject({ line_count: 2, total_amount: 300.75, approval_status: code('settlementApprovalStatus', 'pending'), supplier_code: 'S001' });
    expect(String(s.settlement_no)).toMatch(/^JS\d{14}$/);
    const noOpinion = await post(`/api/settlements/${sid}/actions/reject`, staff, {});
    expect(noOpinion.statusCode).toBe(400);
    expect(noOpinion.json().errors.opinion).toBe('validation.required');
    expect((await post(`/api/settlements/${sid}/actions/reject`, staff, { opinion: '金额有误' })).statusCode).toBe(200);
    expect(await Promise.all(ids.map(async (i) => (await row('settlement_line', i)).status))).toEqual([
      code('settlementLineStatus', 'toBeSettled'),
      code('settlementLineStatus', 'toBeSettled'),
    ]);
    expect((await post(`/api/settlements/${sid}/actions/rejectRejection`, sup, {})).json().errors.objection).toBe('validation.required');
    expect((await post(`/api/settlements/${sid}/actions/rejectRejection`, sup, { objection: '数量已核对无误' })).statusCode).toBe(200);
    expect(await Promise.all(ids.map(async (i) => (await row('settlement_line', i)).status))).toEqual([
      code('settlementLineStatus', 'inProgress'),
      code('settlementLineStatus', 'inProgress'),
    ]);
    const agree = await post(`/api/settlements/${sid}/actions/agree`, staff, { opinion: '同意' });
    expect(agree.json()).toMatchObject({ approvalStatus: code('settlementApprovalStatus', 'agreed'), approver: 'staff01' });
    expect(await Promise.all(ids.map(async (i) => (await row('settlement_line', i)).status))).toEqual([
      code('settlementLineStatus', 'settled'),
      code('settlementLineStatus', 'settled'),
    ]);
  });

  it('lines of another supplier cannot be initiated (404), lines already in progress cannot (409)', async () => {
    const mine = await line('S001', 1);
    const theirs = await line('S002', 1);
    expect((await post('/api/settlement-lines/actions/initiate', sup, { ids: [mine, theirs] })).statusCode).toBe(404);
    expect((await row('settlement_line', mine)).status).toBe(code('settlementLineStatus', 'toBeSettled'));
    expect((await post('/api/settlement-lines/actions/initiate', sup, { ids: [mine] })).statusCode).toBe(200);
    expect((await post('/api/settlement-lines/actions/initiate', sup, { ids: [mine] })).statusCode).toBe(409);
  });
});

describe('hazardous-chemicals receipts', () => {
  it('uploading the document makes a pending receipt "uploaded" (with its name); only then can it be confirmed', async () => {
    const id = await insert('hazardReceipt', {
      receiptNo: 'WH2026110001',
      supplierCode: 'S001',
      partsCode: 'HZ-01',
      partsName: '制动液',
      qty: 20,
      status: code('hazardReceiptStatus', 'pending'),
    });
    const early = await post(`/api/hazard-receipts/${id}/actions/confirm`, sup, {});
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe('error.documentRequired');
    // the engine-only action has no route
    expect((await post(`/api/hazard-receipts/${id}/actions/markUploaded`, sup, {})).statusCode).toBe(404);
    const m = multipart({ hazardReceiptId: String(id) }, { name: '签收单.pdf', data: PDF });
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/hazard-receipt-documents/upload',
      headers: { ...bearer(sup), ...m.headers },
      payload: m.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    expect(await row('hazard_receipt', id)).toMatchObject({ status: code('hazardReceiptStatus', 'uploaded'), document_name: '签收单.pdf' });
    const ok = await post(`/api/hazard-receipts/${id}/actions/confirm`, sup, {});
    expect(ok.json()).toMatchObject({ status: code('hazardReceiptStatus', 'confirmed'), confirmedBy: 'sup01' });
    // another supplier cannot attach a document to it
    const m2 = multipart({ hazardReceiptId: String(id) }, { name: 'x.pdf', data: PDF });
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/hazard-receipt-documents/upload',
      headers: { ...bearer(sup2), ...m2.headers },
      payload: m2.payload,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors.hazardReceiptId).toBe('validation.ref');
  });

  it('before confirmation the document may be replaced; once confirmed it is frozen (no new, replaced or deleted document)', async () => {
    const id = await insert('hazardReceipt', {
      receiptNo: 'WH2026110002',
      supplierCode: 'S001',
      partsCode: 'HZ-02',
      partsName: '冷却液',
      qty: 5,
      status: code('hazardReceiptStatus', 'pending'),
    });
    const upload = (name: string, overwrite = false) => {
      const m = multipart({ hazardReceiptId: String(id) }, { name, data: PDF });
      return t.app.inject({
        method: 'POST',
        url: `/api/hazard-receipt-documents/upload${overwrite ? '?overwrite=true' : ''}`,
        headers: { ...bearer(sup), ...m.headers },
        payload: m.payload,
      });
    };
    const first = await upload('回执.pdf');
    expect(first.statusCode, first.body).toBe(201);
    expect((await upload('回执.pdf', true)).statusCode).toBe(201);
    expect((await upload('回执2.pdf')).statusCode).toBe(201);
    expect((await post(`/api/hazard-receipts/${id}/actions/confirm`, sup, {})).statusCode).toBe(200);
    const frozen = [await upload('回执.pdf', true), await upload('新的.pdf')];
    for (const r of frozen) expect(r.statusCode, r.body).toBe(409);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/hazard-receipt-documents/${first.json().id}`, headers: bearer(sup) });
    expect([403, 409]).toContain(del.statusCode);
    const docs = await t.app.db.all(`SELECT file_name FROM hazard_receipt_document WHERE hazard_receipt_id = ? ORDER BY file_name`, [id]);
    expect(docs.map((d) => d.file_name)).toEqual(['回执.pdf', '回执2.pdf']);
  });
});
