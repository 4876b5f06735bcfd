/**
 * A streaming .xlsx writer: one sheet, a header row and any number of data rows, written to a
 * Node Readable as the rows come, with bounded memory. Nothing accumulates: strings are inline
 * (t="inlineStr", no shared-strings table), the sheet XML is built in batches of ~128 Ki
 * characters and handed to fflate's streaming Zip as they come; the zip's output is pushed into
 * the Readable.
 *
 * The sheet entry is deflated by Node's zlib (a custom fflate ZipInputFile, see NativeDeflateEntry)
 * rather than fflate's JavaScript ZipDeflate: zlib compresses on the libuv thread pool, about four
 * times faster and off the event loop, so the main thread only builds XML (100,000 rows of 21
 * columns: ~100 MB of XML, ~9 MB zipped). The CRC is zlib.crc32 (native, Node >= 20.15).
 *
 * The producer respects back-pressure: `ready()` resolves when both the compressor and the
 * consumer want more (and always yields to the event loop first), so a slow client slows the
 * producer instead of filling the memory.
 *
 * Use:
 *   const w = new XlsxStreamWriter({ sheetName, header, columns });
 *   reply.send(w.stream);
 *   for (...) { w.addRow(cells); if (w.wantsFlush) { w.flush(); await w.ready(); if (w.aborted) break; } }
 *   w.end();
 *
 * The counterpart for small, synchronous workbooks (and the reader) is ./xlsx.ts.
 */
import { NS, PKG_REL_NS, REL_NS, STYLES, XML_DECL } from './xlsx-parts.ts';
import { Readable } from 'node:stream';
import { crc32, createDeflateRaw, type DeflateRaw } from 'node:zlib';
import { Zip, ZipPassThrough, strToU8, type AsyncFlateStreamHandler, type FlateError, type ZipInputFile } from 'fflate';
import { columnName, escapeXml, type CellValue } from './xlsx.ts';

export type { CellValue };

/** How a column's data cells look: `text` (number format "@", codes keep leading zeros), `money` (#,##0.00), `integer` (0), or general. */
export type StreamColumnStyle = 'general' | 'text' | 'money' | 'integer';
export interface StreamColumn {
  width?: number;
  style?: StreamColumnStyle;
}

export interface XlsxStreamOptions {
  /** at most 31 characters; []:*?/\ are replaced */
  sheetName: string;
  /** the first row: bold, frozen */
  header: string[];
  columns?: StreamColumn[];
  /** deflate level 1-9 (default 4: as fast as the XML is built, ~10% larger than level 6) */
  level?: number;
  /** bytes of compressed output the Readable buffers before the producer is asked to wait (default 512 KiB) */
  highWaterMark?: number;
  /** sheet XML characters batched before they go to the compressor (default 128 Ki) */
  batchChars?: number;
}

/** Excel's own limit of rows per sheet, header included. */
export const XLSX_MAX_ROWS = 1_048_576;
/** fflate writes no ZIP64: an entry must stay below 4 GiB uncompressed (kept with a margin). */
const MAX_ENTRY_BYTES = 0xffff_ffff - 64 * 1024 * 1024;

// style index per kind: 0 general, 1 bold header (text), 2 text, 3 money, 4 integer
const STYLE_INDEX: Record<StreamColumnStyle, number> = { general: 0, text: 2, money: 3, integer: 4 };

function packageParts(sheetName: string): [string, string][] {
  return [
    [
      '[Content_Types].xml',
      `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        '</Types>',
    ],
    [
      '_rels/.rels',
      `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${XML_DECL}<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    ],
    ['xl/styles.xml', STYLES],
  ];
}

// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const esc = (s: string): string => (NEEDS_ESCAPE.test(s) ? escapeXml(s) : s);
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;
/** leading or trailing white space needs xml:space="preserve" */
const edgeSpace = (s: string): boolean => s.length > 0 && (isSpace(s.charCodeAt(0)) || isSpace(s.charCodeAt(s.length - 1)));

/**
 * A zip entry compressed by Node's zlib (raw DEFLATE, method 8) for fflate's streaming Zip. Zip
 * writes the local header with a data descriptor (sizes and CRC follow the data), so `size` and
 * `crc` only need to be right when the last chunk is reported, which they are: both are
 * accumulated as the uncompressed bytes are pushed.
 */
class NativeDeflateEntry implements ZipInputFile {
  size = 0;
  crc = 0;
  readonly compression = 8;
  ondata?: AsyncFlateStreamHandler;
  private readonly z: DeflateRaw;

  constructor(
    readonly filename: string,
    level: number,
  ) {
    this.z = createDeflateRaw({ level, memLevel: 9, chunkSize: 64 * 1024 });
    this.z.on('data', (chunk: Buffer) => this.ondata?.(null, chunk as Uint8Array<ArrayBuffer>, false));
    this.z.on('end', () => this.ondata?.(null, new Uint8Array(0), true));
    this.z.on('error', (err: Error) => this.ondata?.(Object.assign(err, { code: 0 }) as FlateError, new Uint8Array(0), true));
  }

  /** uncompressed bytes; the last call ends the entry */
  push(chunk: Buffer, final: boolean): void {
    if (chunk.length) {
      this.crc = crc32(chunk, this.crc);
      this.size += chunk.length;
      this.z.write(chunk);
    }
    if (final) this.z.end();
  }

  /** the compressor's input buffer is full: wait for drain() before pushing more */
  get full(): boolean {
    return this.z.writableNeedDrain;
  }

  drain(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.z.writableNeedDrain || this.z.destroyed) resolve();
      else {
        const done = () => {
          this.z.off('drain', done).off('close', done);
          resolve();
        };
        this.z.on('drain', done).on('close', done);
      }
    });
  }

  terminate = (): void => {
    this.z.destroy();
  };
}

export class XlsxStreamWriter {
  /** the .xlsx bytes; hand it to the HTTP reply */
  readonly stream: Readable;
  private readonly zip: Zip;
  private readonly sheet: NativeDeflateEntry;
  private readonly refs: string[];
  private readonly styles: string[];
  private readonly open: string[] = [];
  private readonly numTail: string[] = [];
  private readonly boolTail: string[] = [];
  private readonly strTail: string[] = [];
  private readonly strTailPreserve: string[] = [];
  private readonly batchChars: number;
  private buf = '';
  private rows = 0;
  private bytes = 0;
  private wantMore = true;
  private waiter: (() => void) | null = null;
  private state: 'open' | 'ended' | 'aborted' = 'open';
  private readonly abortListeners: (() => void)[] = [];

  constructor(opts: XlsxStreamOptions) {
    const hwm = opts.highWaterMark ?? 512 * 1024;
    this.batchChars = opts.batchChars ?? 128 * 1024;
    this.stream = new Readable({
      highWaterMark: hwm,
      read: () => {
        this.wantMore = true;
        this.wake();
      },
      destroy: (err, cb) => {
        // destroyed before the end was read: the consumer went away (client disconnect) or the
        // producer failed; stop the work. (autoDestroy after a normal end lands here too.)
        if (err || !this.stream.readableEnded) this.markAborted();
        cb(err);
      },
    });
    this.zip = new Zip((err, chunk, final) => {
      if (this.state === 'aborted') return;
      if (err) {
        this.abort(err);
        return;
      }
      if (chunk.length && !this.stream.push(chunk)) this.wantMore = false;
      if (final) this.stream.push(null);
    });
    const name = opts.sheetName.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1';
    for (const [path, xml] of packageParts(name)) {
      const part = new ZipPassThrough(path);
      this.zip.add(part);
      part.push(strToU8(xml), true);
    }
    this.sheet = new NativeDeflateEntry('xl/worksheets/sheet1.xml', opts.level ?? 4);
    this.zip.add(this.sheet);

    const n = Math.max(opts.header.length, opts.columns?.length ?? 0);
    this.refs = Array.from({ length: n }, (_, i) => columnName(i));
    this.styles = Array.from({ length: n }, (_, i) => {
      const s = STYLE_INDEX[opts.columns?.[i]?.style ?? 'general'];
      return s ? ` s="${s}"` : '';
    });
    this.addColumns(n);
    const cols = opts.columns?.length
      ? `<cols>${opts.columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? 14}" customWidth="1"${c.style && c.style !== 'general' ? ` style="${STYLE_INDEX[c.style]}"` : ''}/>`).join('')}</cols>`
      : '';
    const view =
      '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>';
    let header = '<row r="1">';
    opts.header.forEach((h, i) => {
      header += `<c r="${this.refs[i]}1" s="1" t="inlineStr"><is><t${edgeSpace(h) ? ' xml:space="preserve"' : ''}>${esc(h)}</t></is></c>`;
    });
    header += '</row>';
    this.rows = 1;
    this.buf = `${XML_DECL}<worksheet xmlns="${NS}" xmlns:r="${REL_NS}">${view}${cols}<sheetData>${header}`;
  }

  /** data rows written so far (the header not counted) */
  get rowCount(): number {
    return this.rows - 1;
  }

  /** the consumer is gone or the writer failed: stop producing */
  get aborted(): boolean {
    return this.state === 'aborted';
  }

  /** enough XML is batched to hand it to the compressor */
  get wantsFlush(): boolean {
    return this.buf.length >= this.batchChars;
  }

  /** Runs fn once when the writer is aborted (client disconnect, error). */
  onAbort(fn: () => void): void {
    if (this.state === 'aborted') fn();
    else this.abortListeners.push(fn);
  }

  /**
   * Appends one data row. null, undefined and '' leave the cell empty; numbers become numeric
   * cells (non-finite ones are left empty), booleans boolean cells, strings inline strings.
   * Throws when the sheet is full (Excel's row limit, or the 4 GiB entry limit of the zip).
   */
  addRow(cells: readonly CellValue[]): void {
    if (this.state !== 'open') throw new Error('xlsx stream: addRow after end or abort');
    if (this.rows >= XLSX_MAX_ROWS) throw new Error('xlsx stream: sheet row limit reached');
    const r = String(++this.rows);
    let xml = '<row r="' + r + '">';
    for (let i = 0; i < cells.length; i++) {
      const v = cells[i];
      if (v === null || v === undefined || v === '') continue;
      if (i >= this.open.length) this.addColumns(i + 1);
      // per column: '<c r="B' + row + '" s="2' ... prefixes are built once
      if (typeof v === 'number') {
        if (Number.isFinite(v)) xml += this.open[i] + r + this.numTail[i] + v + '</v></c>';
      } else if (typeof v === 'boolean') {
        xml += this.open[i] + r + this.boolTail[i] + (v ? '1' : '0') + '</v></c>';
      } else {
        const t = typeof v === 'string' ? v : String(v);
        xml += this.open[i] + r + (edgeSpace(t) ? this.strTailPreserve[i] : this.strTail[i]) + esc(t) + '</t></is></c>';
      }
    }
    this.buf += xml + '</row>';
  }

  private addColumns(n: number): void {
    for (let i = this.open.length; i < n; i++) {
      const s = this.styles[i] ?? '';
      this.open.push('<c r="' + columnName(i));
      this.numTail.push('"' + s + '><v>');
      this.boolTail.push('"' + s + ' t="b"><v>');
      // a string is text whatever the number format: its cells carry no style (the column's applies to new input)
      this.strTail.push('" t="inlineStr"><is><t>');
      this.strTailPreserve.push('" t="inlineStr"><is><t xml:space="preserve">');
    }
  }

  /** Hands the batched XML to the compressor (whose output goes to the stream). */
  flush(final = false): void {
    if (this.state === 'aborted') return;
    if (!this.buf && !final) return;
    const chunk = Buffer.from(this.buf, 'utf8');
    this.buf = '';
    this.bytes += chunk.length;
    if (this.bytes > MAX_ENTRY_BYTES) throw new Error('xlsx stream: sheet larger than 4 GiB');
    this.sheet.push(chunk, final);
  }

  /**
   * Resolves when the consumer wants more data; always lets the event loop run first (other
   * requests are served between batches). Resolves at once (after that yield) when aborted.
   */
  async ready(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.state === 'open' && (this.sheet.full || !this.wantMore)) {
      if (this.sheet.full) await this.sheet.drain();
      else await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  /** Closes the sheet and the package; the stream ends when the consumer has read everything. */
  end(): void {
    if (this.state !== 'open') return;
    this.buf += '</sheetData></worksheet>';
    this.flush(true);
    this.state = 'ended';
    this.zip.end();
  }

  /** Stops: the stream is destroyed (with err, if given) and the work should stop. */
  abort(err?: Error): void {
    if (this.state === 'aborted') return;
    this.markAborted();
    if (!this.stream.destroyed) this.stream.destroy(err);
  }

  private markAborted(): void {
    if (this.state === 'aborted') return;
    this.state = 'aborted';
    this.buf = '';
    try {
      this.zip.terminate();
    } catch {
      /* nothing to stop */
    }
    this.wake();
    for (const fn of this.abortListeners.splice(0)) fn();
  }

  private wake(): void {
    const w = this.waiter;
    this.waiter = null;
    w?.();
  }
}
