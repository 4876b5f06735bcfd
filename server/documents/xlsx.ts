/**
 * A small, synchronous .xlsx reader and writer on top of fflate (zip) and plain string scanning.
 *
 * Why not a library: SheetJS `xlsx` on npm is frozen with known CVEs; exceljs and read-excel-file
 * only read asynchronously, but action handlers run synchronously inside a better-sqlite3
 * transaction. Reading the first sheet's cell values needs only four XML parts of the package, and
 * fflate (already pdfkit's dependency) unzips synchronously. Styles, formulas (the cached value is
 * read), merged cells and further sheets are deliberately ignored.
 *
 * Defensive limits: only the needed zip entries are inflated, each at most MAX_PART_BYTES as
 * declared by the zip (fflate never writes past the declared size), so a zip bomb cannot exhaust
 * memory.
 */
import { NS, PKG_REL_NS, REL_NS, STYLES, XML_DECL } from './xlsx-parts.ts';
import { strFromU8, strToU8, unzipSync, zipSync, type Zippable } from 'fflate';

export type CellValue = string | number | boolean | null;
/** One non-empty row of a sheet: its Excel row number (1-based) and cells by column index (0 = A). */
export interface SheetRow { row: number; cells: CellValue[] }
export interface SheetData { name: string; rows: SheetRow[]; date1904: boolean }

export type XlsxProblem = 'notXlsx' | 'tooLarge' | 'noSheet';
export class XlsxError extends Error {
  constructor(readonly problem: XlsxProblem, detail?: string) {
    super(`xlsx: ${problem}${detail ? ` (${detail})` : ''}`);
    this.name = 'XlsxError';
  }
}

const MAX_PART_BYTES = 64 * 1024 * 1024;

/* ------------------------------------------------------------------ XML scanning */

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
export const decodeXml = (s: string): string =>
  s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos);/g, (_, e: string) =>
    e[0] === '#' ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)) : ENTITIES[e],
  );

/** Attributes of a start tag, names without their namespace prefix (`r:id` -> `id`). */
function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out[m[1].replace(/^[\w.-]+:/, '')] = decodeXml(m[2] ?? m[3] ?? '');
  return out;
}

/** Every element `name` (any namespace prefix): its attribute text and inner XML ('' when self-closing). */
function* elements(xml: string, name: string): Generator<{ attrs: string; inner: string }> {
  const re = new RegExp(`<(?:[\\w.-]+:)?${name}(\\s[^>]*?)?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>)`, 'g');
  for (const m of xml.matchAll(re)) yield { attrs: m[1] ?? '', inner: m[2] ?? '' };
}

/**
 * Text of a string item (<si> or <is>): its <t> runs joined. Phonetic runs (<rPh>, furigana that
 * East Asian Excel adds) are not part of the value.
 */
function runText(inner: string): string {
  const clean = inner.replace(/<(?:[\w.-]+:)?rPh\b[\s\S]*?<\/(?:[\w.-]+:)?rPh>/g, '');
  let s = '';
  for (const t of elements(clean, 't')) s += decodeXml(t.inner);
  return s;
}

/** Column index (0-based) of a cell reference like "AB12". */
export function columnIndex(ref: string): number {
  const letters = /^[A-Za-z]+/.exec(ref)?.[0] ?? '';
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

export function columnName(index: number): string {
  let s = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

/* ------------------------------------------------------------------ reading */

function unzipParts(data: Uint8Array, wanted: (name: string) => boolean): Record<string, string> {
  let tooLarge = '';
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(data, {
      filter: (f) => {
        if (!wanted(f.name)) return false;
        if (f.originalSize > MAX_PART_BYTES) {
          tooLarge = f.name;
          return false;
        }
        return true;
      },
    });
  } catch (err) {
    throw new XlsxError('notXlsx', (err as Error).message);
  }
  if (tooLarge) throw new XlsxError('tooLarge', tooLarge);
  const out: Record<string, string> = {};
  for (const [name, bytes] of Object.entries(files)) out[name] = strFromU8(bytes);
  return out;
}

/** Resolves a relationship target against the folder of the part that refers to it. */
function resolveTarget(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  return parts.join('/');
}

/** Reads the first worksheet of an .xlsx file; throws XlsxError when the bytes are not one. */
export function readFirstSheet(data: Uint8Array): SheetData {
  // a zip starts with a local file header; anything else (xls, csv, pdf ...) is refused before unzipping
  if (data.length < 4 || data[0] !== 0x50 || data[1] !== 0x4b || data[2] !== 0x03 || data[3] !== 0x04) throw new XlsxError('notXlsx', 'not a zip file');
  const meta = unzipParts(data, (n) => n === 'xl/workbook.xml' || n === 'xl/_rels/workbook.xml.rels' || n === 'xl/sharedStrings.xml');
  const workbook = meta['xl/workbook.xml'];
  if (!workbook) throw new XlsxError('notXlsx', 'no xl/workbook.xml');
  const first = elements(workbook, 'sheet').next().value;
  if (!first) throw new XlsxError('noSheet');
  const sheetAttrs = attrs(first.attrs);
  let sheetPath = 'xl/worksheets/sheet1.xml';
  for (const rel of elements(meta['xl/_rels/workbook.xml.rels'] ?? '', 'Relationship')) {
    const a = attrs(rel.attrs);
    if (a.Id === sheetAttrs.id && a.Target) sheetPath = resolveTarget('xl/workbook.xml', a.Target);
  }
  const pr = elements(workbook, 'workbookPr').next().value;
  const date1904 = pr ? ['1', 'true'].includes(attrs(pr.attrs).date1904 ?? '') : false;

  const shared: string[] = [];
  for (const si of elements(meta['xl/sharedStrings.xml'] ?? '', 'si')) shared.push(runText(si.inner));

  const sheetXml = unzipParts(data, (n) => n === sheetPath)[sheetPath];
  if (sheetXml === undefined) throw new XlsxError('noSheet', sheetPath);
  const sheetData = elements(sheetXml, 'sheetData').next().value?.inner ?? '';

  const rows: SheetRow[] = [];
  let rowNo = 0;
  for (const r of elements(sheetData, 'row')) {
    const ra = attrs(r.attrs);
    rowNo = ra.r ? Number(ra.r) : rowNo + 1;
    const cells: CellValue[] = [];
    let col = -1;
    for (const c of elements(r.inner, 'c')) {
      const ca = attrs(c.attrs);
      col = ca.r ? columnIndex(ca.r) : col + 1;
      const v = elements(c.inner, 'v').next().value;
      const raw = v ? decodeXml(v.inner) : '';
      let value: CellValue;
      switch (ca.t) {
        case 's':
          value = shared[Number(raw)] ?? null;
          break;
        case 'inlineStr': {
          const is = elements(c.inner, 'is').next().value;
          value = is ? runText(is.inner) : '';
          break;
        }
        case 'str': // cached result of a string formula
        case 'e': // an error value (#N/A ...): kept as text so validation names it
        case 'd': // ISO 8601 date cell (rare)
          value = raw;
          break;
        case 'b':
          value = raw === '1' || raw === 'true';
          break;
        default:
          value = raw === '' ? null : Number(raw);
      }
      cells[col] = value;
    }
    for (let i = 0; i < cells.length; i++) if (cells[i] === undefined) cells[i] = null;
    if (cells.some((x) => x !== null && x !== '')) rows.push({ row: rowNo, cells });
  }
  return { name: sheetAttrs.name ?? '', rows, date1904 };
}

/** Calendar date (yyyy-MM-dd) of an Excel date serial number, or null when it is none. */
export function excelSerialToDate(serial: number, date1904 = false): string | null {
  if (!Number.isFinite(serial) || serial < 1 || serial > 2958465) return null;
  const days = Math.floor(serial);
  // 1900 system: day 1 is 1900-01-01 and Excel counts a 29 February 1900 that never was (day 60)
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : days < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30);
  return new Date(epoch + days * 86_400_000).toISOString().slice(0, 10);
}

/* ------------------------------------------------------------------ writing */

// characters XML 1.0 cannot carry at all (control characters other than tab, newline, return)
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
export const escapeXml = (s: string): string => s.replace(INVALID_XML, '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export interface SheetColumn { width?: number; text?: boolean }
export interface WriteSheet {
  name: string;
  rows: CellValue[][];
  /** per column: width in characters; `text` formats the column as Text so typed codes keep leading zeros */
  columns?: SheetColumn[];
  /** the first row is a header: bold, frozen */
  header?: boolean;
}



function sheetXml(s: WriteSheet): string {
  const cols = s.columns ?? [];
  const colXml = cols.length
    ? `<cols>${cols.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? 14}" customWidth="1"${c.text ? ' style="2"' : ''}/>`).join('')}</cols>`
    : '';
  const view = s.header ? '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' : '';
  const rows = s.rows
    .map((cells, r) => {
      const xml = cells
        .map((v, c) => {
          if (v === null || v === undefined || v === '') return '';
          const ref = `${columnName(c)}${r + 1}`;
          const style = s.header && r === 0 ? ' s="1"' : cols[c]?.text ? ' s="2"' : '';
          if (typeof v === 'number') return Number.isFinite(v) ? `<c r="${ref}"${style}><v>${v}</v></c>` : '';
          if (typeof v === 'boolean') return `<c r="${ref}"${style} t="b"><v>${v ? 1 : 0}</v></c>`;
          return `<c r="${ref}"${style} t="inlineStr"><is><t xml:space="preserve">${escapeXml(v)}</t></is></c>`;
        })
        .join('');
      return `<row r="${r + 1}">${xml}</row>`;
    })
    .join('');
  return `${XML_DECL}<worksheet xmlns="${NS}" xmlns:r="${REL_NS}">${view}${colXml}<sheetData>${rows}</sheetData></worksheet>`;
}

/** Writes a workbook (one sheet per entry, inline strings) as .xlsx bytes. */
export function writeXlsx(sheets: WriteSheet[]): Buffer {
  // sheet names: at most 31 characters, none of []:*?/\
  const names = sheets.map((s, i) => s.name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || `Sheet${i + 1}`);
  const files: Zippable = {
    '[Content_Types].xml': strToU8(
      `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
        '</Types>',
    ),
    '_rels/.rels': strToU8(`${XML_DECL}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    'xl/workbook.xml': strToU8(
      `${XML_DECL}<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><sheets>` +
        names.map((n, i) => `<sheet name="${escapeXml(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('') +
        '</sheets></workbook>',
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}">` +
        sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('') +
        `<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    ),
    'xl/styles.xml': strToU8(STYLES),
  };
  sheets.forEach((s, i) => {
    files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(sheetXml(s));
  });
  return Buffer.from(zipSync(files, { level: 6 }));
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
