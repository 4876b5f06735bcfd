/** Difference (stock) adjustments: the audit decision "adjust" applies the quantity to child-part stock. */
import type { ActionHandler } from '../engine/handler-types.ts';
import type { StockAdjustment, StockAdjustmentAdjustInput } from '../generated/types.ts';
import { inOrder } from './in-order.ts';
import { moveStock } from './stock.ts';

/**
 * The stock moves by adjustQty (stock.ts: refused with 409 when it would go negative or leave a
 * declared range; the stock row is locked, so two audits of one part apply one after the other).
 */
export const adjust: ActionHandler<StockAdjustment, StockAdjustmentAdjustInput> = (ctx) =>
  inOrder(ctx.records, async (a) => {
    await moveStock(ctx, a, Number(a.adjustQty ?? 0));
    return ctx.transition(a);
  });
