/**
 * Child-part stock moves by a quantity: the one rule both an audited difference adjustment
 * (adjustments.ts) and a stock movement from the warehouse system (hooks/child-part-movements.ts,
 * inbound interface INTF0012) follow. The stock, available and total figures move by `qty`; it is
 * refused (409, nothing changes) when the stock would go negative (error.insufficientStock) or any
 * figure would leave the range its field declares (error.stockOutOfRange).
 *
 * The stock row is read with a row lock: two moves of the same part at once apply one after the
 * other, each to the stock the other left (never both to the same old figure). When the part has
 * no stock row yet, two concurrent first moves meet at the unique index (supplier, warehouse,
 * part): the second answers 409 and can simply be sent again.
 */
import type { HandlerServices } from '../engine/handler-types.ts';
import { numericRange } from '../../codegen/runtime/field-schema.ts';

interface StockRow {
  id: number;
  stockQty: number;
  availableQty: number;
  totalStockQty: number;
}
type Figure = 'stockQty' | 'availableQty' | 'totalStockQty';

export async function moveStock(
  ctx: HandlerServices,
  at: { supplierCode?: unknown; warehouseCode?: unknown; partsCode?: unknown },
  qty: number,
): Promise<void> {
  const stockTable = ctx.meta.entities.childPartStock.table;
  const stock = await ctx.db.get<StockRow>(
    `SELECT s.id, s.stock_qty AS "stockQty", s.available_qty AS "availableQty", s.total_stock_qty AS "totalStockQty" FROM ${stockTable} s WHERE s.supplier_code = ? AND s.warehouse_code = ? AND s.parts_code = ?${ctx.db.dialect.forUpdate('s')}`,
    [at.supplierCode, at.warehouseCode, at.partsCode],
  );
  const next = (stock?.stockQty ?? 0) + qty;
  if (next < 0) ctx.fail(409, 'error.insufficientStock', { partsCode: String(at.partsCode), stock: stock?.stockQty ?? 0 });
  const figures: Record<Figure, number> = stock
    ? { stockQty: next, availableQty: Number(stock.availableQty ?? 0) + qty, totalStockQty: Number(stock.totalStockQty ?? 0) + qty }
    : { stockQty: next, availableQty: next, totalStockQty: next };
  // every figure stays inside its declared range (metadata): refused here rather than by the column's CHECK
  for (const [name, value] of Object.entries(figures) as [Figure, number][]) {
    const range = numericRange(ctx.meta.entities.childPartStock.fields[name]);
    if (range && (value < range.min || value > range.max))
      ctx.fail(409, 'error.stockOutOfRange', { partsCode: String(at.partsCode), field: name, value, min: range.min, max: range.max });
  }
  if (stock) {
    await ctx.update('childPartStock', Number(stock.id), figures);
  } else {
    await ctx.insert('childPartStock', {
      partsCode: at.partsCode,
      supplierCode: at.supplierCode,
      warehouseCode: at.warehouseCode,
      ...figures,
      demandQty: 0,
      abnormalStockQty: 0,
      waitingShipQty: 0,
      shortageQty: 0,
    });
  }
}
