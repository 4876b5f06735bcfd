/** Difference (stock) adjustments: the audit decision "adjust" applies the quantity to child-part stock. */
import type { ActionHandler } from '../engine/handler-types.ts';
import type { StockAdjustment, StockAdjustmentAdjustInput } from '../generated/types.ts';
import { inOrder } from './in-order.ts';

interface StockRow { id: number; stockQty: number; availableQty: number; totalStockQty: number }

/**
 * The stock row is read with a row lock: two adjustments of the same part audited at once apply
 * one after the other, each to the stock the other left (never both to the same old figure).
 * When the part has no stock row yet, two concurrent first adjustments meet at the unique index
 * (supplier, warehouse, part): the second answers 409 and can simply be audited again.
 */
export const adjust: ActionHandler<StockAdjustment, StockAdjustmentAdjustInput> = (ctx) =>
  inOrder(ctx.records, async (a) => {
    const stockTable = ctx.meta.entities.childPartStock.table;
    const stock = await ctx.db.get<StockRow>(
      `SELECT s.id, s.stock_qty AS "stockQty", s.available_qty AS "availableQty", s.total_stock_qty AS "totalStockQty" FROM ${stockTable} s WHERE s.supplier_code = ? AND s.warehouse_code = ? AND s.parts_code = ?${ctx.db.dialect.forUpdate('s')}`,
      [a.supplierCode, a.warehouseCode, a.partsCode],
    );
    const qty = Number(a.adjustQty ?? 0);
    const next = (stock?.stockQty ?? 0) + qty;
    if (next < 0) ctx.fail(409, 'error.insufficientStock', { partsCode: String(a.partsCode), stock: stock?.stockQty ?? 0 });
    if (stock) {
      await ctx.update('childPartStock', Number(stock.id), { stockQty: next, availableQty: (stock.availableQty ?? 0) + qty, totalStockQty: (stock.totalStockQty ?? 0) + qty });
    } else {
      await ctx.insert('childPartStock', { partsCode: a.partsCode, supplierCode: a.supplierCode, warehouseCode: a.warehouseCode, stockQty: next, availableQty: next, totalStockQty: next, demandQty: 0, abnormalStockQty: 0, waitingShipQty: 0, shortageQty: 0 });
    }
    return ctx.transition(a);
  });
