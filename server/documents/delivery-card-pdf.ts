/**
 * Delivery cards (交货卡) as a PDF: `printQty` cards per order line, four to an A4 page, followed by
 * a detail list of every card, `linesPerPage` lines (metadata constant deliveryDetailLinesPerPage,
 * 27) to a landscape A4 page.
 *
 * Labels come from the message catalogues (the same field labels the screens show) in both
 * languages: the caller's language first and larger, the other one under it.
 */
import type { Locale } from '../../codegen/runtime/model.ts';
import { translate } from '../engine/i18n.ts';
import { code128Widths } from './code128.ts';
import { boxText, renderPdf, yieldToEventLoop, type Pdf } from './pdf.ts';

/* ------------------------------------------------------------------ card numbers */

/**
 * The card number: `length` characters (deliveryCardLength, 26), the same for the same card every
 * time it is printed, different for every card of every order line:
 *
 *   positions 1..length-6  order no, left-aligned, padded with '-' (order numbers never end with '-';
 *                          with length 26 that is 20 characters, the order no's maximum length)
 *   next 2                 item no: 01..99, then A0..ZZ for 100..1035 (a letter, then a base-36
 *                          digit: cannot collide with the decimal range, which starts with a digit)
 *   last 4                 card sequence within the line's print: 0001..9999 (print qty <= 5000)
 *
 * e.g. order P2026112200001, item 3, card 12: "P2026112200001------030012".
 */
export function cardNumber(orderNo: string, itemNo: number, seq: number, length = 26): string {
  const width = length - 6;
  const chars = [...orderNo];
  if (!orderNo || chars.length > width) throw new RangeError(`card number: order no "${orderNo}" does not fit in ${width} characters`);
  if (!Number.isInteger(seq) || seq < 1 || seq > 9999) throw new RangeError(`card number: sequence ${seq} outside 1..9999`);
  return chars.join('') + '-'.repeat(width - chars.length) + itemCode(itemNo) + String(seq).padStart(4, '0');
}

function itemCode(itemNo: number): string {
  if (!Number.isInteger(itemNo) || itemNo < 1 || itemNo > 1035) throw new RangeError(`card number: item no ${itemNo} outside 1..1035`);
  if (itemNo <= 99) return String(itemNo).padStart(2, '0');
  const i = itemNo - 100;
  return String.fromCharCode(65 + Math.floor(i / 36)) + (i % 36).toString(36).toUpperCase();
}

/* ------------------------------------------------------------------ model */

/** What a card shows of one order line (already formatted where it matters). */
export interface DeliveryCardLine {
  orderNo: string;
  itemNo: number;
  partsCode: string;
  orderQty: number | null;
  /** per-package qty: the line's perPackageQty, else its minPackageQty */
  perPackageQty: number | null;
  thisShipmentQty: number | null;
  deliveryPlace: string | null;
  /** warehouse code and name */
  warehouse: string;
  supplierCode: string | null;
  releaseDate: string | null;
  forecastReceiveDate: string | null;
}

export interface DeliveryCard extends DeliveryCardLine {
  cardNo: string;
  /** 1..printQty within its line */
  seq: number;
  printQty: number;
}

/** printQty cards for each line, in line order. */
export function buildCards(lines: DeliveryCardLine[], printQty: number, cardLength = 26): DeliveryCard[] {
  const out: DeliveryCard[] = [];
  for (const line of lines)
    for (let seq = 1; seq <= printQty; seq++) out.push({ ...line, seq, printQty, cardNo: cardNumber(line.orderNo, line.itemNo, seq, cardLength) });
  return out;
}

export const CARDS_PER_PAGE = 4;

/** Pages of a print: card pages, then detail-list pages. */
export const deliveryCardPageCount = (cards: number, linesPerPage: number): number => Math.ceil(cards / CARDS_PER_PAGE) + Math.ceil(cards / linesPerPage);

export interface CardPrintOptions {
  locale: Locale;
  /** deliveryDetailLinesPerPage */
  linesPerPage: number;
  printedAt: string;
  printedBy: string;
}

/* ------------------------------------------------------------------ drawing */

const MM = 72 / 25.4;
const GREY = '#555555';
const A4 = { w: 595.28, h: 841.89 };

interface Label {
  primary: string;
  secondary: string;
}
type Labeller = (key: string, args?: Record<string, string | number>) => Label;

function labeller(locale: Locale): Labeller {
  const other: Locale = locale === 'zh-CN' ? 'en-US' : 'zh-CN';
  return (key, args) => ({ primary: translate(locale, key, args), secondary: translate(other, key, args) });
}

const text = (v: string | number | null | undefined): string => (v === null || v === undefined ? '' : String(v));
const date = (v: string | null): string => (v ? v.slice(0, 10) : '');

/** The card's label/value rows, in print order. */
function cardRows(c: DeliveryCard): [labelKey: string, value: string][] {
  return [
    ['field.order.orderNo', c.orderNo],
    ['field.order.itemNo', text(c.itemNo)],
    ['field.common.partsCode', c.partsCode],
    ['field.common.orderQty', text(c.orderQty)],
    ['field.order.perPackageQty', text(c.perPackageQty)],
    ['field.order.thisShipmentQty', text(c.thisShipmentQty)],
    ['field.order.printQty', text(c.printQty)],
    ['field.order.deliveryPlace', text(c.deliveryPlace)],
    ['field.common.warehouseCode', c.warehouse],
    ['field.common.supplierCode', text(c.supplierCode)],
    ['field.common.releaseDate', date(c.releaseDate)],
    ['field.order.forecastReceiveDate', date(c.forecastReceiveDate)],
  ];
}

function drawBarcode(doc: Pdf, value: string, x: number, y: number, maxWidth: number, height: number): void {
  const widths = code128Widths(value);
  if (!widths) return;
  const modules = widths.reduce((a, b) => a + b, 0) + 20; // 10-module quiet zone each side
  const m = Math.min(1.2, maxWidth / modules);
  let cx = x + (maxWidth - (modules - 20) * m) / 2;
  widths.forEach((w, i) => {
    if (i % 2 === 0) doc.rect(cx, y, w * m, height);
    cx += w * m;
  });
  doc.fillColor('#000000').fill();
}

function drawCard(doc: Pdf, c: DeliveryCard, x: number, y: number, w: number, h: number, L: Labeller): void {
  const pad = 8;
  const inner = w - 2 * pad;
  doc.lineWidth(1).strokeColor('#000000').rect(x, y, w, h).stroke();

  const title = L('document.deliveryCard.title');
  boxText(doc, title.primary, x + pad, y + pad, inner * 0.6, { size: 14 });
  boxText(doc, title.secondary, x + pad, y + pad + 17, inner * 0.6, { size: 7, color: GREY });
  const seq = L('document.deliveryCard.sequence', { seq: c.seq, total: c.printQty });
  boxText(doc, seq.primary, x + pad + inner * 0.6, y + pad + 2, inner * 0.4, { size: 9, align: 'right' });
  boxText(doc, seq.secondary, x + pad + inner * 0.6, y + pad + 15, inner * 0.4, { size: 7, align: 'right', color: GREY });

  // card number: label, the number, its barcode
  let cy = y + pad + 30;
  const no = L('document.deliveryCard.cardNo');
  boxText(doc, `${no.primary} ${no.secondary}`, x + pad, cy, inner, { size: 7, color: GREY });
  boxText(doc, c.cardNo, x + pad, cy + 10, inner, { size: 12, align: 'center' });
  drawBarcode(doc, c.cardNo, x + pad, cy + 27, inner, 30);
  cy += 63;

  const rows = cardRows(c);
  const rowH = (y + h - pad - cy) / rows.length;
  const labelW = 96;
  doc.lineWidth(0.5).strokeColor('#888888');
  rows.forEach(([key, value], i) => {
    const ry = cy + i * rowH;
    doc
      .moveTo(x + pad, ry)
      .lineTo(x + w - pad, ry)
      .stroke();
    const l = L(key);
    boxText(doc, l.primary, x + pad + 2, ry + 3, labelW - 4, { size: 8 });
    boxText(doc, l.secondary, x + pad + 2, ry + 13, labelW - 4, { size: 6, color: GREY });
    const vx = x + pad + labelW;
    const vw = inner - labelW - 2;
    // long values (a delivery place) take two smaller lines instead of running out of the card
    doc.fontSize(10);
    if (doc.widthOfString(value) <= vw) boxText(doc, value, vx, ry + (rowH - 12) / 2, vw, { size: 10 });
    else boxText(doc, value, vx, ry + 1.5, vw, { size: 7, height: rowH - 1.5 });
  });
  doc
    .moveTo(x + pad, y + h - pad)
    .lineTo(x + w - pad, y + h - pad)
    .stroke();
  doc
    .moveTo(x + pad + labelW - 2, cy)
    .lineTo(x + pad + labelW - 2, y + h - pad)
    .stroke();
}

/** Columns of the detail list: label key, width (pt), value. The delivery place takes the rest. */
const DETAIL_COLUMNS: { key: string; width: number; value: (c: DeliveryCard, i: number) => string; align?: 'right' }[] = [
  { key: 'document.deliveryCard.lineNo', width: 30, value: (_c, i) => String(i + 1), align: 'right' },
  { key: 'document.deliveryCard.cardNo', width: 138, value: (c) => c.cardNo },
  { key: 'field.order.orderNo', width: 96, value: (c) => c.orderNo },
  { key: 'field.order.itemNo', width: 38, value: (c) => text(c.itemNo), align: 'right' },
  { key: 'field.common.partsCode', width: 96, value: (c) => c.partsCode },
  { key: 'field.order.perPackageQty', width: 62, value: (c) => text(c.perPackageQty), align: 'right' },
  { key: 'field.order.thisShipmentQty', width: 66, value: (c) => text(c.thisShipmentQty), align: 'right' },
  { key: 'field.order.deliveryPlace', width: 0, value: (c) => text(c.deliveryPlace) },
  { key: 'field.common.warehouseCode', width: 90, value: (c) => c.warehouse },
  { key: 'field.order.forecastReceiveDate', width: 70, value: (c) => date(c.forecastReceiveDate) },
];

function drawDetailPage(doc: Pdf, cards: DeliveryCard[], first: number, page: number, pages: number, opts: CardPrintOptions, L: Labeller): void {
  const W = A4.h;
  const H = A4.w;
  const margin = 28;
  const inner = W - 2 * margin;
  const fixed = DETAIL_COLUMNS.reduce((s, c) => s + c.width, 0);
  const widths = DETAIL_COLUMNS.map((c) => c.width || inner - fixed);

  const title = L('document.deliveryCard.detailTitle');
  boxText(doc, title.primary, margin, margin, inner, { size: 14 });
  boxText(doc, title.secondary, margin, margin + 18, inner, { size: 8, color: GREY });
  const by = L('document.deliveryCard.printedBy');
  const at = L('document.deliveryCard.printedAt');
  const total = L('document.deliveryCard.totalCards');
  const meta = [
    `${at.primary} ${at.secondary}: ${opts.printedAt.slice(0, 19).replace('T', ' ')}`,
    `${by.primary} ${by.secondary}: ${opts.printedBy}`,
    `${total.primary} ${total.secondary}: ${cards.length}`,
  ];
  boxText(doc, meta.join('    '), margin, margin + 32, inner, { size: 8 });

  // header row
  const top = margin + 48;
  const headH = 22;
  const rowH = 16.5;
  doc.rect(margin, top, inner, headH).fillColor('#eeeeee').fill();
  let cx = margin;
  DETAIL_COLUMNS.forEach((col, i) => {
    const l = L(col.key);
    boxText(doc, l.primary, cx + 2, top + 2, widths[i] - 4, { size: 7.5 });
    boxText(doc, l.secondary, cx + 2, top + 12, widths[i] - 4, { size: 6, color: GREY });
    cx += widths[i];
  });

  const lines = cards.slice(first, first + opts.linesPerPage);
  doc.lineWidth(0.5).strokeColor('#888888');
  lines.forEach((c, r) => {
    const ry = top + headH + r * rowH;
    let x = margin;
    DETAIL_COLUMNS.forEach((col, i) => {
      // right-aligned numbers keep a gap to the next (left-aligned) column
      boxText(doc, col.value(c, first + r), x + 2, ry + 4, widths[i] - (col.align ? 10 : 4), { size: 8, ...(col.align ? { align: col.align } : {}) });
      x += widths[i];
    });
    doc
      .moveTo(margin, ry + rowH)
      .lineTo(margin + inner, ry + rowH)
      .stroke();
  });
  const bottom = top + headH + lines.length * rowH;
  doc.rect(margin, top, inner, bottom - top).stroke();

  const p = L('document.deliveryCard.page', { page, pages });
  boxText(doc, `${p.primary}  ${p.secondary}`, margin, H - margin - 10, inner, { size: 8, align: 'center', color: GREY });
}

/** Renders the cards and their detail list. Yields to the event loop every few pages. */
export function renderDeliveryCards(cards: DeliveryCard[], opts: CardPrintOptions): Promise<Buffer> {
  const L = labeller(opts.locale);
  return renderPdf(
    async (doc) => {
      const margin = 6 * MM;
      const gap = 4 * MM;
      const cw = (A4.w - 2 * margin - gap) / 2;
      const ch = (A4.h - 2 * margin - gap) / 2;
      for (let i = 0; i < cards.length; i++) {
        const slot = i % CARDS_PER_PAGE;
        if (slot === 0) {
          doc.addPage({ size: 'A4', layout: 'portrait', margin: 0 });
          if ((i / CARDS_PER_PAGE) % 5 === 4) await yieldToEventLoop();
        }
        drawCard(doc, cards[i], margin + (slot % 2) * (cw + gap), margin + Math.floor(slot / 2) * (ch + gap), cw, ch, L);
      }
      const pages = Math.ceil(cards.length / opts.linesPerPage);
      for (let p = 0; p < pages; p++) {
        doc.addPage({ size: 'A4', layout: 'landscape', margin: 0 });
        drawDetailPage(doc, cards, p * opts.linesPerPage, p + 1, pages, opts, L);
        if (p % 5 === 4) await yieldToEventLoop();
      }
    },
    { info: { Title: 'Delivery cards', Creator: 'supplier portal' } },
  );
}
