/** Difference (stock) adjustments: the audit decision "adjust" applies the quantity to child-part stock. */
import type { ActionHandler } from '../engine/handler-types.ts';
import type { StockAdjustment, StockAdjustmentAdjustInput } from '../generated/types.ts';
import { inOrder } from './in-order.ts';
import { numericRange } from '../../codegen/runtime/field-schema.ts';

interface StockRow {
  id: number;
  stockQty: number;
  availableQty: number;
  totalStockQty: number;
}
type Figure = 'stockQty' | 'availableQty' | 'totalStockQty';

/**
 * The stock, available and total figures move by adjustQty; the audit is refused (409, nothing
 * changes) when the stock would go negative (error.insufficientStock) or any figure would leave the
 * range its field declares (error.stockOutOfRange).
 *
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
    const figures: Record<Figure, number> = stock
      ? { stockQty: next, availableQty: Number(stock.availableQty ?? 0) + qty, totalStockQty: Number(stock.totalStockQty ?? 0) + qty }
      : { stockQty: next, availableQty: next, totalStockQty: next };
    // every figure stays inside its declared range (metadata): refused here rather than by the column's CHECK
    for (const [name, value] of Object.entries(figures) as [Figure, number][]) {
      const range = numericRange(ctx.meta.entities.childPartStock.fields[name]);
      if (range && (value < range.min || value > range.max))
        ctx.fail(409, 'error.stockOutOfRange', { partsCode: String(a.partsCode), field: name, value, min: range.min, max: range.max });
    }
    if (stock) {
      await ctx.update('childPartStock', Number(stock.id), figures);
    } else {
      await ctx.insert('childPartStock', {
        partsCode: a.partsCode,
        supplierCode: a.supplierCode,
        warehouseCode: a.warehouseCode,
        ...figures,
        demandQty: 0,
        abnormalStockQty: 0,
        waitingShipQty: 0,
        shortageQty: 0,
      });
    }
    return ctx.transition(a);
  });
