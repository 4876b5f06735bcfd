/** Difference (stock) adjustments: the audit decision "adjust" applies the quantity to child-part stock. */
import type { ActionHandler } from '../engine/handler-types.ts';
import type { StockAdjustment, StockAdjustmentAdjustInput } from '../generated/types.ts';

interface StockRow { id: number; stockQty: number; availableQty: number; totalStockQty: number }

export const adjust: ActionHandler<StockAdjustment, StockAdjustmentAdjustInput> = (ctx) =>
  ctx.records.map((a) => {
    const stockTable = ctx.meta.entities.childPartStock.table;
    const stock = ctx.db
      .prepare(`SELECT id, stock_qty AS stockQty, available_qty AS availableQty, total_stock_qty AS totalStockQty FROM ${stockTable} WHERE supplier_code = ? AND warehouse_code = ? AND parts_code = ?`)
      .get(a.supplierCode, a.warehouseCode, a.partsCode) as StockRow | undefined;
    const qty = Number(a.adjustQty ?? 0);
    const next = (stock?.stockQty ?? 0) + qty;
    if (next < 0) ctx.fail(409, 'error.insufficientStock', { partsCode: String(a.partsCode), stock: stock?.stockQty ?? 0 });
    if (stock) {
      ctx.update('childPartStock', stock.id, { stockQty: next, availableQty: (stock.availableQty ?? 0) + qty, totalStockQty: (stock.totalStockQty ?? 0) + qty });
    } else {
      ctx.insert('childPartStock', { partsCode: a.partsCode, supplierCode: a.supplierCode, warehouseCode: a.warehouseCode, stockQty: next, availableQty: next, totalStockQty: next, demandQty: 0, abnormalStockQty: 0, waitingShipQty: 0, shortageQty: 0 });
    }
    return ctx.transition(a);
  });
