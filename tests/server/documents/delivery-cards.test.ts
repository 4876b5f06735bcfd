/**
 * Delivery cards: the card number, the Code 128 encoding, the PDF itself (page count, embedded
 * TrueType CJK font with real outlines, Chinese text that comes back out) and the action end to end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCards, cardNumber, deliveryCardPageCount, renderDeliveryCards, type DeliveryCardLine } from '../../../server/documents/delivery-card-pdf.ts';
import { code128Values, code128Widths, CODE128_PATTERNS } from '../../../server/documents/code128.ts';
import { cjkFont } from '../../../server/documents/fonts.ts';
import { metadata } from '../../../server/generated/index.ts';
import { RowWriter } from '../../../server/seed/writer.ts';
import { bearer, build, code, login, type TestApp } from '../helpers.ts';
import { inspectPdf } from './pdf-inspect.ts';

const LENGTH = Number(metadata.app.constants.deliveryCardLength);
const LINES = Number(metadata.app.constants.deliveryDetailLinesPerPage);

const line: DeliveryCardLine = {
  orderNo: 'P2026112200001',
  itemNo: 3,
  partsCode: '5QD-807-221-A',
  orderQty: 1200,
  perPackageQty: 20,
  thisShipmentQty: 600,
  deliveryPlace: '上海市嘉定区安亭镇墨玉南路888号',
  warehouse: 'PDC01 上海配件中心',
  supplierCode: 'S001',
  releaseDate: '2026-11-20',
  forecastReceiveDate: '2026-12-01',
};

describe('card number', () => {
  it('is deliveryCardLength (26) characters: order no padded, item no, sequence', () => {
    expect(LENGTH).toBe(26);
    const no = cardNumber('P2026112200001', 3, 12, LENGTH);
    expect(no).toBe('P2026112200001------030012');
    expect(no).toHaveLength(26);
    expect(cardNumber('A'.repeat(20), 99, 5000)).toBe(`${'A'.repeat(20)}995000`);
  });

  it('is deterministic and unique per order line and card', () => {
    expect(cardNumber('P1', 1, 1)).toBe(cardNumber('P1', 1, 1));
    const seen = new Set<string>();
    for (const orderNo of ['P1', 'P10', 'P100', 'P2026112200001', 'X'.repeat(20)])
      for (const item of [1, 2, 10, 99, 100, 135, 1035])
        for (const seq of [1, 2, 10, 4999, 5000]) {
          const no = cardNumber(orderNo, item, seq);
          expect(no).toHaveLength(26);
          seen.add(no);
        }
    expect(seen.size).toBe(5 * 7 * 5);
  });

  it('keeps item numbers above 99 apart from the decimal range', () => {
    expect(cardNumber('P1', 100, 1).slice(20, 22)).toBe('A0');
    expect(cardNumber('P1', 135, 1).slice(20, 22)).toBe('AZ');
    expect(cardNumber('P1', 136, 1).slice(20, 22)).toBe('B0');
    expect(cardNumber('P1', 1035, 1).slice(20, 22)).toBe('ZZ');
  });

  it('refuses what 26 characters cannot carry', () => {
    expect(() => cardNumber('A'.repeat(21), 1, 1)).toThrow(RangeError);
    expect(() => cardNumber('', 1, 1)).toThrow(RangeError);
    expect(() => cardNumber('P1', 1036, 1)).toThrow(RangeError);
    expect(() => cardNumber('P1', 1, 10000)).toThrow(RangeError);
  });

  it('buildCards gives printQty cards per line, numbered 1..printQty', () => {
    const cards = buildCards([line, { ...line, itemNo: 4 }], 3);
    expect(cards.map((c) => c.seq)).toEqual([1, 2, 3, 1, 2, 3]);
    expect(new Set(cards.map((c) => c.cardNo)).size).toBe(6);
  });
});

describe('code 128', () => {
  it('has a valid pattern table: 106 symbols of 11 modules, 3 bars with an even width sum', () => {
    expect(CODE128_PATTERNS).toHaveLength(106);
    expect(new Set(CODE128_PATTERNS).size).toBe(106);
    for (const p of CODE128_PATTERNS) {
      const w = p.split('').map(Number);
      expect(w.reduce((a, b) => a + b, 0)).toBe(11);
      expect((w[0] + w[2] + w[4]) % 2).toBe(0);
    }
  });

  it('encodes code set B with the mod-103 checksum', () => {
    // (104 + 48*1 + 42*2 + 42*3 + 17*4 + 18*5 + 19*6 + 35*7) mod 103 = 879 mod 103 = 55
    expect(code128Values('PJJ123C')).toEqual([104, 48, 42, 42, 17, 18, 19, 35, 55]);
    const widths = code128Widths(cardNumber('P1', 1, 1))!;
    expect(widths.reduce((a, b) => a + b, 0)).toBe((26 + 2) * 11 + 13);
    expect(code128Widths('交货')).toBeNull();
  });
});

describe('delivery card PDF', () => {
  it('uses a TrueType CJK font that a fresh npm install provides', () => {
    const font = cjkFont();
    expect(font.data.readUInt32BE(0)).toBe(0x00010000);
    if (!process.env.PORTAL_CJK_FONT) expect(font.path).toMatch(/@expo-google-fonts[\\/]noto-sans-sc/);
  });

  it('has the cards (4 a page) and a detail list of 27 lines a page, with Chinese text that renders and extracts', async () => {
    const cards = buildCards([line], 60, LENGTH);
    const pdf = await renderDeliveryCards(cards, { locale: 'zh-CN', linesPerPage: LINES, printedAt: '2026-11-22T10:00:00.000Z', printedBy: '张伟' });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const info = inspectPdf(pdf);
    // 60 cards: 15 card pages + 3 detail pages (27 + 27 + 6 lines)
    expect(deliveryCardPageCount(60, LINES)).toBe(15 + 3);
    expect(info.pageCount).toBe(18);

    // one embedded TrueType font (FontFile2), no CFF (FontFile3)
    expect(info.fonts).toHaveLength(1);
    expect(info.fonts[0].embedded).toBe('FontFile2');
    expect(info.fonts[0].baseFont).toMatch(/^[A-Z]{6}\+NotoSansSC/);

    const card = info.pages[0];
    for (const s of [
      '交货卡',
      'Delivery Card',
      '订单号',
      '零件号',
      '每箱数量',
      '本次发货数量',
      '打印数量',
      '交货地点',
      '供应商代码',
      '预计到货日期',
      '上海市嘉定区安亭镇墨玉南路888号',
      '上海配件中心',
      '第 1 / 60 张',
      cardNumber(line.orderNo, 3, 1),
    ]) {
      expect(card).toContain(s);
    }
    expect(info.pages[1]).toContain('第 5 / 60 张');

    // detail list: 27 numbered lines on the first detail page, 6 on the last
    const detail = info.pages.slice(15);
    expect(detail[0]).toContain('交货明细');
    expect(detail[0]).toContain('第 1 / 3 页');
    const lineCount = (page: string) => page.split('\n').filter((l) => /^P2026112200001-+03\d{4}$/.test(l)).length;
    expect(detail.map(lineCount)).toEqual([27, 27, 6]);
    expect(detail[2]).toContain(cardNumber(line.orderNo, 3, 60));

    // every glyph drawn has an outline in the embedded subset (only the space is empty)
    const font = info.fonts[0];
    const blank = new Set(
      info.codes
        .flat()
        .filter((c) => font.glyphLength(c) <= 0)
        .map((c) => font.toUnicode.get(c)),
    );
    expect([...blank].filter((ch) => ch !== ' ')).toEqual([]);
  });

  it("puts the caller's language first", async () => {
    const pdf = await renderDeliveryCards(buildCards([line], 1), {
      locale: 'en-US',
      linesPerPage: LINES,
      printedAt: '2026-11-22T10:00:00.000Z',
      printedBy: 'Zhang Wei',
    });
    const info = inspectPdf(pdf);
    expect(info.pageCount).toBe(2);
    expect(info.pages[0].indexOf('Delivery Card')).toBeLessThan(info.pages[0].indexOf('交货卡'));
  });
});

describe('order.printDeliveryCards action', () => {
  let t: TestApp;
  let token: string;
  let confirmedId: number;
  let releasedId: number;
  beforeAll(async () => {
    t = await build();
    const base = {
      partsCode: '5QD-807-221-A',
      orderQty: 100,
      minPackageQty: 10,
      thisShipmentQty: 50,
      warehouseCode: 'PDC01',
      directSupplierCode: 'S001',
      deliveryPlace: '上海市嘉定区',
      releaseDate: '2026-11-20',
      forecastReceiveDate: '2026-12-01',
    };
    [confirmedId, releasedId] = await RowWriter.write(t.app.db, metadata, (w) => [
      w.insert('order', { ...base, orderNo: 'PCARDTEST0001', itemNo: 1, status: code('purchaseOrderStatus', 'confirmed') }),
      w.insert('order', { ...base, orderNo: 'PCARDTEST0001', itemNo: 2, status: code('purchaseOrderStatus', 'released') }),
    ]);
    token = await login(t.app, 'sup01');
  });
  afterAll(async () => t?.close());

  const print = (id: number, body: unknown, tok = token) =>
    t.app.inject({ method: 'POST', url: `/api/orders/${id}/actions/printDeliveryCards`, headers: bearer(tok), payload: body as object });

  it('answers a PDF of printQty cards with the file name of the order', async () => {
    const r = await print(confirmedId, { printQty: 5 });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(String(r.headers['content-disposition'])).toContain('delivery-cards-PCARDTEST0001.pdf');
    const info = inspectPdf(r.rawPayload);
    expect(info.pageCount).toBe(deliveryCardPageCount(5, LINES));
    expect(info.pages[0]).toContain('PCARDTEST0001-------010001');
    expect(info.pages[0]).toContain('上海市嘉定区');
  });

  it('is refused for a line that is not confirmed yet, for print qty over 5000 and for another supplier', async () => {
    expect((await print(releasedId, { printQty: 1 })).statusCode).toBe(409);
    const tooMany = await print(confirmedId, { printQty: 5001 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errors.printQty).toBe('rule.printQty');
    const other = await login(t.app, 'sup02');
    expect((await print(confirmedId, { printQty: 1 }, other)).statusCode).toBe(404);
  });
});
