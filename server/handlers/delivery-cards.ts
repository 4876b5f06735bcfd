/**
 * order.printDeliveryCards: `printQty` delivery cards for each selected confirmed line, as a PDF
 * (layout, card number format: server/documents/delivery-card-pdf.ts). Printing changes nothing in
 * the database; inside the transaction only the card data is taken from the (scoped) records and
 * the card numbers are checked, the PDF itself is drawn after the commit by the async producer.
 */
import type { ActionHandler } from '../engine/handler-types.ts';
import type { Order, OrderPrintDeliveryCardsInput } from '../generated/types.ts';
import { buildCards, renderDeliveryCards, type DeliveryCard, type DeliveryCardLine } from '../documents/delivery-card-pdf.ts';

const num = (v: number | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));

export const printDeliveryCards: ActionHandler<Order, OrderPrintDeliveryCardsInput> = async (ctx) => {
  const { deliveryCardLength, deliveryDetailLinesPerPage, maxPrintQty } = ctx.meta.app.constants;
  const printQty = ctx.input.printQty;
  // the input schema already holds printQty to 1..5000; this guards the constant the layout relies on
  if (printQty > Number(maxPrintQty)) ctx.fail(400, 'rule.printQty', { min: 1, max: Number(maxPrintQty) });
  const p = ctx.principal;
  const lines: DeliveryCardLine[] = ctx.records.map((o) => ({
    orderNo: String(o.orderNo ?? ''),
    itemNo: Number(o.itemNo),
    partsCode: String(o.partsCode ?? ''),
    orderQty: num(o.orderQty),
    perPackageQty: num(o.perPackageQty ?? o.minPackageQty),
    thisShipmentQty: num(o.thisShipmentQty),
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
    records: ctx.records,
    file: async () => ({ fileName, contentType: 'application/pdf', body: await renderDeliveryCards(cards, options) }),
  };
};
