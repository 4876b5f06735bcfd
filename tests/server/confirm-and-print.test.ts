/**
 * The delivery-card confirm dialog's server side: confirming several released lines, each with its
 * own this-shipment quantity, and printing their cards in the same step; reprinting a fully shipped
 * line; the quantity a card carries after a partial shipment; a shipment larger than the confirmed
 * this-shipment quantity (docs/adr/0037-delivery-cards-and-shipments.md).
 */
import { describe, expect, it } from 'vitest';
import { metadata } from '../../server/generated/index.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { serverSuite, bearer, code } from './helpers.ts';
import { inspectPdf } from './documents/pdf-inspect.ts';

const t = serverSuite({ sup: 'sup01' }, { scale: 0 });

const post = (url: string, payload: unknown, lang?: string) => t.request('POST', url, t.tokens.sup, payload, lang);
let seq = 0;
const released = (orderQty: number, item = 1): Promise<number> => {
  seq++;
  return RowWriter.write(t.app.db, metadata, (w) =>
    w.insert('order', {
      orderNo: `PCP${String(seq).padStart(6, '0')}`,
      itemNo: item,
      partsCode: `CP-${seq}`,
      orderQty,
      minPackageQty: 10,
      perPackageQty: 10,
      shippedQty: 0,
      unsentQty: orderQty,
      status: code('purchaseOrderStatus', 'released'),
      warehouseCode: 'PDC01',
      directSupplierCode: 'S001',
      productionSupplierCode: 'S001',
      purchasingSupplierCode: 'S001',
      deliveryPlace: '上海市嘉定区',
    }),
  );
};
const get = async (id: number) => (await t.app.inject({ method: 'GET', url: `/api/orders/${id}`, headers: bearer(t.tokens.sup) })).json();
/** the this-shipment quantity printed on the first card (the value after its label) */
const printedQty = (pdf: Buffer): string => {
  const text = inspectPdf(pdf).pages[0];
  const m =
    /本次发货数量\s*\n?\s*This[- ]shipment qty\.?\s*\n?\s*(\d+)/i.exec(text) ?? /This[- ]shipment qty\.?\s*\n?\s*本次发货数量\s*\n?\s*(\d+)/i.exec(text);
  if (!m) throw new Error(`no this-shipment quantity on the card:\n${text}`);
  return m[1];
};

describe('confirm and print in one step', () => {
  it('confirms several lines with their own quantities and answers their delivery cards', async () => {
    const [a, b] = [await released(100, 1), await released(40, 2)];
    const r = await post('/api/orders/actions/confirm', {
      ids: [a, b],
      printQty: 2,
      perRecord: { [a]: { thisShipmentQty: 60 }, [b]: { thisShipmentQty: 40 } },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    const pdf = inspectPdf(r.rawPayload);
    const all = pdf.pages.join('\n');
    for (const id of [a, b]) expect(all).toContain((await get(id)).orderNo);
    expect(await get(a)).toMatchObject({ status: code('purchaseOrderStatus', 'confirmed'), thisShipmentQty: 60, confirmedBy: 'sup01' });
    expect(await get(b)).toMatchObject({ status: code('purchaseOrderStatus', 'confirmed'), thisShipmentQty: 40 });
  });

  it('without a print quantity it only confirms; a line above its unsent quantity is named and nothing is confirmed', async () => {
    const [a, b] = [await released(10), await released(10)];
    const over = await post('/api/orders/actions/confirm', { ids: [a, b], perRecord: { [a]: { thisShipmentQty: 5 }, [b]: { thisShipmentQty: 11 } } });
    expect(over.statusCode).toBe(409);
    const lb = await get(b);
    expect(over.json().message).toContain(`${lb.orderNo}/1/${lb.partsCode} (10)`);
    expect(over.json().errors).toEqual({ [`perRecord.${b}.thisShipmentQty`]: 'validation.maximum' });
    expect((await get(a)).status).toBe(code('purchaseOrderStatus', 'released'));
    const ok = await post('/api/orders/actions/confirm', { ids: [a, b], perRecord: { [a]: { thisShipmentQty: 5 }, [b]: { thisShipmentQty: 10 } } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.map((o: { thisShipmentQty: number }) => o.thisShipmentQty)).toEqual([5, 10]);
    const again = await post(`/api/orders/${a}/actions/confirm`, { thisShipmentQty: 5, printQty: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('error.orderAlreadyConfirmed');
  });
});

describe('the quantity on a card, and shipping past the confirmed quantity', () => {
  it('before shipping: the confirmed quantity; after a partial shipment: at most the rest; fully shipped: a reprint carries the last shipment', async () => {
    const id = await released(100);
    const confirmed = await post(`/api/orders/${id}/actions/confirm`, { thisShipmentQty: 60, printQty: 1 });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(printedQty(confirmed.rawPayload)).toBe('60');
    const print = async () => {
      const r = await post(`/api/orders/${id}/actions/printDeliveryCards`, { printQty: 1 });
      expect(r.statusCode, r.body).toBe(200);
      return printedQty(r.rawPayload);
    };
    expect((await post(`/api/orders/${id}/actions/ship`, { shipQty: 30 })).statusCode).toBe(200);
    expect(await print()).toBe('60'); // 70 unsent: the next shipment is again the confirmed 60
    // a shipment may exceed the confirmed this-shipment quantity (never the unsent quantity)
    expect((await post(`/api/orders/${id}/actions/ship`, { shipQty: 65 })).statusCode).toBe(200);
    expect(await print()).toBe('5'); // only 5 left to send
    expect((await post(`/api/orders/${id}/actions/ship`, { shipQty: 6 })).statusCode).toBe(409);
    expect((await post(`/api/orders/${id}/actions/ship`, { shipQty: 5 })).json().status).toBe(code('purchaseOrderStatus', 'shipped'));
    expect(await print()).toBe('5'); // reprint of the fully shipped line: its last shipment

    // all of it in one shipment past the confirmed 60: the reprint carries the 100 that went
    const whole = await released(100);
    expect((await post(`/api/orders/${whole}/actions/confirm`, { thisShipmentQty: 60 })).statusCode).toBe(200);
    expect((await post(`/api/orders/${whole}/actions/ship`, { shipQty: 100 })).json()).toMatchObject({
      status: code('purchaseOrderStatus', 'shipped'),
      shipQty: 100,
    });
    const reprint = await post(`/api/orders/${whole}/actions/printDeliveryCards`, { printQty: 1 });
    expect(printedQty(reprint.rawPayload)).toBe('100');
  });
});
