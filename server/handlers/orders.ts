/**
 * Purchase order lines: confirm and ship. Both run inside the action's transaction on records the
 * engine read with a row lock (PostgreSQL) or under the one write lock (SQLite): a concurrent ship
 * of the same line waits and then sees this one's quantities, so concurrent ship calls can never
 * ship more than was ordered, from one process or several.
 */
import type { ActionHandler } from '../engine/handler-types.ts';
import type { Order, OrderConfirmInput, OrderShipInput } from '../generated/types.ts';
import { PurchaseOrderStatus } from '../generated/types.ts';
import { inOrder } from './in-order.ts';

const unsentOf = (o: Order): number => Number(o.orderQty ?? 0) - Number(o.shippedQty ?? 0);

/** released -> confirmed with the quantity of this shipment (at most what is still unsent). */
export const confirm: ActionHandler<Order, OrderConfirmInput> = (ctx) =>
  inOrder(ctx.records, (o) => {
    const unsent = unsentOf(o);
    if (ctx.input.thisShipmentQty > unsent) ctx.fail(409, 'error.shipQtyExceeded', { orderNo: String(o.orderNo), partsCode: String(o.partsCode), unsent });
    return ctx.transition(o, { unsentQty: unsent });
  });

/**
 * Ships shipQty of each selected line. Partial shipments accumulate; the line becomes shipped only
 * when nothing is left to send, otherwise it stays confirmed (and stays on the ship list). Since
 * shipQty never exceeds orderQty - shippedQty, shippedQty stays within orderQty and unsentQty at or
 * above 0: both inside the ranges their fields declare (those of orderQty's, 1 to 99,999,999).
 */
export const ship: ActionHandler<Order, OrderShipInput> = (ctx) =>
  inOrder(ctx.records, (o) => {
    const qty = ctx.input.shipQty;
    const unsent = unsentOf(o);
    if (qty > unsent) ctx.fail(409, 'error.shipQtyExceeded', { orderNo: String(o.orderNo), partsCode: String(o.partsCode), unsent });
    const shipped = Number(o.shippedQty ?? 0) + qty;
    const left = Number(o.orderQty) - shipped;
    return ctx.transition(o, { shipQty: qty, shippedQty: shipped, unsentQty: left, status: left === 0 ? PurchaseOrderStatus.shipped : PurchaseOrderStatus.confirmed });
  });
