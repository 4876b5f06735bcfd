/**
 * Per-record action inputs (metadata `perRecord`): a bulk call carries one value per record in
 * `perRecord: { "<id>": { ... } }`; each record's input is checked on its own and errors name the
 * records at fault (their identifyBy fields) in the caller's language, with field errors for the
 * dialog's grid cells. Used by DFS ship and bulk order ship. Rows are made here so every
 * expectation is exact.
 */
import { describe, expect, it } from 'vitest';
import { metadata } from '../../server/generated/index.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { serverSuite, code } from './helpers.ts';

const t = serverSuite({ sup: 'sup01' }, { scale: 0 });

const post = (url: string, payload: unknown, lang?: string) => t.request('POST', url, t.tokens.sup, payload, lang);
const insert = (entity: string, values: Record<string, unknown>) => RowWriter.write(t.app.db, metadata, (w) => w.insert(entity, values));
const row = async (table: string, id: number) => (await t.app.db.get<Record<string, unknown>>(`SELECT * FROM ${table} WHERE id = ?`, [id]))!;

let seq = 0;
function dfsLine(orderQty: number, values: Record<string, unknown> = {}): Promise<number> {
  seq++;
  return insert('dfsOrder', {
    dealerCode: 'D100',
    dealerName: '上海一号店',
    dealerOrderNo: `SA20261200${String(seq).padStart(2, '0')}`,
    purchaseOrderNo: 'P2026120001',
    partsCode: `PR-${seq}`,
    orderQty,
    sentQty: 0,
    unsentQty: orderQty,
    shipStatus: code('dfsShipStatus', 'wait'),
    originalSupplierCode: 'S001',
    purchaseSupplierCode: 'S001',
    warehouseCode: 'PDC01',
    ...values,
  });
}
function orderLine(orderQty: number, itemNo = 1): Promise<number> {
  seq++;
  return insert('order', {
    orderNo: `PR${String(seq).padStart(6, '0')}`,
    itemNo,
    partsCode: `PART-${seq}`,
    orderQty,
    shippedQty: 0,
    unsentQty: orderQty,
    thisShipmentQty: orderQty,
    status: code('purchaseOrderStatus', 'confirmed'),
    warehouseCode: 'PDC01',
    directSupplierCode: 'S001',
    productionSupplierCode: 'S001',
    purchasingSupplierCode: 'S001',
  });
}

describe('DFS ship with a quantity per line', () => {
  it('ships each line its own quantity in one action, with one history row each', async () => {
    const [a, b, c] = [await dfsLine(5), await dfsLine(8), await dfsLine(3)];
    const r = await post('/api/dfs-orders/actions/ship', { ids: [a, b, c], perRecord: { [a]: { shipQty: 5 }, [b]: { shipQty: 2 }, [c]: { shipQty: 1 } } });
    expect(r.statusCode, r.body).toBe(200);
    expect(await row('dfs_order', a)).toMatchObject({ sent_qty: 5, unsent_qty: 0, current_ship_qty: 5, ship_status: code('dfsShipStatus', 'finished') });
    expect(await row('dfs_order', b)).toMatchObject({ sent_qty: 2, unsent_qty: 6, current_ship_qty: 2, ship_status: code('dfsShipStatus', 'partial') });
    expect(await row('dfs_order', c)).toMatchObject({ sent_qty: 1, unsent_qty: 2, ship_status: code('dfsShipStatus', 'partial') });
    const hist = await t.app.db.all<{ dfs_order_id: number; ship_qty: number }>(
      `SELECT dfs_order_id, ship_qty FROM dfs_shipment WHERE dfs_order_id IN (?, ?, ?) ORDER BY dfs_order_id`,
      [a, b, c],
    );
    expect(hist.map((h) => [Number(h.dfs_order_id), Number(h.ship_qty)])).toEqual([
      [a, 5],
      [b, 2],
      [c, 1],
    ]);
  });

  it('a quantity sent once applies to the lines without their own', async () => {
    const [a, b] = [await dfsLine(5), await dfsLine(5)];
    const r = await post('/api/dfs-orders/actions/ship', { ids: [a, b], shipQty: 1, perRecord: { [b]: { shipQty: 4 } } });
    expect(r.statusCode, r.body).toBe(200);
    expect([(await row('dfs_order', a)).sent_qty, (await row('dfs_order', b)).sent_qty]).toEqual([1, 4]);
  });

  it('too much on some lines: nothing ships and the error names each dealer order / part with what it can take, in both languages', async () => {
    const [a, b, c] = [await dfsLine(5), await dfsLine(2), await dfsLine(1)];
    const body = { ids: [a, b, c], perRecord: { [a]: { shipQty: 5 }, [b]: { shipQty: 3 }, [c]: { shipQty: 2 } } };
    const en = await post('/api/dfs-orders/actions/ship', body);
    expect(en.statusCode).toBe(409);
    const la = await row('dfs_order', b);
    const lc = await row('dfs_order', c);
    const items = `${la.dealer_order_no}/${la.parts_code} (2), ${lc.dealer_order_no}/${lc.parts_code} (1)`;
    expect(en.json()).toMatchObject({
      code: 'error.dfsShipQtyExceeded',
      errors: { [`perRecord.${b}.shipQty`]: 'validation.maximum', [`perRecord.${c}.shipQty`]: 'validation.maximum' },
      errorArgs: { [`perRecord.${b}.shipQty`]: { max: 2 } },
    });
    expect(en.json().message).toContain(items);
    expect(en.json().errors[`perRecord.${a}.shipQty`]).toBeUndefined();
    const zh = await post('/api/dfs-orders/actions/ship', body, 'zh-CN');
    expect(zh.json().message).toBe(`以下经销商订单和零件的发货数量超过未发数量（括号内为未发数量）：${items}`);
    for (const id of [a, b, c]) expect((await row('dfs_order', id)).sent_qty).toBe(0);
    expect((await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM dfs_shipment WHERE dfs_order_id IN (?, ?, ?)`, [a, b, c]))!.n).toBe(0);
  });

  it('a line without a quantity, or with a bad one, is named (400) and its cell marked', async () => {
    const [a, b] = [await dfsLine(5), await dfsLine(5)];
    const missing = await post('/api/dfs-orders/actions/ship', { ids: [a, b], perRecord: { [a]: { shipQty: 1 } } }, 'zh-CN');
    expect(missing.statusCode).toBe(400);
    const lb = await row('dfs_order', b);
    expect(missing.json()).toMatchObject({
      code: 'error.recordInputInvalid',
      message: `请检查以下记录的填写：${lb.dealer_order_no}/${lb.parts_code}`,
      errors: { [`perRecord.${b}.shipQty`]: 'validation.required' },
    });
    const zero = await post('/api/dfs-orders/actions/ship', { ids: [a, b], perRecord: { [a]: { shipQty: 0 }, [b]: { shipQty: 1.5 } } });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().errors).toEqual({ [`perRecord.${a}.shipQty`]: 'rule.positiveInteger', [`perRecord.${b}.shipQty`]: 'validation.integer' });
    expect(zero.json().message).toContain(`${lb.dealer_order_no}/${lb.parts_code}`);
    expect((await row('dfs_order', a)).sent_qty).toBe(0);
  });

  it('refuses entries for records not chosen and inputs that are not per record', async () => {
    const [a, b] = [await dfsLine(5), await dfsLine(5)];
    const stranger = await post('/api/dfs-orders/actions/ship', { ids: [a], perRecord: { [a]: { shipQty: 1 }, [b]: { shipQty: 1 } } });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().errors).toEqual({ [`perRecord.${b}`]: 'validation.unknownField' });
    const junk = await post('/api/dfs-orders/actions/ship', { ids: [a], perRecord: { [a]: { shipQty: 1, sentQty: 9 } } });
    expect(junk.json().errors).toEqual({ [`perRecord.${a}.sentQty`]: 'validation.unknownField' });
    const notObject = await post('/api/dfs-orders/actions/ship', { ids: [a], perRecord: { [a]: 3 } });
    expect(notObject.json().errors).toEqual({ [`perRecord.${a}`]: 'validation.invalid' });
    const notMap = await post('/api/dfs-orders/actions/ship', { ids: [a], perRecord: [1] });
    expect(notMap.statusCode).toBe(400);
    expect((await row('dfs_order', a)).sent_qty).toBe(0);
  });

  it('a one-record call keeps its plain field errors', async () => {
    const a = await dfsLine(5);
    const r = await post(`/api/dfs-orders/${a}/actions/ship`, {});
    expect(r.statusCode).toBe(400);
    expect(r.json().errors).toEqual({ shipQty: 'validation.required' });
    const over = await post(`/api/dfs-orders/${a}/actions/ship`, { shipQty: 6 });
    expect(over.statusCode).toBe(409);
    expect(over.json().errors).toEqual({ shipQty: 'validation.maximum' });
  });
});

describe('bulk order ship with a quantity per line', () => {
  it('ships each line its own quantity; the error names the order, the line (item) and the part', async () => {
    const [a, b] = [await orderLine(10, 1), await orderLine(4, 2)];
    const over = await post('/api/orders/actions/ship', { ids: [a, b], perRecord: { [a]: { shipQty: 3 }, [b]: { shipQty: 5 } } });
    expect(over.statusCode).toBe(409);
    const lb = await row('"order"', b);
    expect(over.json().code).toBe('error.shipQtyExceeded');
    expect(over.json().message).toContain(`${lb.order_no}/2/${lb.parts_code} (4)`);
    expect(over.json().errors).toEqual({ [`perRecord.${b}.shipQty`]: 'validation.maximum' });
    expect((await row('"order"', a)).shipped_qty).toBe(0);
    const ok = await post('/api/orders/actions/ship', { ids: [a, b], perRecord: { [a]: { shipQty: 3 }, [b]: { shipQty: 4 } } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await row('"order"', a)).toMatchObject({ shipped_qty: 3, unsent_qty: 7, ship_qty: 3, status: code('purchaseOrderStatus', 'confirmed') });
    expect(await row('"order"', b)).toMatchObject({ shipped_qty: 4, unsent_qty: 0, ship_qty: 4, status: code('purchaseOrderStatus', 'shipped') });
  });
});
