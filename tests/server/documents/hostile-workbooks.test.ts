/**
 * Hostile workbooks sent to the fee-item import (consultingFeeItem.import) over the real HTTP
 * route: every one is built here (fflate zipSync), and every one must be refused quickly with a 4xx
 * naming the problem, without growing the process's memory, and the server must answer afterwards.
 *
 * Each case prints its status, time and RSS growth. The time bound (3 s) and the memory bound are
 * generous on purpose (a slow CI machine must not fail them): the reader refuses these in
 * milliseconds; before it had limits, a single cell reference blocked the event loop ~19 s and then
 * exhausted the heap, and a 216 KB zip bomb took 5-9 s and 280 MiB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { metadata } from '../../../server/generated/index.ts';
import { AppError } from '../../../server/engine/errors.ts';
import { feeItemTemplate, parseFeeItemWorkbook } from '../../../server/handlers/fee-import.ts';
import { readFirstSheet, UPLOAD_LIMITS, XlsxError } from '../../../server/documents/xlsx.ts';
import { bearer, build, login, multipart, type TestApp } from '../helpers.ts';

/* ------------------------------------------------------------------ building workbooks */

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const CONTENT_TYPES =
  `${DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
  '</Types>';
const WORKBOOK = `${DECL}<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Fees" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS =
  `${DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;

const HEADER = ['originalPartsCode', 'feePartsCode', 'consultingFee', 'managementRate', 'supplierCode', 'effectiveDate'];
const COLS = 'ABCDEF';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
/** A row of cells A, B, ...: strings inline (raw XML when `raw`), numbers as values. */
const rowXml = (r: number, cells: (string | number)[], raw = false) =>
  `<row r="${r}">${cells.map((v, i) => (typeof v === 'number' ? `<c r="${COLS[i]}${r}"><v>${v}</v></c>` : `<c r="${COLS[i]}${r}" t="inlineStr"><is><t>${raw ? v : esc(v)}</t></is></c>`)).join('')}</row>`;
let serial = 0;
/** A valid data row (unique parts codes): what a hostile workbook carries so that, unchecked, it would be imported. */
const dataCells = (): (string | number)[] => {
  serial++;
  return [`HOST-${serial}`, `ZX-HOST-${serial}`, 12.5, 0.05, 'S001', '2026-12-01'];
};
const HEADER_ROW = rowXml(1, HEADER);
const sheet = (sheetData: string, before = '') => `${DECL}<worksheet xmlns="${NS}" xmlns:r="${REL}">${before}<sheetData>${sheetData}</sheetData></worksheet>`;

/** An .xlsx package (content types first, so that it is recognised as one by its content). */
function xlsx(
  parts: { sheet: string | Uint8Array; shared?: string | Uint8Array; workbook?: string; extra?: Record<string, string> },
  level: 0 | 6 | 9 = 6,
): Buffer {
  const u8 = (x: string | Uint8Array) => (typeof x === 'string' ? strToU8(x) : x);
  const files: Zippable = {
    '[Content_Types].xml': strToU8(CONTENT_TYPES),
    'xl/workbook.xml': strToU8(parts.workbook ?? WORKBOOK),
    'xl/_rels/workbook.xml.rels': strToU8(WORKBOOK_RELS),
    'xl/worksheets/sheet1.xml': u8(parts.sheet),
    ...(parts.shared !== undefined ? { 'xl/sharedStrings.xml': u8(parts.shared) } : {}),
    ...Object.fromEntries(Object.entries(parts.extra ?? {}).map(([k, v]) => [k, strToU8(v)])),
  };
  return Buffer.from(zipSync(files, { level }));
}

/** Offsets of the local and central headers of an entry (both hold its sizes). */
function headersOf(zip: Buffer, name: string): { local: number; central: number } {
  const n = Buffer.from(name);
  let local = -1;
  let central = -1;
  for (let at = zip.indexOf(n); at >= 0; at = zip.indexOf(n, at + 1)) {
    if (at >= 30 && zip.readUInt32LE(at - 30) === 0x04034b50 && zip.readUInt16LE(at - 4) === n.length) local = at - 30;
    if (at >= 46 && zip.readUInt32LE(at - 46) === 0x02014b50 && zip.readUInt16LE(at - 18) === n.length) central = at - 46;
  }
  if (local < 0 || central < 0) throw new Error(`no entry ${name}`);
  return { local, central };
}
/** A copy of the zip whose entry `name` declares `size` uncompressed bytes (local and central header). */
function declareSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  const h = headersOf(out, name);
  out.writeUInt32LE(size, h.local + 22);
  out.writeUInt32LE(size, h.central + 24);
  return out;
}

/* ------------------------------------------------------------------ the hostile cases */

const MiB = 1024 * 1024;
const valid = () => sheet(HEADER_ROW + rowXml(2, dataCells()));

/** 60 MiB of sheet XML (non-empty rows) in a zip of a few hundred KB. */
function zipBombSheet(): string {
  const filler = '<row><c><v>1</v></c></row>';
  return sheet(HEADER_ROW + rowXml(2, dataCells()) + filler.repeat(Math.ceil((60 * MiB) / filler.length)));
}

/** Billion laughs: ten levels of ten references each, used in a shared string. */
const LAUGHS =
  `<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY lol0 "lol">` +
  Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('') +
  `]><sst xmlns="${NS}" count="1" uniqueCount="1"><si><t>&lol9;</t></si></sst>`;

interface Case {
  name: string;
  file: () => Buffer;
  status: number;
  code: string;
}

const cell = (ref: string, text = 'x') => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

const CASES: Case[] = [
  // 1. cell references that name absurd columns
  {
    name: 'a cell in column 4,294,967,294 (MWLQKWU2)',
    file: () => xlsx({ sheet: sheet(HEADER_ROW + `<row r="2">${cell('MWLQKWU2')}</row>`) }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  {
    name: 'a cell in column ~370 million (AEDQBKY1, in the header row)',
    file: () => xlsx({ sheet: sheet(HEADER_ROW.replace('</row>', `${cell('AEDQBKY1')}</row>`) + rowXml(2, dataCells())) }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  {
    name: "a cell past Excel's last column (XFE2)",
    file: () => xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, dataCells()).replace('</row>', `${cell('XFE2')}</row>`)) }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  {
    name: "a cell in column 101 (CW2), past the import's 100",
    file: () => xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, dataCells()).replace('</row>', `${cell('CW2')}</row>`)) }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  // 2. zip bombs: 60 MiB of sheet XML; honest sizes, and sizes that lie
  { name: 'zip bomb: 60 MiB sheet, declared', file: () => xlsx({ sheet: zipBombSheet() }, 9), status: 413, code: 'error.fileTooLarge' },
  {
    name: 'zip bomb: 60 MiB sheet declared as 1 KB',
    file: () => declareSize(xlsx({ sheet: zipBombSheet() }, 9), 'xl/worksheets/sheet1.xml', 1024),
    status: 413,
    code: 'error.fileTooLarge',
  },
  {
    name: 'zip bomb: 60 MiB shared strings',
    file: () => xlsx({ sheet: valid(), shared: `<sst xmlns="${NS}">${'<si><t>a</t></si>'.repeat((60 * MiB) / 17)}</sst>` }, 9),
    status: 413,
    code: 'error.fileTooLarge',
  },
  // 3. character references outside Unicode or XML
  ...['&#x110000;', '&#xD800;', '&#99999999999;', '&#0;'].map((ref) => ({
    name: `character reference ${ref}`,
    file: () => xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, [`P${ref}`, ...dataCells().slice(1)], true)) }),
    status: 400,
    code: 'error.fileType',
  })),
  {
    name: 'character reference &#x110000; in a shared string',
    file: () =>
      xlsx({ sheet: sheet(HEADER_ROW + `<row r="2"><c r="A2" t="s"><v>0</v></c></row>`), shared: `<sst xmlns="${NS}"><si><t>&#x110000;</t></si></sst>` }),
    status: 400,
    code: 'error.fileType',
  },
  {
    name: 'character reference &#x110000; in the sheet name',
    file: () => xlsx({ sheet: valid(), workbook: WORKBOOK.replace('name="Fees"', 'name="&#x110000;"') }),
    status: 400,
    code: 'error.fileType',
  },
  // malformed zips
  {
    name: 'malformed zip: truncated',
    file: () => {
      const z = xlsx({ sheet: valid() });
      return z.subarray(0, Math.floor(z.length * 0.7));
    },
    status: 400,
    code: 'error.fileType',
  },
  {
    name: 'malformed zip: wrong central directory signature',
    file: () => {
      const z = xlsx({ sheet: valid() });
      z.writeUInt32LE(0x02014b51, headersOf(z, 'xl/worksheets/sheet1.xml').central);
      return z;
    },
    status: 400,
    code: 'error.fileType',
  },
  {
    name: 'malformed zip: wrong local header signature of the sheet',
    file: () => {
      const z = xlsx({ sheet: valid() });
      z.writeUInt32LE(0x04034b51, headersOf(z, 'xl/worksheets/sheet1.xml').local);
      return z;
    },
    status: 400,
    code: 'error.fileType',
  },
  {
    name: 'malformed zip: the local header of the sheet names another entry',
    file: () => {
      const z = xlsx({ sheet: valid() });
      z.write('9', headersOf(z, 'xl/worksheets/sheet1.xml').local + 30 + 19);
      return z;
    },
    status: 400,
    code: 'error.fileType',
  },
  {
    name: 'malformed zip: sheet declared smaller than it inflates to',
    file: () => declareSize(xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, dataCells()) + rowXml(3, dataCells())) }), 'xl/worksheets/sheet1.xml', 400),
    status: 400,
    code: 'error.fileType',
  },
  {
    name: 'malformed zip: sheet data corrupted (CRC mismatch)',
    file: () => {
      const z = xlsx({ sheet: valid() }, 0);
      const h = headersOf(z, 'xl/worksheets/sheet1.xml');
      const at = z.indexOf('ZX-HOST', h.local);
      z.write('ZY', at);
      return z;
    },
    status: 400,
    code: 'error.fileType',
  },
  {
    name: 'malformed zip: the sheet stored twice under one name',
    file: () => {
      const z = xlsx({ sheet: valid(), extra: { 'xl/worksheets/sheet9.xml': valid() } });
      const h = headersOf(z, 'xl/worksheets/sheet9.xml');
      z.write('1', h.local + 30 + 19);
      z.write('1', h.central + 46 + 19);
      return z;
    },
    status: 400,
    code: 'error.fileType',
  },
  // declared and actual extents
  {
    name: 'dimension A1:XFD1048576',
    file: () => xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, dataCells()), '<dimension ref="A1:XFD1048576"/>') }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  {
    name: 'dimension A1:F1048576 (a million rows declared)',
    file: () => xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, dataCells()), '<dimension ref="A1:F1048576"/>') }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  { name: 'a row numbered 1048577', file: () => xlsx({ sheet: sheet(HEADER_ROW + rowXml(1048577, dataCells())) }), status: 413, code: 'error.payloadTooLarge' },
  {
    name: 'a million empty rows',
    file: () => xlsx({ sheet: sheet(HEADER_ROW + '<row/>'.repeat(1_000_000) + rowXml(1_000_002, dataCells())) }, 9),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  {
    name: '5,001 data rows',
    file: () => xlsx({ sheet: sheet(HEADER_ROW + Array.from({ length: 5001 }, (_, i) => rowXml(i + 2, dataCells())).join('')) }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  // shared strings
  {
    name: 'shared strings declaring count 999,999,999',
    file: () =>
      xlsx({
        sheet: sheet(HEADER_ROW + `<row r="2"><c r="A2" t="s"><v>0</v></c></row>` + rowXml(3, dataCells())),
        shared: `<sst xmlns="${NS}" count="999999999" uniqueCount="999999999"><si><t>P1</t></si></sst>`,
      }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  {
    name: 'one shared string of 32,000 digits used by 30,000 cells',
    file: () =>
      xlsx({
        sheet: sheet(
          HEADER_ROW +
            Array.from({ length: 5000 }, (_, r) => `<row r="${r + 2}">${[...COLS].map((c) => `<c r="${c}${r + 2}" t="s"><v>0</v></c>`).join('')}</row>`).join(
              '',
            ),
        ),
        shared: `<sst xmlns="${NS}"><si><t>${'1'.repeat(32_000)}</t></si></sst>`,
      }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  {
    name: '150,000 shared strings',
    file: () => xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, dataCells())), shared: `<sst xmlns="${NS}">${'<si><t>s</t></si>'.repeat(150_000)}</sst>` }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  // XML nesting, text length, markup
  {
    name: 'elements nested 100,000 deep',
    file: () =>
      xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, dataCells()).replace('<v>12.5</v>', `<v>12.5</v>${'<x>'.repeat(100_000)}${'</x>'.repeat(100_000)}`)) }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  {
    name: 'a cell text of a million characters',
    file: () => xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, ['P'.repeat(1_000_000), ...dataCells().slice(1)])) }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  {
    name: 'a cell value of a million digits',
    file: () => xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, dataCells()).replace('<v>12.5</v>', `<v>${'1'.repeat(1_000_000)}</v>`)) }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  {
    name: 'a start tag of a million attribute-name characters',
    file: () => xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, dataCells()).replace('<c r="C2">', `<c r="C2" ${'a'.repeat(1_000_000)}>`)) }),
    status: 400,
    code: 'error.fileType',
  },
  {
    name: '200,000 unclosed cells (each nested in the one before)',
    file: () => xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, dataCells()) + `<row r="3">${'<c r="A3">'.repeat(200_000)}</row>`) }),
    status: 413,
    code: 'error.payloadTooLarge',
  },
  {
    name: 'mismatched end tags',
    file: () => xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, dataCells()).replace('</row>', '</c></row>')) }),
    status: 400,
    code: 'error.fileType',
  },
  // entity expansion
  {
    name: 'entity expansion (billion laughs) in the shared strings',
    file: () => xlsx({ sheet: sheet(HEADER_ROW + `<row r="2"><c r="A2" t="s"><v>0</v></c></row>` + rowXml(3, dataCells())), shared: LAUGHS }),
    status: 400,
    code: 'error.fileType',
  },
  {
    name: 'an external entity in the sheet',
    file: () =>
      xlsx({
        sheet:
          `<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY x SYSTEM "file:///etc/passwd">]>` +
          sheet(HEADER_ROW + rowXml(2, ['&x;', ...dataCells().slice(1)], true)).slice(DECL.length),
      }),
    status: 400,
    code: 'error.fileType',
  },
];

/* ------------------------------------------------------------------ over HTTP */

let t: TestApp;
let staff: string;
beforeAll(async () => {
  t = await build();
  staff = await login(t.app, 'staff01');
});
afterAll(() => t?.close());

const upload = (data: Buffer) => {
  const m = multipart({}, { name: 'fees.xlsx', data });
  return t.app.inject({
    method: 'POST',
    url: '/api/consulting-fee-items/actions/import',
    headers: { ...bearer(staff), ...m.headers, 'accept-language': 'en-US' },
    payload: m.payload,
  });
};
const answers = async () => (await t.app.inject({ method: 'GET', url: '/api/consulting-fee-items?range=[0,0]', headers: bearer(staff) })).statusCode;

describe('hostile workbooks over HTTP: refused quickly with a 4xx, bounded memory, the server answers afterwards', () => {
  it('a valid workbook built the same way is imported (the cases below differ from it in one hostile detail)', async () => {
    const r = await upload(xlsx({ sheet: valid() }));
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().result).toEqual({ imported: 1 });
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const file = c.file();
      const rss0 = process.memoryUsage().rss;
      const started = performance.now();
      const r = await upload(file);
      const ms = performance.now() - started;
      const grown = (process.memoryUsage().rss - rss0) / MiB;
      console.log(
        `${c.name}: ${file.length} bytes -> ${r.statusCode} ${r.json().code} in ${ms.toFixed(0)} ms, rss ${grown >= 0 ? '+' : ''}${grown.toFixed(1)} MiB`,
      );
      expect([r.statusCode, r.json().code], r.body.slice(0, 300)).toEqual([c.status, c.code]);
      expect(ms).toBeLessThan(3000);
      expect(grown).toBeLessThan(128);
      expect(await answers()).toBe(200);
    });
  }

  it('after all of them, a valid workbook is still imported', async () => {
    const r = await upload(xlsx({ sheet: valid() }));
    expect(r.statusCode, r.body).toBe(200);
  });
});

/* ------------------------------------------------------------------ the limit named in the error */

const errorOf = (fn: () => unknown): AppError | XlsxError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError || err instanceof XlsxError) return err;
    throw err;
  }
  throw new Error('expected an error');
};

describe('the refusal names the limit', () => {
  const limitOf = (sheetXml: string, shared?: string) => {
    const err = errorOf(() => parseFeeItemWorkbook(metadata, xlsx({ sheet: sheetXml, ...(shared !== undefined ? { shared } : {}) }))) as AppError;
    return [err.statusCode, err.code, err.args];
  };

  it('columns, rows, row numbers, shared strings, cell text, nesting and part sizes', () => {
    expect(limitOf(sheet(HEADER_ROW + `<row r="2">${cell('MWLQKWU2')}</row>`))).toEqual([413, 'error.payloadTooLarge', { limit: 'columns', max: 100 }]);
    expect(limitOf(sheet(HEADER_ROW, '<dimension ref="A1:XFD1048576"/>'))).toEqual([413, 'error.payloadTooLarge', { limit: 'columns', max: 100 }]);
    expect(limitOf(sheet(HEADER_ROW + rowXml(1048577, dataCells())))).toEqual([413, 'error.payloadTooLarge', { limit: 'rowNumber', max: 100_000 }]);
    expect(limitOf(sheet(HEADER_ROW + Array.from({ length: 5001 }, (_, i) => rowXml(i + 2, dataCells())).join('')))).toEqual([
      413,
      'error.payloadTooLarge',
      { limit: 'rows', max: 5000 },
    ]);
    expect(limitOf(sheet(HEADER_ROW), `<sst xmlns="${NS}" count="999999999" uniqueCount="999999999"/>`)).toEqual([
      413,
      'error.payloadTooLarge',
      { limit: 'sharedStrings', max: 100_000 },
    ]);
    expect(limitOf(sheet(HEADER_ROW + rowXml(2, ['P'.repeat(32_768)])))).toEqual([413, 'error.payloadTooLarge', { limit: 'cellChars', max: 32_767 }]);
    const manyRefs = Array.from(
      { length: 300 },
      (_, r) => `<row r="${r + 2}">${[...COLS].map((c) => `<c r="${c}${r + 2}" t="s"><v>0</v></c>`).join('')}</row>`,
    ).join('');
    expect(limitOf(sheet(HEADER_ROW + manyRefs), `<sst xmlns="${NS}"><si><t>${'1'.repeat(32_000)}</t></si></sst>`)).toEqual([
      413,
      'error.payloadTooLarge',
      { limit: 'textChars', max: UPLOAD_LIMITS.textChars },
    ]);
    expect(limitOf(sheet(HEADER_ROW + `<row r="2">${'<x>'.repeat(100)}${'</x>'.repeat(100)}</row>`))).toEqual([
      413,
      'error.payloadTooLarge',
      { limit: 'depth', max: UPLOAD_LIMITS.depth },
    ]);
    expect(limitOf(zipBombSheet())).toEqual([413, 'error.fileTooLarge', { limit: 'sheetBytes', max: UPLOAD_LIMITS.sheetBytes / 1024 }]); // named in KB, as the upload limit is
  });

  it('a cell text of exactly 32,767 characters and a workbook of 5,000 data rows are read', () => {
    const long = parseFeeItemWorkbook(metadata, xlsx({ sheet: sheet(HEADER_ROW + rowXml(2, ['P'.repeat(32_767), ...dataCells().slice(1)])) }));
    expect(long.errors.map((e) => e.key)).toEqual(['validation.maxLength']);
    const started = performance.now();
    const full = parseFeeItemWorkbook(
      metadata,
      xlsx({ sheet: sheet(HEADER_ROW + Array.from({ length: 5000 }, (_, i) => rowXml(i + 2, dataCells())).join('')) }),
    );
    console.log(`5,000 data rows parsed and validated in ${(performance.now() - started).toFixed(0)} ms`);
    expect(full.errors).toEqual([]);
    expect(full.rows).toHaveLength(5000);
  });

  it('the template the server offers, filled to the row limit, stays well within every size limit', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      originalPartsCode: `8E0-615-${i}-A`,
      feePartsCode: `ZX-8E0-615-${i}`,
      consultingFee: 12345.67,
      managementRate: 0.05,
      supplierCode: 'S001',
      effectiveDate: '2026-12-01',
      ordinarySalesPrice: 300.25,
      urgentOrderPrice: 400.5,
      standardCost: 123.45,
      generalConsultingFee: 11.11,
      emergencyConsultingFee: 22.22,
    }));
    const file = feeItemTemplate(metadata, 'zh-CN', rows).body;
    const parsed = parseFeeItemWorkbook(metadata, file);
    expect(parsed.errors).toEqual([]);
    expect(parsed.rows).toHaveLength(5000);
  });

  it('the reader refuses with an XlsxError, never another exception', () => {
    const err = errorOf(() => readFirstSheet(xlsx({ sheet: sheet(HEADER_ROW + `<row r="2">${cell('MWLQKWU2')}</row>`) }), UPLOAD_LIMITS)) as XlsxError;
    expect(err).toBeInstanceOf(XlsxError);
    expect([err.problem, err.limit, err.max]).toEqual(['tooLarge', 'columns', UPLOAD_LIMITS.columns]);
    // Excel's own limits hold by default too
    expect((errorOf(() => readFirstSheet(xlsx({ sheet: sheet(`<row r="2">${cell('XFE2')}</row>`) }))) as XlsxError).limit).toBe('columns');
    expect((errorOf(() => readFirstSheet(xlsx({ sheet: sheet(`<row r="1048577">${cell('A1048577')}</row>`) }))) as XlsxError).limit).toBe('rowNumber');
    for (const bad of [Buffer.from('PK\u0003\u0004'), Buffer.from('PK\u0003\u0004' + '\u0000'.repeat(100)), Buffer.alloc(0)])
      expect(errorOf(() => readFirstSheet(bad))).toBeInstanceOf(XlsxError);
  });
});
