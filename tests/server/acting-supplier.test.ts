/**
 * Who acts on a line shared by two suppliers (issue 9 point 17; metadata action `supplierFields`):
 * an order line is confirmed, printed and shipped by its direct supplier; a DFS line is shipped
 * by its purchase supplier. The other supplier still sees the line, and is refused with 403
 * error.notActingSupplier naming it; a bulk call with one such line changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { metadata } from '../../server/generated/index.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { serverSuite, code } from './helpers.ts';

const t = serverSuite({ sup1: 'sup01', sup2: 'sup02' }, { scale: 0 });

const post = (url: string, tok: string, payload: unknown, lang?: string) => t.request('POST', url, tok, payload, lang);
const get = (url: string, tok: string) => t.request('GET', url, tok);
const insert = (entity: string, values: Record<string, unknown>) => RowWriter.write(t.app.db, metadata, (w) => w.insert(entity, values));
let seq = 0;
const line = (status: string, direct: string, purchasing: string) => {
  seq++;
  return insert('order', {
    orderNo: `PSH${String(seq).padStart(6, '0')}`,
    itemNo: 1,
    partsCode: `SH-${seq}`,
    orderQty: 10,
    shippedQty: 0,
    unsentQty: 10,
    thisShipmentQty: 10,
    status: code('purchaseOrderStatus', status),
    warehouseCode: 'PDC01',
    directSupplierCode: direct,
    productionSupplierCode: purchasing,
    purchasingSupplierCode: purchasing,
  });
};

describe('an order line shared by two suppliers (direct S001, purchasing S002)', () => {
  it('is shipped, confirmed and printed by the direct supplier only; the purchasing supplier sees it', async () => {
    const shipped = await line('confirmed', 'S001', 'S002');
    const released = await line('released', 'S001', 'S002');
    expect((await get(`/api/orders/${shipped}`, t.tokens.sup2)).statusCode).toBe(200);
    const refused = [
      await post(`/api/orders/${shipped}/actions/ship`, t.tokens.sup2, { shipQty: 1 }),
      await post(`/api/orders/${shipped}/actions/printDeliveryCards`, t.tokens.sup2, { printQty: 1 }),
      await post(`/api/orders/${released}/actions/confirm`, t.tokens.sup2, { thisShipmentQty: 1 }),
    ];
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(403);
      expect(r.json().code).toBe('error.notActingSupplier');
    }
    const shippedRow = (await get(`/api/orders/${shipped}`, t.tokens.sup2)).json();
    expect(refused[0].json().message).toContain(`${shippedRow.orderNo}/1/${shippedRow.partsCode}`);
    const zh = await post(`/api/orders/${shipped}/actions/ship`, t.tokens.sup2, { shipQty: 1 }, 'zh-CN');
    expect(zh.json().message).toMatch(/^只有负责这些订单行的供应商/);
    expect((await post(`/api/orders/${shipped}/actions/ship`, t.tokens.sup1, { shipQty: 1 })).statusCode).toBe(200);
    expect((await post(`/api/orders/${released}/actions/confirm`, t.tokens.sup1, { thisShipmentQty: 5 })).statusCode).toBe(200);
  });

  it('a bulk ship with one line the caller does not ship changes nothing', async () => {
    const mine = await line('confirmed', 'S002', 'S002');
    const notMine = await line('confirmed', 'S001', 'S002');
    const r = await post('/api/orders/actions/ship', t.tokens.sup2, { ids: [mine, notMine], shipQty: 1 });
    expect(r.statusCode).toBe(403);
    const rows = await t.app.db.all<{ shipped_qty: number }>(`SELECT shipped_qty FROM "order" WHERE id IN (?, ?)`, [mine, notMine]);
    expect(rows.map((x) => Number(x.shipped_qty))).toEqual([0, 0]);
  });
});

describe('a DFS line shared by two suppliers (original S001, purchase S002)', () => {
  it('is shipped by the purchase supplier only', async () => {
    const id = await insert('dfsOrder', {
      dealerCode: 'D100',
      dealerOrderNo: 'SA-SHARED-1',
      purchaseOrderNo: 'P-SHARED-1',
      partsCode: 'SH-DFS',
      orderQty: 5,
      sentQty: 0,
      unsentQty: 5,
      shipStatus: code('dfsShipStatus', 'wait'),
      originalSupplierCode: 'S001',
      purchaseSupplierCode: 'S002',
      warehouseCode: 'PDC01',
    });
    expect((await get(`/api/dfs-orders/${id}`, t.tokens.sup1)).statusCode).toBe(200);
    const refused = await post(`/api/dfs-orders/${id}/actions/ship`, t.tokens.sup1, { shipQty: 1 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'error.notActingSupplier' });
    expect(refused.json().message).toContain('SA-SHARED-1/SH-DFS');
    expect((await post(`/api/dfs-orders/${id}/actions/ship`, t.tokens.sup2, { shipQty: 1 })).statusCode).toBe(200);
  });
});
