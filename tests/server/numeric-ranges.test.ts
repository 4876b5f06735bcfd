/**
 * Every numeric field declares a range in metadata (hardening round two, point 9): bodies outside it
 * are refused with field errors naming the limit, a zero stock adjustment is refused, an audit that
 * would push a stock figure out of its range is refused (409) and changes nothing, and a new table's
 * CHECK constraint refuses an out-of-range value written past the API. Runs on SQLite and on
 * PostgreSQL (vitest projects "node" and "server-pg").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadata } from '../../server/generated/index.ts';
import { translate } from '../../server/engine/i18n.ts';
import { bearer, build, code, login, type TestApp } from './helpers.ts';
import { confirmedOrderLine, writeRow } from './rows.ts';

const QTY_MAX = 99_999_999;
const STOCK_MAX = 999_999_999;

let t: TestApp;
let sup: string;
let staff: string;

beforeAll(async () => {
  t = await build();
  sup = await login(t.app, 'sup01');
  staff = await login(t.app, 'staff01');
  // an adjustment names a part of the supplier's child-part stock (metadata lookup)
  await insert('childPartStock', {
    partsCode: STOCKED_PART,
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
});
afterAll(() => t.close());

const send = (method: 'POST' | 'PUT', url: string, token: string, payload: unknown, lang = 'en-US') =>
  t.app.inject({ method, url, headers: { ...bearer(token), 'accept-language': lang }, payload: payload as object });
const post = (url: string, token: string, payload: unknown = {}, lang?: string) => send('POST', url, token, payload, lang);
/** Writes one row past the API and answers its id. */
const insert = (entity: string, values: Record<string, unknown>) => writeRow(t.app.db, entity, values);
const row = async (table: string, id: number) => (await t.app.db.get<Record<string, unknown>>(`SELECT * FROM ${table} WHERE id = ?`, [id]))!;
let seq = 0;
const part = () => `NR-${++seq}`;

const STOCKED_PART = 'NR-STOCKED';
const adjustment = (values: Record<string, unknown> = {}) => ({
  partsCode: STOCKED_PART,
  adjustQty: 5,
  adjustType: code('adjustType', 'adjustAccount'),
  reason: '盘点差异',
  ...values,
});

describe('the declared ranges reach the schemas', () => {
  it('integer fields, action inputs and decimals carry minimum and maximum', () => {
    const m = metadata.entities;
    expect(m.stockAdjustment.fields.adjustQty).toMatchObject({ minimum: -QTY_MAX, maximum: QTY_MAX });
    expect(m.childPartStock.fields.stockQty).toMatchObject({ minimum: 0, maximum: STOCK_MAX });
    expect(m.childPartStock.fields.shortageQty).toMatchObject({ minimum: -STOCK_MAX, maximum: STOCK_MAX });
    expect(m.order.actions.ship.input.shipQty).toMatchObject({ minimum: 1, maximum: QTY_MAX });
    expect(m.order.actions.printDeliveryCards.input.printQty).toMatchObject({ minimum: 1, maximum: 5000 });
    expect(m.auditEntry.fields.recordId).toMatchObject({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
    // every integer and decimal of every entity and action input has a range
    for (const e of Object.values(m)) {
      const fields = [...Object.values(e.fields).filter((f) => !f.system), ...Object.values(e.actions).flatMap((a) => Object.values(a.input))];
      for (const f of fields) {
        if (f.type === 'integer') expect([f.minimum, f.maximum], `${e.name}.${f.name}`).not.toContain(undefined);
        if (f.type === 'integer')
          expect(Number.isSafeInteger(f.maximum) && Number.isSafeInteger(f.minimum) && f.minimum! <= f.maximum!, `${e.name}.${f.name}`).toBe(true);
        if (f.type === 'decimal') expect([f.precision, f.scale], `${e.name}.${f.name}`).not.toContain(undefined);
      }
    }
  });
});

describe('bodies outside a range answer 400 naming the limit', () => {
  it('create: above the maximum and below the minimum, in both languages', async () => {
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const high = await post('/api/stock-adjustments', sup, adjustment({ adjustQty: QTY_MAX + 1 }), lang);
      expect(high.statusCode, high.body).toBe(400);
      expect(high.json()).toMatchObject({
        code: 'error.validation',
        message: translate(lang, 'error.validation'),
        errors: { adjustQty: 'validation.maximum' },
        errorArgs: { adjustQty: { max: QTY_MAX } },
      });
      const low = await post('/api/stock-adjustments', sup, adjustment({ adjustQty: -QTY_MAX - 1 }), lang);
      expect(low.statusCode, low.body).toBe(400);
      expect(low.json()).toMatchObject({ errors: { adjustQty: 'validation.minimum' }, errorArgs: { adjustQty: { min: -QTY_MAX } } });
    }
    // what the admin shows for those keys, in each language, names the limit
    expect(translate('en-US', 'validation.maximum', { max: QTY_MAX })).toBe('Must be at most 99999999');
    expect(translate('zh-CN', 'validation.maximum', { max: QTY_MAX })).toBe('不能大于 99999999');
    expect(translate('en-US', 'validation.minimum', { min: -QTY_MAX })).toBe('Must be at least -99999999');
    expect(translate('zh-CN', 'validation.minimum', { min: -QTY_MAX })).toBe('不能小于 -99999999');
    // the limits themselves are accepted
    for (const q of [QTY_MAX, -QTY_MAX]) expect((await post('/api/stock-adjustments', sup, adjustment({ adjustQty: q }))).statusCode).toBe(201);
  });

  it('a zero adjustment is refused with its own message in both languages', async () => {
    const r = await post('/api/stock-adjustments', sup, adjustment({ adjustQty: 0 }));
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json().errors).toEqual({ adjustQty: 'rule.nonZero' });
    expect(translate('en-US', 'rule.nonZero')).toBe('Must not be zero');
    expect(translate('zh-CN', 'rule.nonZero')).toBe('不能为零');
    const ok = (await post('/api/stock-adjustments', sup, adjustment())).json();
    const upd = await send('PUT', `/api/stock-adjustments/${ok.id}`, sup, { adjustQty: 0, version: ok.version });
    expect(upd.statusCode).toBe(400);
    expect(upd.json().errors).toEqual({ adjustQty: 'rule.nonZero' });
  });

  it('update: above the maximum', async () => {
    const a = (await post('/api/stock-adjustments', sup, adjustment())).json();
    const r = await send('PUT', `/api/stock-adjustments/${a.id}`, sup, { adjustQty: QTY_MAX + 1, version: a.version }, 'zh-CN');
    expect(r.statusCode, r.body).toBe(400);
    expect(r.json()).toMatchObject({
      code: 'error.validation',
      message: translate('zh-CN', 'error.validation'),
      errors: { adjustQty: 'validation.maximum' },
      errorArgs: { adjustQty: { max: QTY_MAX } },
    });
    expect((await row('stock_adjustment', a.id)).adjust_qty).toBe(5);
  });

  it('decimals: the range follows from precision and scale, or from a declared minimum/maximum', async () => {
    const fee = {
      originalPartsCode: 'OP-NR',
      feePartsCode: 'FP-NR',
      consultingFee: 10,
      managementRate: 0.1,
      supplierCode: 'S001',
      effectiveDate: '2099-01-01',
    };
    const big = await post('/api/consulting-fee-items', staff, { ...fee, consultingFee: 1e12 });
    expect(big.statusCode, big.body).toBe(400);
    expect(big.json()).toMatchObject({ errors: { consultingFee: 'validation.maximum' }, errorArgs: { consultingFee: { max: 999_999_999_999.99 } } });
    expect((await post('/api/consulting-fee-items', staff, { ...fee, consultingFee: 999_999_999_999.99 })).statusCode).toBe(201);
  });

  it('action inputs: ship, DFS ship and print quantities', async () => {
    const orderId = await insert('order', confirmedOrderLine('PNR000001'));
    for (const lang of ['en-US', 'zh-CN']) {
      const ship = await post(`/api/orders/${orderId}/actions/ship`, sup, { shipQty: QTY_MAX + 1 }, lang);
      expect(ship.statusCode, ship.body).toBe(400);
      expect(ship.json()).toMatchObject({ errors: { shipQty: 'validation.maximum' }, errorArgs: { shipQty: { max: QTY_MAX } } });
    }
    const print = await post(`/api/orders/${orderId}/actions/printDeliveryCards`, sup, { printQty: 5001 });
    expect(print.statusCode).toBe(400);
    expect(print.json()).toMatchObject({ errors: { printQty: 'rule.printQty' }, errorArgs: { printQty: { min: 1, max: 5000 } } });
    const dfsId = await insert('dfsOrder', {
      dealerCode: 'D100',
      dealerName: '上海一号店',
      dealerOrderNo: 'SANR0001',
      purchaseOrderNo: 'PNR0001',
      partsCode: '1K0-199-262',
      orderQty: 5,
      sentQty: 0,
      unsentQty: 5,
      shipStatus: code('dfsShipStatus', 'wait'),
      originalSupplierCode: 'S001',
      purchaseSupplierCode: 'S001',
      warehouseCode: 'PDC01',
    });
    const dfs = await post(`/api/dfs-orders/${dfsId}/actions/ship`, sup, { shipQty: QTY_MAX + 1 });
    expect(dfs.statusCode).toBe(400);
    expect(dfs.json()).toMatchObject({ errors: { shipQty: 'validation.maximum' }, errorArgs: { shipQty: { max: QTY_MAX } } });
    expect(await row('"order"', orderId)).toMatchObject({ shipped_qty: 0, unsent_qty: 10 });
    expect(await row('dfs_order', dfsId)).toMatchObject({ sent_qty: 0, unsent_qty: 5 });
  });

  it('DFS ship never sends more than the order leaves, whatever the stored unsent quantity says', async () => {
    // a line whose unsentQty disagrees with orderQty - sentQty (written past the API)
    const id = await insert('dfsOrder', {
      dealerCode: 'D100',
      dealerName: '上海一号店',
      dealerOrderNo: 'SANR0002',
      purchaseOrderNo: 'PNR0002',
      partsCode: '1K0-199-262',
      orderQty: 5,
      sentQty: 4,
      unsentQty: 5,
      shipStatus: code('dfsShipStatus', 'partial'),
      originalSupplierCode: 'S001',
      purchaseSupplierCode: 'S001',
      warehouseCode: 'PDC01',
    });
    const r = await post(`/api/dfs-orders/${id}/actions/ship`, sup, { shipQty: 2 });
    expect(r.statusCode).toBe(409);
    expect(r.json().code).toBe('error.dfsShipQtyExceeded');
    expect(await row('dfs_order', id)).toMatchObject({ sent_qty: 4 });
  });
});

describe('the stock-adjustment audit keeps the stock inside its range', () => {
  async function unaudited(partsCode: string, adjustQty: number): Promise<number> {
    const a = (await post('/api/stock-adjustments', sup, adjustment({ partsCode, adjustQty }))).json();
    expect((await post(`/api/stock-adjustments/${a.id}/actions/submit`, sup, {})).statusCode).toBe(200);
    return a.id as number;
  }
  const stockRow = (partsCode: string, values: Record<string, unknown>) =>
    insert('childPartStock', {
      partsCode,
      supplierCode: 'S001',
      warehouseCode: 'PDC01',
      demandQty: 0,
      abnormalStockQty: 0,
      waitingShipQty: 0,
      shortageQty: 0,
      ...values,
    });

  it('refuses (409) an adjustment that would push the stock above its maximum, and changes nothing', async () => {
    const p = part();
    const stockId = await stockRow(p, { stockQty: STOCK_MAX - 10, availableQty: STOCK_MAX - 10, totalStockQty: STOCK_MAX - 10 });
    const id = await unaudited(p, 11);
    const before = await row('child_part_stock', stockId);
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const r = await post(`/api/stock-adjustments/${id}/actions/adjust`, staff, { auditNote: 'ok' }, lang);
      expect(r.statusCode, r.body).toBe(409);
      const args = { partsCode: p, value: STOCK_MAX + 1, min: 0, max: STOCK_MAX };
      expect(r.json()).toMatchObject({ code: 'error.stockOutOfRange', message: translate(lang, 'error.stockOutOfRange', args) });
      expect(r.json().message).toContain(String(STOCK_MAX));
    }
    expect(await row('child_part_stock', stockId)).toEqual(before);
    expect((await row('stock_adjustment', id)).status).toBe(code('stockAdjustStatus', 'unaudited'));
    // up to the limit is fine
    const fits = await unaudited(p, 10);
    expect((await post(`/api/stock-adjustments/${fits}/actions/adjust`, staff, {})).statusCode).toBe(200);
    expect((await row('child_part_stock', stockId)).stock_qty).toBe(STOCK_MAX);
  });

  it('refuses (409) an adjustment that would push the available stock below its minimum', async () => {
    const p = part();
    const stockId = await stockRow(p, { stockQty: 100, availableQty: -STOCK_MAX + 5, totalStockQty: 100, waitingShipQty: 0 });
    const id = await unaudited(p, -10);
    const r = await post(`/api/stock-adjustments/${id}/actions/adjust`, staff, {});
    expect(r.statusCode, r.body).toBe(409);
    expect(r.json().code).toBe('error.stockOutOfRange');
    expect(await row('child_part_stock', stockId)).toMatchObject({ stock_qty: 100, available_qty: -STOCK_MAX + 5 });
  });

  it('still answers error.insufficientStock when the stock would go negative', async () => {
    const p = part();
    await stockRow(p, { stockQty: 3, availableQty: 3, totalStockQty: 3 });
    const id = await unaudited(p, -4);
    const r = await post(`/api/stock-adjustments/${id}/actions/adjust`, staff, {});
    expect(r.statusCode).toBe(409);
    expect(r.json().code).toBe('error.insufficientStock');
  });
});

describe('the database column follows the range (new tables)', () => {
  const isCheckViolation = (e: unknown) => {
    const c = (e as { code?: string }).code;
    return c === 'SQLITE_CONSTRAINT_CHECK' || c === '23514';
  };
  async function refused(sql: string, params: unknown[]): Promise<boolean> {
    try {
      await t.app.db.run(sql, params);
      return false;
    } catch (e) {
      if (isCheckViolation(e)) return true;
      throw e;
    }
  }
  const INSERT_STOCK = `INSERT INTO child_part_stock (parts_code, supplier_code, warehouse_code, stock_qty, available_qty, shortage_qty) VALUES (?, 'S001', 'PDC02', ?, ?, ?)`;

  it('a direct INSERT of an out-of-range value is refused by the CHECK', async () => {
    expect(await refused(INSERT_STOCK, [part(), STOCK_MAX + 1, 0, 0])).toBe(true);
    expect(await refused(INSERT_STOCK, [part(), -1, 0, 0])).toBe(true);
    expect(await refused(INSERT_STOCK, [part(), 0, -STOCK_MAX - 1, 0])).toBe(true);
    // inside the range (negative where the field allows it) and empty are fine
    expect(await refused(INSERT_STOCK, [part(), STOCK_MAX, -STOCK_MAX, -STOCK_MAX])).toBe(false);
    expect(await refused(`INSERT INTO child_part_stock (parts_code, supplier_code, warehouse_code) VALUES (?, 'S001', 'PDC02')`, [part()])).toBe(false);
    const adj = `INSERT INTO stock_adjustment (bill_no, supplier_code, parts_code, adjust_qty, adjust_type, reason, status, warehouse_code) VALUES (?, 'S001', 'X', ?, ?, 'r', ?, 'PDC01')`;
    const args = (n: number, q: number) => [`TZNR${n}`, q, code('adjustType', 'adjustAccount'), code('stockAdjustStatus', 'unsubmitted')];
    expect(await refused(adj, args(1, QTY_MAX + 1))).toBe(true);
    expect(await refused(adj, args(2, QTY_MAX))).toBe(false);
    // a decimal: the range of NUMERIC(14, 2), narrowed to >= 0 by its declared minimum
    const fee = `INSERT INTO settlement (settlement_no, supplier_code, line_count, total_amount, approval_status) VALUES (?, 'S001', 1, ?, ?)`;
    const pending = code('settlementApprovalStatus', 'pending');
    expect(await refused(fee, ['JSNR1', -0.01, pending])).toBe(true);
    expect(await refused(fee, ['JSNR2', 999_999_999_999.99, pending])).toBe(false);
  });

  it('PostgreSQL: a range that fits 32 bits makes an INTEGER column, a wider one stays BIGINT', async () => {
    if (t.app.db.kind !== 'postgres') return;
    const types = await t.app.db.all<{ table_name: string; column_name: string; data_type: string }>(
      `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND ((table_name = 'child_part_stock' AND column_name IN ('stock_qty', 'id')) OR (table_name = 'audit_entry' AND column_name = 'record_id') OR (table_name = 'stock_adjustment' AND column_name IN ('adjust_qty', 'version'))) ORDER BY table_name, column_name`,
    );
    expect(types.map((r) => `${r.table_name}.${r.column_name} ${r.data_type}`)).toEqual([
      'audit_entry.record_id bigint',
      'child_part_stock.id bigint',
      'child_part_stock.stock_qty integer',
      'stock_adjustment.adjust_qty integer',
      'stock_adjustment.version bigint',
    ]);
  });
});
