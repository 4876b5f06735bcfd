/** DFS (dealer-ordered service parts) shipping: quantities, ship status and the history rows. */
import type { ActionHandler } from '../engine/handler-types.ts';
import type { DfsOrder, DfsOrderShipInput, DfsOrderShipRecordInput } from '../generated/types.ts';
import { DfsShipStatus } from '../generated/types.ts';
import { inOrder } from './in-order.ts';

/**
 * What a line can still take: its unsent quantity, and never more than the order leaves after what
 * was sent (so sentQty stays within orderQty, and both within their declared ranges, even if a
 * line's stored unsentQty disagreed with them).
 */
const openQty = (o: DfsOrder): number => Math.max(0, Math.min(Number(o.unsentQty ?? 0), Number(o.orderQty ?? 0) - Number(o.sentQty ?? 0)));

/**
 * Ships each selected DFS line's own quantity (metadata perRecord: one per line, the dialog
 * pre-fills the unsent quantity; a quantity sent once for all applies to lines without their own).
 * If any line cannot take its quantity, nothing ships and the error names every dealer-order /
 * part combination at fault with the quantity it can still take.
 */
export const ship: ActionHandler<DfsOrder, DfsOrderShipInput, DfsOrderShipRecordInput> = async (ctx) => {
  const bad = ctx.records.filter((o) => ctx.inputOf(o).shipQty > openQty(o));
  if (bad.length)
    ctx.failRecords(
      409,
      'error.dfsShipQtyExceeded',
      bad.map((o) => ({ record: o, field: 'shipQty', error: { key: 'validation.maximum', args: { max: openQty(o) } }, note: openQty(o) })),
    );
  return inOrder(ctx.records, async (o) => {
    const qty = ctx.inputOf(o).shipQty;
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
    return ctx.transition(o, {
      sentQty: sent,
      unsentQty: unsent,
      currentShipQty: qty,
      shipStatus: unsent === 0 ? DfsShipStatus.finished : DfsShipStatus.partial,
    });
  });
};
