/**
 * Delivery cards: `printQty` cards for each chosen line, as a PDF (layout, card number format:
 * server/documents/delivery-card-pdf.ts). order.printDeliveryCards prints confirmed, shipped and
 * partly received lines (a reprint from order search included); order.confirm prints the lines it
 * has just confirmed when the supplier gives a print quantity (confirm and print in one step).
 * Printing changes nothing in the database; inside the transaction only the card data is taken
 * from the (scoped) records and the card numbers are checked, the PDF itself is drawn after the
 * commit by the async producer.
 */
import type { ActionHandler, ActionOutcome, HandlerServices } from '../engine/handler-types.ts';
import type { Order, OrderPrintDeliveryCardsInput } from '../generated/types.ts';
import { buildCards, renderDeliveryCards, type DeliveryCard, type DeliveryCardLine } from '../documents/delivery-card-pdf.ts';

const num = (v: number | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * The quantity a card carries: that of the shipment it goes with (docs/adr/0037-delivery-cards-and-shipments.md). While
 * something is still unsent, the confirmed this-shipment quantity, but never more than is unsent
 * (after a partial shipment the next shipment takes at most the rest); once the line is fully
 * shipped, a reprint carries the last shipment's quantity.
 */
export function cardQty(o: Order): number | null {
  const unsent = Number(o.orderQty ?? 0) - Number(o.shippedQty ?? 0);
  if (unsent > 0) return o.thisShipmentQty === null || o.thisShipmentQty === undefined ? unsent : Math.min(Number(o.thisShipmentQty), unsent);
  return num(o.shipQty ?? o.thisShipmentQty);
}

/** The PDF of `printQty` cards for each of `records`, sent after the commit instead of the records. */
export function deliveryCards(ctx: Pick<HandlerServices, 'meta' | 'principal' | 'now' | 'fail'>, records: Order[], printQty: number): ActionOutcome<Order> {
  const { deliveryCardLength, deliveryDetailLinesPerPage, maxPrintQty } = ctx.meta.app.constants;
  // the input schema already holds printQty to 1..5000; this guards the constant the layout relies on
  if (printQty > Number(maxPrintQty)) ctx.fail(400, 'rule.printQty', { min: 1, max: Number(maxPrintQty) });
  const p = ctx.principal;
  const lines: DeliveryCardLine[] = records.map((o) => ({
    orderNo: String(o.orderNo ?? ''),
    itemNo: Number(o.itemNo),
    partsCode: String(o.partsCode ?? ''),
    orderQty: num(o.orderQty),
    perPackageQty: num(o.perPackageQty ?? o.minPackageQty),
    thisShipmentQty: cardQty(o),
    deliveryPlace: o.deliveryPlace ?? null,
    // the row scope holds supplier users to their warehouse, whose name the principal carries
    warehouse: o.warehouseCode === p.warehouse ? `${o.warehouseCode} ${p.warehouseName}` : String(o.warehouseCode ?? ''),
    supplierCode: p.supplierCode ?? o.directSupplierCode ?? o.productionSupplierCode ?? o.purchasingSupplierCode ?? null,
    releaseDate: o.releaseDate ?? null,
    forecastReceiveDate: o.forecastReceiveDate ?? null,
  }));
  let cards: DeliveryCard[] = [];
  try {
    cards = buildCards(lines, printQty, Number(deliveryCardLength));
  } catch (err) {
    // an order or item number the 26-character card number cannot carry (see cardNumber)
    if (err instanceof RangeError) ctx.fail(409, 'error.badRequest');
    throw err;
  }
  const options = { locale: p.locale, linesPerPage: Number(deliveryDetailLinesPerPage), printedAt: ctx.now, printedBy: p.name };
  const orderNos = [...new Set(lines.map((l) => l.orderNo))];
  const fileName = `delivery-cards-${orderNos.length === 1 ? orderNos[0] : `${orderNos[0]}-and-${orderNos.length - 1}-more`}.pdf`;
  return {
    records,
    file: async () => ({ fileName, contentType: 'application/pdf', body: await renderDeliveryCards(cards, options) }),
  };
}

export const printDeliveryCards: ActionHandler<Order, OrderPrintDeliveryCardsInput> = async (ctx) => deliveryCards(ctx, ctx.records, ctx.input.printQty);
