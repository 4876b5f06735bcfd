/**
 * A small, synchronous .xlsx reader and writer: fflate zips what we write; reading takes the zip
 * apart by hand and inflates with node:zlib.
 *
 * Why not a library: SheetJS `xlsx` on npm is frozen with known CVEs; exceljs and read-excel-file
 * pull in a general XML parser and read every part. Reading the first sheet's cell values needs
 * only four XML parts of the package. Styles, formulas (the cached value is read), merged cells and
 * further sheets are deliberately ignored.
 *
 * Reading is meant for untrusted files (the import), so nothing is allocated from a number the file
 * declares, and every size is bounded before it is reached (XlsxLimits; the import passes
 * UPLOAD_LIMITS, the default is Excel's own maxima, for workbooks this server wrote):
 *  - zip: the central directory is read here, so only the parts needed are ever inflated. Their
 *    declared uncompressed sizes are checked against the limits before anything is inflated, and
 *    inflating (zlib, maxOutputLength) stops at the limit anyway, since a declared size can lie.
 *    An entry must inflate to exactly its declared size and CRC; duplicate names, zip64,
 *    encryption and unknown compression methods are refused.
 *  - XML: one left-to-right scan (scanXml) with bounded nesting; no regular expression that can
 *    backtrack (a lazy `[\s\S]*?` over unclosed tags is quadratic: a 5 KB sheet of 200,000 unclosed
 *    cells took 155 s). No DTD is accepted (entity expansion, external entities): only the five
 *    predefined entities and character references to characters XML allows.
 *  - sheet: cell references are bounded while their letters and digits are read (a column of
 *    4,294,967,294 once meant an array that long); row numbers, the declared dimension, kept rows
 *    and cells, shared strings (declared and present) and every text's length are checked as read.
 * A workbook that breaks a limit is refused with XlsxError 'tooLarge' naming the limit (`limit`,
 * `max`); one that is not a well-formed package with 'notXlsx'; one without a sheet with 'noSheet'.
 */
import { NS, PKG_REL_NS, REL_NS, STYLES, XML_DECL } from './xlsx-parts.ts';
import { crc32, inflateRawSync } from 'node:zlib';
import { strToU8, zipSync, type Zippable } from 'fflate';

export type CellValue = string | number | boolean | null;
/** One non-empty row of a sheet: its Excel row number (1-based) and cells by column index (0 = A). */
export interface SheetRow {
  row: number;
  cells: CellValue[];
}
export interface SheetData {
  name: string;
  rows: SheetRow[];
  date1904: boolean;
}

/* ------------------------------------------------------------------ limits */

export interface XlsxLimits {
  /** uncompressed bytes of the worksheet part */
  sheetBytes: number;
  /** uncompressed bytes of the shared-string table */
  sharedStringsBytes: number;
  /** uncompressed bytes of each other part read (the workbook, its relationships) */
  partBytes: number;
  /** uncompressed bytes of all the parts read, together */
  totalBytes: number;
  /** entries in the zip (listed, not read; bounds the directory walk) */
  zipEntries: number;
  /** non-empty rows kept, the header included */
  rows: number;
  /** highest row number (a row's r, a cell reference, the declared dimension); Excel: 1,048,576 */
  rowNumber: number;
  /** highest column, 1 = A (a cell reference, the declared dimension); Excel: 16,384 (XFD) */
  columns: number;
  /** cells held: every kept row is an array as long as its last cell's column; also the most cells a shared-string table may declare it is used by */
  cells: number;
  /** strings in the shared-string table (declared or present) */
  sharedStrings: number;
  /** characters of one cell's text or value (Excel: 32,767) */
  cellChars: number;
  /**
   * characters of all the cells' text and values together, a shared string counted at every cell
   * that uses it: one long shared string used by every cell would otherwise hand whatever reads
   * the rows (conversion, validation) gigabytes of text from a file of a few KB
   */
  textChars: number;
  /** nesting of XML elements */
  depth: number;
}
export type XlsxLimit = keyof XlsxLimits;

const MiB = 1024 * 1024;

/** Excel's own limits and room for what this server writes (an export of 100,000 rows is ~100 MB of sheet XML): the default, for trusted workbooks. */
export const EXCEL_LIMITS: Readonly<XlsxLimits> = Object.freeze({
  sheetBytes: 256 * MiB,
  sharedStringsBytes: 256 * MiB,
  partBytes: 16 * MiB,
  totalBytes: 512 * MiB,
  zipEntries: 65_535,
  rows: 1_048_576,
  rowNumber: 1_048_576,
  columns: 16_384,
  cells: 32_000_000,
  sharedStrings: 10_000_000,
  cellChars: 32_767,
  textChars: 512 * MiB,
  depth: 64,
});

/**
 * Limits for a workbook a user uploads (the fee-item import: at most 5,000 data rows of ~20
 * fields; the import narrows `rows` to its own MAX_IMPORT_ROWS + 1). With these, the largest
 * workbook that passes is read in well under a second and a few tens of MiB.
 */
export const UPLOAD_LIMITS: Readonly<XlsxLimits> = Object.freeze({
  /** 5,000 rows of every fee-item field as the server's own template writer writes them (inline strings, the bulkiest form) are 2.6 MB; Excel's own (shared strings) less: 3x headroom */
  sheetBytes: 8 * MiB,
  /** 5,000 rows x 11 distinct strings of ~30 characters are ~2 MB of <si><t>…</t></si> */
  sharedStringsBytes: 4 * MiB,
  /** xl/workbook.xml and its relationships are a few KB, even with many sheets and names */
  partBytes: 1 * MiB,
  /** less than the sum of the part limits: a workbook cannot fill every part to its limit */
  totalBytes: 12 * MiB,
  /** an .xlsx has ~10 entries, a few per further sheet; thousands means something else */
  zipEntries: 10_000,
  /** 10,000 data rows + header; the import narrows it to its own limit */
  rows: 10_001,
  /** room for blank rows between blocks of data, but a sheet declared (dimension) or written far below is refused before it is read */
  rowNumber: 100_000,
  /** the fee item has ~20 importable fields: five times that, for notes and blank columns */
  columns: 100,
  /** rows x columns: what the limits above allow, stated so that the count a shared-string table declares is bounded too */
  cells: 10_001 * 100,
  /** more than the cells of a sheet of the row limit with every importable field a distinct text (5,001 x 20) */
  sharedStrings: 100_000,
  /** Excel's own maximum for a cell */
  cellChars: 32_767,
  /** no more text than the sheet itself could hold inline; 5,000 rows of every fee-item field at its longest are < 1 M characters */
  textChars: 8 * MiB,
  /** a sheet nests 7 deep (worksheet/sheetData/row/c/is/r/t), extensions a few more */
  depth: 32,
});

export type XlsxProblem = 'notXlsx' | 'tooLarge' | 'noSheet';
export class XlsxError extends Error {
  /** for 'tooLarge': the limit the workbook breaks, and its value */
  limit?: XlsxLimit;
  max?: number;
  constructor(
    readonly problem: XlsxProblem,
    detail?: string,
  ) {
    super(`xlsx: ${problem}${detail ? ` (${detail})` : ''}`);
    this.name = 'XlsxError';
  }
}
const notXlsx = (detail: string): XlsxError => new XlsxError('notXlsx', detail);
function tooLarge(limits: XlsxLimits, limit: XlsxLimit, detail?: string): XlsxError {
  const err = new XlsxError('tooLarge', `${limit} at most ${limits[limit]}${detail ? `: ${detail}` : ''}`);
  err.limit = limit;
  err.max = limits[limit];
  return err;
}

/* ------------------------------------------------------------------ XML scanning */

/** A code point XML 1.0 allows in a document (Char). */
const isXmlChar = (cp: number): boolean =>
  cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const REFERENCE = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|([A-Za-z_][\w.-]*));/g;

/**
 * Text or an attribute value with its references resolved: the five predefined entities and
 * character references. A reference to anything else (a code point outside Unicode, a surrogate,
 * a control character, an entity a DTD would define) and a character XML does not allow are
 * refused (XlsxError notXlsx). A lone `&` is kept as written.
 */
export function decodeXml(s: string): string {
  if (NOT_XML_CHAR.test(s)) throw notXlsx('a character XML does not allow');
  if (!s.includes('&')) return s;
  return s.replace(REFERENCE, (_m, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name !== undefined) {
      switch (name) {
        case 'lt':
          return '<';
        case 'gt':
          return '>';
        case 'amp':
          return '&';
        case 'quot':
          return '"';
        case 'apos':
          return "'";
        default:
          throw notXlsx('a reference to an undefined entity');
      }
    }
    const cp = hex !== undefined ? parseInt(hex, 16) : parseInt(dec!, 10);
    if (!isXmlChar(cp)) throw notXlsx('a character reference to a character XML does not allow');
    return String.fromCodePoint(cp);
  });
}

/**
 * The start tag the scanner is at: its name and where its attributes are in the document. Nothing
 * is copied out of the document until a visitor asks for an attribute (most are never read).
 */
class Tag {
  xml = '';
  name = '';
  selfClosing = false;
  count = 0;
  // per attribute k: its name is xml[at[4k], at[4k+1]), its value xml[at[4k+2], at[4k+3])
  readonly at: number[] = [];
  /** An attribute by its local name (`r:id` is `id`), decoded; undefined when absent. */
  get(local: string): string | undefined {
    const { xml, at } = this;
    const len = local.length;
    for (let k = 0; k < this.count * 4; k += 4) {
      const start = at[k];
      const end = at[k + 1];
      if (
        end - start === len ? xml.startsWith(local, start) : end - start > len && xml.charCodeAt(end - len - 1) === 0x3a && xml.startsWith(local, end - len)
      ) {
        const value = xml.slice(at[k + 2], at[k + 3]);
        if (value.includes('<')) throw notXlsx('"<" in an attribute value');
        return decodeXml(value);
      }
    }
    return undefined;
  }
}

interface XmlVisitor {
  /** an element starts (local name, without its namespace prefix); a self-closing one closes right after */
  open(local: string, tag: Tag): void;
  close(local: string): void;
  /** while true, character data (text, CDATA) is decoded and handed to text() */
  capture: boolean;
  text(s: string): void;
}

const localName = (qname: string): string => {
  const k = qname.indexOf(':');
  return k < 0 ? qname : qname.slice(k + 1);
};
const isSpace = (c: number): boolean => c === 0x20 || c === 0x9 || c === 0xa || c === 0xd;

/** Reads the start tag whose name begins at `i` into `tag`; returns the index after its `>`. Linear in the tag's length. */
function readTag(xml: string, i: number, tag: Tag): number {
  const n = xml.length;
  const start = i;
  for (; i < n; i++) {
    const c = xml.charCodeAt(i);
    if (isSpace(c) || c === 0x2f || c === 0x3e) break;
  }
  if (i === start) throw notXlsx('an element without a name');
  tag.name = xml.slice(start, i);
  tag.count = 0;
  const at = tag.at;
  for (;;) {
    const before = i;
    while (i < n && isSpace(xml.charCodeAt(i))) i++;
    if (i >= n) throw notXlsx('an unterminated tag');
    const c = xml.charCodeAt(i);
    if (c === 0x3e) {
      tag.selfClosing = false;
      return i + 1;
    }
    if (c === 0x2f) {
      if (xml.charCodeAt(i + 1) !== 0x3e) throw notXlsx('a malformed tag');
      tag.selfClosing = true;
      return i + 2;
    }
    if (i === before) throw notXlsx('attributes not separated by white space');
    const nameStart = i;
    for (; i < n; i++) {
      const d = xml.charCodeAt(i);
      if (isSpace(d) || d === 0x3d || d === 0x3e || d === 0x2f || d === 0x3c) break;
    }
    if (i === nameStart) throw notXlsx('a malformed attribute');
    const nameEnd = i;
    while (i < n && isSpace(xml.charCodeAt(i))) i++;
    if (xml.charCodeAt(i) !== 0x3d) throw notXlsx('an attribute without a value');
    i++;
    while (i < n && isSpace(xml.charCodeAt(i))) i++;
    const q = xml.charCodeAt(i);
    if (q !== 0x22 && q !== 0x27) throw notXlsx('an unquoted attribute value');
    const end = xml.indexOf(q === 0x22 ? '"' : "'", i + 1);
    if (end < 0) throw notXlsx('an unterminated attribute value');
    const k = tag.count++ * 4;
    at[k] = nameStart;
    at[k + 1] = nameEnd;
    at[k + 2] = i + 1;
    at[k + 3] = end;
    i = end + 1;
  }
}

/**
 * One pass over an XML document: elements to the visitor, character data only while it captures.
 * Well-formedness that matters here is checked (tags close in order, nothing unclosed); a DTD,
 * and with it any entity definition, is refused; nesting deeper than limits.depth is refused.
 */
function scanXml(xml: string, limits: XlsxLimits, v: XmlVisitor): void {
  const n = xml.length;
  // the open elements: qualified names (to match end tags) and local names (for the visitor)
  const open: string[] = [];
  const locals: string[] = [];
  const tag = new Tag();
  tag.xml = xml;
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (v.capture && textEnd > i) v.text(decodeXml(xml.slice(i, textEnd)));
    if (lt < 0) break;
    const c = xml.charCodeAt(lt + 1);
    if (c === 0x2f) {
      // </name>
      const name = open.pop();
      const nameEnd = lt + 2 + (name?.length ?? 0);
      if (name === undefined || !xml.startsWith(name, lt + 2)) throw notXlsx('an end tag that does not match its start tag');
      let end = nameEnd;
      while (end < n && isSpace(xml.charCodeAt(end))) end++;
      if (xml.charCodeAt(end) !== 0x3e) throw notXlsx('an end tag that does not match its start tag');
      v.close(locals.pop()!);
      i = end + 1;
    } else if (c === 0x3f) {
      // <? processing instruction (the XML declaration) ?>
      const end = xml.indexOf('?>', lt + 2);
      if (end < 0) throw notXlsx('an unterminated processing instruction');
      i = end + 2;
    } else if (c === 0x21) {
      if (xml.startsWith('<!--', lt)) {
        const end = xml.indexOf('-->', lt + 4);
        if (end < 0) throw notXlsx('an unterminated comment');
        i = end + 3;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        const end = xml.indexOf(']]>', lt + 9);
        if (end < 0) throw notXlsx('an unterminated CDATA section');
        if (v.capture) {
          const data = xml.slice(lt + 9, end);
          if (NOT_XML_CHAR.test(data)) throw notXlsx('a character XML does not allow');
          v.text(data);
        }
        i = end + 3;
      } else {
        // <!DOCTYPE ...>: Excel never writes one; it is how entity expansion and external entities come in
        throw notXlsx('a document type declaration');
      }
    } else {
      i = readTag(xml, lt + 1, tag);
      const local = localName(tag.name);
      if (!tag.selfClosing) {
        if (open.length >= limits.depth) throw tooLarge(limits, 'depth');
        open.push(tag.name);
        locals.push(local);
      }
      v.open(local, tag);
      if (tag.selfClosing) v.close(local);
    }
  }
  if (open.length) throw notXlsx('an unclosed element');
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

/**
 * Column (0-based) and row (1-based) of a cell reference such as "AB12" or "$AB$12"; null when it
 * is not one. Each is checked against the limits as its letters and digits are read, so no
 * reference, however long, computes or allocates anything beyond them.
 */
function cellRef(ref: string, limits: XlsxLimits): { col: number; row: number } | null {
  const n = ref.length;
  let i = ref.charCodeAt(0) === 0x24 ? 1 : 0;
  let col = 0;
  const letters = i;
  for (; i < n; i++) {
    const c = ref.charCodeAt(i) & ~0x20; // upper case
    if (c < 0x41 || c > 0x5a) break;
    col = col * 26 + (c - 0x40);
    if (col > limits.columns) throw tooLarge(limits, 'columns');
  }
  if (i === letters) return null;
  if (ref.charCodeAt(i) === 0x24) i++;
  const row = rowNumber(ref.slice(i), limits);
  return row === null ? null : { col: col - 1, row };
}

/** A row number (1-based) checked against the limit digit by digit; null when it is not one. */
function rowNumber(s: string, limits: XlsxLimits): number | null {
  let row = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return null;
    row = row * 10 + (c - 0x30);
    if (row > limits.rowNumber) throw tooLarge(limits, 'rowNumber');
  }
  return s.length && row > 0 ? row : null;
}

/** A count a part declares (an attribute), refused when above `limit`; anything but digits is ignored. */
function declaredCount(value: string | undefined, limits: XlsxLimits, limit: XlsxLimit): void {
  if (value === undefined || !/^\d+$/.test(value)) return;
  if (Number(value) > limits[limit]) throw tooLarge(limits, limit, 'declared');
}

/* ------------------------------------------------------------------ zip */

interface ZipEntry {
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
  nameAt: number;
  nameLength: number;
}

/** The zip's central directory by entry name. Only the directory is read; nothing is inflated. */
function zipDirectory(data: Uint8Array, limits: XlsxLimits): Map<string, ZipEntry> {
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const len = data.length;
  let eocd = -1;
  // the end-of-central-directory record: the last 22 bytes, or earlier by its comment (< 64 KiB)
  for (let p = len - 22; p >= 0 && p >= len - 22 - 0xffff; p--) {
    if (dv.getUint32(p, true) === 0x06054b50) {
      eocd = p;
      break;
    }
  }
  if (eocd < 0) throw notXlsx('no zip directory (truncated?)');
  const count = dv.getUint16(eocd + 10, true);
  const cdSize = dv.getUint32(eocd + 12, true);
  const cdOffset = dv.getUint32(eocd + 16, true);
  if (dv.getUint16(eocd + 4, true) !== 0 || dv.getUint16(eocd + 6, true) !== 0 || dv.getUint16(eocd + 8, true) !== count) throw notXlsx('a multi-volume zip');
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) throw notXlsx('zip64');
  if (count > limits.zipEntries) throw tooLarge(limits, 'zipEntries');
  const cdEnd = cdOffset + cdSize;
  if (cdEnd > eocd) throw notXlsx('a zip directory outside the file');
  const names = new TextDecoder();
  const entries = new Map<string, ZipEntry>();
  let p = cdOffset;
  for (let k = 0; k < count; k++) {
    if (p + 46 > cdEnd || dv.getUint32(p, true) !== 0x02014b50) throw notXlsx('a malformed zip directory');
    const nameLength = dv.getUint16(p + 28, true);
    const next = p + 46 + nameLength + dv.getUint16(p + 30, true) + dv.getUint16(p + 32, true);
    if (next > cdEnd) throw notXlsx('a malformed zip directory');
    const name = names.decode(data.subarray(p + 46, p + 46 + nameLength));
    // two entries of one name: which one a reader takes differs between readers
    if (entries.has(name)) throw notXlsx('two zip entries of one name');
    entries.set(name, {
      flags: dv.getUint16(p + 8, true),
      method: dv.getUint16(p + 10, true),
      crc: dv.getUint32(p + 16, true),
      compressedSize: dv.getUint32(p + 20, true),
      size: dv.getUint32(p + 24, true),
      offset: dv.getUint32(p + 42, true),
      nameAt: p + 46,
      nameLength,
    });
    p = next;
  }
  return entries;
}

type ByteLimit = 'sheetBytes' | 'sharedStringsBytes' | 'partBytes';

/** The parts of one package, inflated on request within the byte limits (each part's and the total). */
class Package {
  private readonly entries: Map<string, ZipEntry>;
  private used = 0;
  constructor(
    private readonly data: Uint8Array,
    private readonly limits: XlsxLimits,
  ) {
    this.entries = zipDirectory(data, limits);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Refuses, before inflating anything, parts whose declared sizes break their limits or together the total. */
  checkDeclared(parts: [string, ByteLimit][]): void {
    let total = this.used;
    for (const [name, limit] of parts) {
      const e = this.entries.get(name);
      if (!e) continue;
      if (e.size > this.limits[limit]) throw tooLarge(this.limits, limit, `${name} declared`);
      total += e.size;
    }
    if (total > this.limits.totalBytes) throw tooLarge(this.limits, 'totalBytes', 'declared');
  }

  /** A part's text; undefined when the package has no such part. */
  read(name: string, limit: ByteLimit): string | undefined {
    const e = this.entries.get(name);
    if (!e) return undefined;
    this.checkDeclared([[name, limit]]);
    const left = this.limits.totalBytes - this.used;
    const [max, which] = this.limits[limit] <= left ? [this.limits[limit], limit] : [left, 'totalBytes' as const];
    const { data } = this;
    const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (e.offset + 30 + e.nameLength > data.length || dv.getUint32(e.offset, true) !== 0x04034b50) throw notXlsx(`no local header for ${name}`);
    // the local header names the same entry (a reader that walks local headers would see another file otherwise)
    if (
      dv.getUint16(e.offset + 26, true) !== e.nameLength ||
      Buffer.compare(data.subarray(e.offset + 30, e.offset + 30 + e.nameLength), data.subarray(e.nameAt, e.nameAt + e.nameLength)) !== 0
    )
      throw notXlsx(`the local header of ${name} names another entry`);
    const start = e.offset + 30 + dv.getUint16(e.offset + 26, true) + dv.getUint16(e.offset + 28, true);
    const end = start + e.compressedSize;
    if (end > data.length) throw notXlsx(`${name} truncated`);
    if (e.flags & 1) throw notXlsx(`${name} encrypted`);
    let bytes: Uint8Array;
    if (e.method === 0) {
      bytes = data.subarray(start, end);
    } else if (e.method === 8) {
      try {
        // stops as soon as the output passes maxOutputLength, whatever size was declared
        bytes = inflateRawSync(data.subarray(start, end), { maxOutputLength: Math.max(1, max) });
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(this.limits, which, name);
        throw notXlsx(`${name}: ${(err as Error).message}`);
      }
    } else {
      throw notXlsx(`${name}: compression method ${e.method}`);
    }
    if (bytes.length > max) throw tooLarge(this.limits, which, name);
    if (bytes.length !== e.size) throw notXlsx(`${name} is not the size it declares`);
    if (crc32(bytes) !== e.crc) throw notXlsx(`${name}: CRC mismatch`);
    this.used += bytes.length;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
  }
}

/* ------------------------------------------------------------------ reading */

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

/** The shared-string table: the text of every <si> (its <t> runs joined; phonetic runs, <rPh>, are not part of the value). */
function readSharedStrings(xml: string, limits: XlsxLimits): string[] {
  const strings: string[] = [];
  let inItem = false;
  let phonetic = 0;
  let text = '';
  const v: XmlVisitor = {
    capture: false,
    open(local, tag) {
      if (local === 'sst') {
        declaredCount(tag.get('uniqueCount'), limits, 'sharedStrings');
        declaredCount(tag.get('count'), limits, 'cells');
      } else if (local === 'si') {
        if (strings.length >= limits.sharedStrings) throw tooLarge(limits, 'sharedStrings');
        inItem = true;
        phonetic = 0;
        text = '';
      } else if (local === 'rPh') phonetic++;
      else if (local === 't' && inItem && phonetic === 0) v.capture = true;
    },
    close(local) {
      if (local === 't') v.capture = false;
      else if (local === 'rPh') phonetic--;
      else if (local === 'si' && inItem) {
        strings.push(text);
        inItem = false;
      }
    },
    text(s) {
      text += s;
      if (text.length > limits.cellChars) throw tooLarge(limits, 'cellChars');
    },
  };
  scanXml(xml, limits, v);
  return strings;
}

/** The non-empty rows of a worksheet. */
function readRows(xml: string, limits: XlsxLimits, shared: string[]): SheetRow[] {
  const rows: SheetRow[] = [];
  let held = 0;
  let textHeld = 0;
  let inData = false;
  let rowNo = 0;
  let cells: CellValue[] | null = null;
  let col = -1;
  let inCell = false;
  let type: string | undefined;
  let value: string | null = null;
  let inline: string | null = null;
  let into: 'value' | 'inline' = 'value';
  let phonetic = 0;

  const v: XmlVisitor = {
    capture: false,
    open(local, tag) {
      switch (local) {
        case 'dimension': {
          // the used range the sheet declares, e.g. A1:K5001: refused when beyond the limits
          for (const ref of (tag.get('ref') ?? '').split(':', 2)) cellRef(ref, limits);
          break;
        }
        case 'sheetData':
          inData = true;
          break;
        case 'row': {
          if (!inData) break;
          const r = tag.get('r');
          if (r === undefined) {
            rowNo++;
            if (rowNo > limits.rowNumber) throw tooLarge(limits, 'rowNumber');
          } else {
            const n = rowNumber(r, limits);
            if (n === null) throw notXlsx('a malformed row number');
            rowNo = n;
          }
          cells = [];
          col = -1;
          break;
        }
        case 'c': {
          if (!cells) break;
          const r = tag.get('r');
          if (r === undefined) {
            col++;
            if (col + 1 > limits.columns) throw tooLarge(limits, 'columns');
          } else {
            const ref = cellRef(r, limits);
            if (!ref) throw notXlsx('a malformed cell reference');
            col = ref.col;
          }
          type = tag.get('t');
          value = null;
          inline = null;
          inCell = true;
          break;
        }
        case 'v':
          if (inCell) {
            value = '';
            into = 'value';
            v.capture = true;
          }
          break;
        case 'is':
          if (inCell) inline = '';
          break;
        case 'rPh':
          phonetic++;
          break;
        case 't':
          if (inCell && inline !== null && phonetic === 0) {
            into = 'inline';
            v.capture = true;
          }
          break;
      }
    },
    close(local) {
      switch (local) {
        case 'v':
        case 't':
          v.capture = false;
          break;
        case 'rPh':
          phonetic--;
          break;
        case 'c':
          if (inCell && cells) {
            const x = cellValue(type, value, inline, shared);
            textHeld += typeof x === 'string' ? x.length : (value?.length ?? 0);
            if (textHeld > limits.textChars) throw tooLarge(limits, 'textChars');
            cells[col] = x;
          }
          inCell = false;
          break;
        case 'row':
          if (cells) {
            for (let k = 0; k < cells.length; k++) if (cells[k] === undefined) cells[k] = null;
            if (cells.some((x) => x !== null && x !== '')) {
              if (rows.length >= limits.rows) throw tooLarge(limits, 'rows');
              held += cells.length;
              if (held > limits.cells) throw tooLarge(limits, 'cells');
              rows.push({ row: rowNo, cells });
            }
          }
          cells = null;
          break;
        case 'sheetData':
          inData = false;
          break;
      }
    },
    text(s) {
      if (into === 'value') value += s;
      else inline += s;
      if ((into === 'value' ? value! : inline!).length > limits.cellChars) throw tooLarge(limits, 'cellChars');
    },
  };
  scanXml(xml, limits, v);
  return rows;
}

function cellValue(type: string | undefined, v: string | null, inline: string | null, shared: string[]): CellValue {
  const raw = v ?? '';
  switch (type) {
    case 's':
      return v === null ? null : (shared[Number(raw)] ?? null);
    case 'inlineStr':
      return inline ?? '';
    case 'str': // cached result of a string formula
    case 'e': // an error value (#N/A ...): kept as text so validation names it
    case 'd': // ISO 8601 date cell (rare)
      return raw;
    case 'b':
      return raw === '1' || raw === 'true';
    default:
      return raw === '' ? null : Number(raw);
  }
}

/**
 * Reads the first worksheet of an .xlsx file within `limits` (untrusted files: UPLOAD_LIMITS);
 * throws XlsxError when the bytes are not a workbook or break a limit.
 */
export function readFirstSheet(data: Uint8Array, limits: XlsxLimits = EXCEL_LIMITS): SheetData {
  // a zip starts with a local file header; anything else (xls, csv, pdf ...) is refused before unzipping
  if (data.length < 4 || data[0] !== 0x50 || data[1] !== 0x4b || data[2] !== 0x03 || data[3] !== 0x04) throw notXlsx('not a zip file');
  const pkg = new Package(data, limits);
  const workbook = pkg.read('xl/workbook.xml', 'partBytes');
  if (workbook === undefined) throw notXlsx('no xl/workbook.xml');

  let sheet: { name: string; id: string | undefined } | undefined;
  let date1904 = false;
  let sawPr = false;
  scanXml(workbook, limits, {
    capture: false,
    text() {},
    close() {},
    open(local, tag) {
      if (local === 'sheet' && !sheet) sheet = { name: tag.get('name') ?? '', id: tag.get('id') };
      else if (local === 'workbookPr' && !sawPr) {
        sawPr = true;
        date1904 = ['1', 'true'].includes(tag.get('date1904') ?? '');
      }
    },
  });
  if (!sheet) throw new XlsxError('noSheet');
  if (sheet.name.length > limits.cellChars) throw tooLarge(limits, 'cellChars', 'sheet name');

  let sheetPath = 'xl/worksheets/sheet1.xml';
  let sharedPath = 'xl/sharedStrings.xml';
  const rels = pkg.read('xl/_rels/workbook.xml.rels', 'partBytes');
  if (rels !== undefined) {
    const sheetId = sheet.id;
    scanXml(rels, limits, {
      capture: false,
      text() {},
      close() {},
      open(local, tag) {
        if (local !== 'Relationship') return;
        const target = tag.get('Target');
        if (!target) return;
        if (sheetId !== undefined && tag.get('Id') === sheetId) sheetPath = resolveTarget('xl/workbook.xml', target);
        else if ((tag.get('Type') ?? '').endsWith('/sharedStrings')) sharedPath = resolveTarget('xl/workbook.xml', target);
      },
    });
  }
  if (!pkg.has(sheetPath)) throw new XlsxError('noSheet', sheetPath);
  // both parts' declared sizes before either is inflated
  pkg.checkDeclared([
    [sharedPath, 'sharedStringsBytes'],
    [sheetPath, 'sheetBytes'],
  ]);
  const sharedXml = sharedPath === sheetPath ? undefined : pkg.read(sharedPath, 'sharedStringsBytes');
  const shared = sharedXml === undefined ? [] : readSharedStrings(sharedXml, limits);
  const rows = readRows(pkg.read(sheetPath, 'sheetBytes')!, limits, shared);
  return { name: sheet.name, rows, date1904 };
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
export const escapeXml = (s: string): string =>
  s.replace(INVALID_XML, '').replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export interface SheetColumn {
  width?: number;
  text?: boolean;
}
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
  const view = s.header
    ? '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>'
    : '';
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
        sheets
          .map(
            (_, i) =>
              `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
          )
          .join('') +
        '</Types>',
    ),
    '_rels/.rels': strToU8(
      `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
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
