/** DFS (dealer-ordered service parts) shipping: quantities, ship status and the history rows. */
import type { ActionHandler } from '../engine/handler-types.ts';
import type { DfsOrder, DfsOrderShipInput } from '../generated/types.ts';
import { DfsShipStatus } from '../generated/types.ts';
import { inOrder } from './in-order.ts';

/**
 * What a line can still take: its unsent quantity, and never more than the order leaves after what
 * was sent (so sentQty stays within orderQty, and both within their declared ranges, even if a
 * line's stored unsentQty disagreed with them).
 */
const openQty = (o: DfsOrder): number => Math.max(0, Math.min(Number(o.unsentQty ?? 0), Number(o.orderQty ?? 0) - Number(o.sentQty ?? 0)));

/**
 * Ships shipQty of every selected DFS line. If any line cannot take it, nothing ships and the
 * error names every dealer-order / part combination at fault.
 */
export const ship: ActionHandler<DfsOrder, DfsOrderShipInput> = async (ctx) => {
  const qty = ctx.input.shipQty;
  const bad = ctx.records.filter((o) => qty > openQty(o)).map((o) => `${o.dealerOrderNo}/${o.partsCode} (${openQty(o)})`);
  if (bad.length) ctx.fail(409, 'error.dfsShipQtyExceeded', { items: bad.join(', ') });
  return inOrder(ctx.records, async (o) => {
    const sent = Number(o.sentQty ?? 0) + qty;
    const unsent = Number(o.unsentQty ?? 0) - qty;
    await ctx.insert('dfsShipment', {
      dfsOrderId: o.id,
      dealerOrderNo: o.dealerOrderNo,
      purchaseOrderNo: o.purchaseOrderNo,
      partsCode: o.partsCode,
      shipQty: qty,
      shipTime: ctx.now,
      shipper: ctx.principal.name,
    });
    return ctx.transition(o, { sentQty: sent, unsentQty: unsent, currentShipQty: qty, shipStatus: unsent === 0 ? DfsShipStatus.finished : DfsShipStatus.partial });
  });
};
