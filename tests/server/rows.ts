/**
 * The rows server tests write, in one place: each factory answers the values of a row that passes
 * the entity's rules, and a test overrides only what it is about (`orderLine('PT000001', { orderQty:
 * 60 })`). `writeRow` writes one row at once (the seed's writer buffers rows) and answers its id.
 */
import type { Db } from '../../server/db/types.ts';
import { metadata } from '../../server/generated/index.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { code } from './helpers.ts';

export type Values = Record<string, unknown>;

/** Writes one row of an entity and answers its id. */
export const writeRow = (db: Db, entity: string, values: Values): Promise<number> => RowWriter.write(db, metadata, (w) => w.insert(entity, values));

/** Numbers for a test's rows, `PT000001`, `PT000002`, ...: each file its own prefix, so rows never collide. */
export function numbering(prefix: string, digits = 6): () => string {
  let seq = 0;
  return () => `${prefix}${String(++seq).padStart(digits, '0')}`;
}

/** A released purchase order line of supplier S001 at PDC01: 10 ordered, nothing shipped. */
export function orderLine(orderNo: string, values: Values = {}): Values {
  return {
    orderNo,
    itemNo: 1,
    partsCode: '8E0-615-301-A',
    orderQty: 10,
    shippedQty: 0,
    unsentQty: 10,
    status: code('purchaseOrderStatus', 'released'),
    warehouseCode: 'PDC01',
    directSupplierCode: 'S001',
    productionSupplierCode: 'S001',
    purchasingSupplierCode: 'S001',
    ...values,
  };
}

/** The same line confirmed for shipping all 10. */
export const confirmedOrderLine = (orderNo: string, values: Values = {}): Values =>
  orderLine(orderNo, { thisShipmentQty: 10, status: code('purchaseOrderStatus', 'confirmed'), ...values });
