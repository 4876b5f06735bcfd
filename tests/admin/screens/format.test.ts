/** Cell formatting: yyyy-MM-dd dates, date-times in local time, code labels, money, sizes, booleans. */
import { describe, expect, it } from 'vitest';
import { metadata } from '../../../admin/src/generated/index.ts';
import en from '../../../admin/src/generated/messages.en-US.json';
import { alignOf, formatDate, formatDateTime, formatFileSize, formatJson, makeFormatter, widthOf } from '../../../admin/src/screens/format.ts';
import { CELL_EXTRA_PX, textMeasurer } from '../../../admin/src/screens/table/measure.ts';

const translate = (k: string, o?: Record<string, unknown>) =>
  (en as Record<string, string>)[k] ?? (k === 'ra.boolean.true' ? 'Yes' : k === 'ra.boolean.false' ? 'No' : String(o?._ ?? k));
const pad = (n: number) => String(n).padStart(2, '0');

describe('format', () => {
  it('dates are yyyy-MM-dd; a plain date is never shifted by the time zone', () => {
    expect(formatDate('2026-11-22')).toBe('2026-11-22');
    const d = new Date('2026-11-22T10:28:07.146Z');
    expect(formatDate('2026-11-22T10:28:07.146Z')).toBe(`${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`);
    expect(formatDate(null)).toBe('');
  });
  it('date-times are yyyy-MM-dd HH:mm:ss in local time', () => {
    const d = new Date('2026-11-22T10:28:07.146Z');
    expect(formatDateTime('2026-11-22T10:28:07.146Z')).toBe(
      `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`,
    );
  });
  it('code values show their translated label', () => {
    const f = makeFormatter(metadata.entities.order.fields.status, undefined, translate, 'en-US');
    const released = metadata.codeTables.purchaseOrderStatus.values[0];
    expect(f(released.code)).toBe(en[`code.purchaseOrderStatus.${released.code}` as keyof typeof en]);
    expect(f('nope')).toBe('nope');
    expect(f(null)).toBe('');
  });
  it('money has two decimals, sizes a unit, booleans yes/no', () => {
    expect(makeFormatter(undefined, 'money', translate, 'en-US')(1234.5)).toBe('1,234.50');
    expect(formatFileSize(2048)).toBe('2.0 KB');
    expect(makeFormatter(metadata.entities.notice.fields.deleted, undefined, translate, 'en-US')(true)).toBe('Yes');
    expect(alignOf(metadata.entities.order.fields.orderQty, undefined)).toBe('right');
  });
  it('a column is as wide as its label and the widest value its field can hold', () => {
    const text = textMeasurer(400);
    const order = metadata.entities.order;
    // an identifier fits maxLength characters (never cut off)
    expect(order.fields.orderNo.identifier).toBe(true);
    expect(widthOf(order.fields.orderNo, undefined, 'No', translate, 'en-US')).toBeGreaterThanOrEqual(text('P2026111500000000000') + CELL_EXTRA_PX);
    // a code column fits its longest label
    const labels = metadata.codeTables.purchaseOrderStatus.values.map((v) => translate(`code.purchaseOrderStatus.${v.code}`));
    expect(widthOf(order.fields.status, undefined, 'S', translate, 'en-US')).toBeGreaterThanOrEqual(Math.max(...labels.map(text)) + CELL_EXTRA_PX);
    // a long header label is never cut off
    const label = 'Quantity shipped this time (pieces)';
    expect(widthOf(order.fields.orderQty, undefined, label, translate, 'en-US')).toBeGreaterThanOrEqual(textMeasurer(600)(label) + CELL_EXTRA_PX);
    // dates fit yyyy-MM-dd; free text stops at 240 px
    expect(widthOf(undefined, 'date', 'D', translate, 'en-US')).toBeGreaterThanOrEqual(text('2026-11-22') + CELL_EXTRA_PX);
    expect(widthOf({ ...order.fields.orderNo, identifier: undefined, maxLength: 500 }, undefined, 'R', translate, 'en-US')).toBe(240);
  });
  it("JSON (an interface message's payload) is indented; text that is no JSON stays as it is", () => {
    expect(makeFormatter(metadata.entities.interfaceMessage.fields.payload, 'json', translate, 'en-US')('{"orderNo":"P1","lines":[{"qty":2}]}')).toBe(
      '{\n  "orderNo": "P1",\n  "lines": [\n    {\n      "qty": 2\n    }\n  ]\n}',
    );
    expect(formatJson('gateway timeout')).toBe('gateway timeout');
    expect(formatJson(null)).toBe('');
  });
});
