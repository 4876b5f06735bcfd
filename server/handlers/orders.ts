/**
 * Purchase order lines: confirm and ship. Both run inside the action's transaction on records the
 * engine read with a row lock (PostgreSQL) or under the one write lock (SQLite): a concurrent ship
 * of the same line waits and then sees this one's quantities, so concurrent ship calls can never
 * ship more than was ordered, from one process or several.
 */
import type { ActionHandler } from '../engine/handler-types.ts';
import type { Order, OrderConfirmInput, OrderConfirmRecordInput, OrderShipInput, OrderShipRecordInput } from '../generated/types.ts';
import { deliveryCards } from './delivery-cards.ts';
import { PurchaseOrderStatus } from '../generated/types.ts';
import { inOrder } from './in-order.ts';

const unsentOf = (o: Order): number => Number(o.orderQty ?? 0) - Number(o.shippedQty ?? 0);

/**
 * released -> confirmed, each line with its own this-shipment quantity (metadata perRecord,
 * pre-filled with the unsent quantity; at most what is still unsent). With a print quantity the
 * answer is the delivery cards of the lines just confirmed: confirm and print in one step.
 */
export const confirm: ActionHandler<Order, OrderConfirmInput, OrderConfirmRecordInput> = async (ctx) => {
  const bad = ctx.records.filter((o) => ctx.inputOf(o).thisShipmentQty > unsentOf(o));
  if (bad.length)
    ctx.failRecords(
      409,
      'error.shipQtyExceeded',
      bad.map((o) => ({ record: o, field: 'thisShipmentQty', error: { key: 'validation.maximum', args: { max: unsentOf(o) } }, note: unsentOf(o) })),
    );
  const confirmed = await inOrder(ctx.records, (o) => ctx.transition(o, { unsentQty: unsentOf(o) }));
  return ctx.input.printQty ? deliveryCards(ctx, confirmed, ctx.input.printQty) : confirmed;
};

/**
 * Ships each selected line's own quantity (metadata perRecord: one per line, pre-filled with the
 * unsent quantity; a quantity sent once for all applies to lines without their own). Partial
 * shipments accumulate; the line becomes shipped only when nothing is left to send, otherwise it
 * stays confirmed (and stays on the ship list). A shipment may exceed the confirmed this-shipment
 * quantity, never the unsent quantity (docs/adr/0037-delivery-cards-and-shipments.md). If any line cannot take its quantity,
 * nothing ships and the error names every line at fault (order / item / part) with what it can
 * still take. Since shipQty never exceeds orderQty - shippedQty, shippedQty stays within orderQty
 * and unsentQty at or above 0: both inside the ranges their fields declare.
 */
export const ship: ActionHandler<Order, OrderShipInput, OrderShipRecordInput> = async (ctx) => {
  const bad = ctx.records.filter((o) => ctx.inputOf(o).shipQty > unsentOf(o));
  if (bad.length)
    ctx.failRecords(
      409,
      'error.shipQtyExceeded',
      bad.map((o) => ({ record: o, field: 'shipQty', error: { key: 'validation.maximum', args: { max: unsentOf(o) } }, note: unsentOf(o) })),
    );
  return inOrder(ctx.records, (o) => {
    const qty = ctx.inputOf(o).shipQty;
    const shipped = Number(o.shippedQty ?? 0) + qty;
    const left = Number(o.orderQty) - shipped;
    return ctx.transition(o, {
      shipQty: qty,
      shippedQty: shipped,
      unsentQty: left,
      status: left === 0 ? PurchaseOrderStatus.shipped : PurchaseOrderStatus.confirmed,
    });
  });
};
