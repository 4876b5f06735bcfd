/**
 * A minimal PDF reader for tests, independent of pdfkit: objects, inflated streams, the text of
 * each page decoded through the fonts' ToUnicode maps (what a viewer's copy/search uses), and the
 * outline size of every glyph a page uses in the embedded TrueType font (a glyph of length 0 is
 * drawn blank: the failure pdfkit#1106 describes for CFF fonts).
 *
 * It handles what pdfkit writes (no object streams, Flate streams, Identity-H CID fonts), not PDF
 * in general.
 */
import { inflateSync } from 'node:zlib';

export interface PdfObject {
  num: number;
  dict: string;
  stream?: Buffer;
}

export function pdfObjects(pdf: Buffer): Map<number, PdfObject> {
  const s = pdf.toString('latin1');
  const out = new Map<number, PdfObject>();
  const re = /(\d+) 0 obj\s*/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    const start = m.index + m[0].length;
    const end = s.indexOf('endobj', start);
    const body = s.slice(start, end);
    const si = body.indexOf('stream');
    if (si >= 0 && body.slice(0, si).trimEnd().endsWith('>>')) {
      const dict = body.slice(0, si);
      let dataStart = start + si + 'stream'.length;
      if (s[dataStart] === '\r') dataStart++;
      if (s[dataStart] === '\n') dataStart++;
      const len = /\/Length (\d+)(?! \d+ R)/.exec(dict);
      const dataEnd = len ? dataStart + Number(len[1]) : s.lastIndexOf('endstream', end);
      let stream = pdf.subarray(dataStart, dataEnd);
      if (/\/Filter \/FlateDecode/.test(dict)) stream = inflateSync(stream);
      out.set(Number(m[1]), { num: Number(m[1]), dict, stream });
    } else out.set(Number(m[1]), { num: Number(m[1]), dict: body });
    re.lastIndex = end;
  }
  return out;
}

const ref = (dict: string, key: string): number | null => {
  const m = new RegExp(`/${key} (\\d+) 0 R`).exec(dict);
  return m ? Number(m[1]) : null;
};

/** code (hex of the 2-byte CID) -> text, from a ToUnicode CMap */
function parseCMap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const utf16 = (hex: string) => Buffer.from(hex, 'hex').swap16().toString('utf16le');
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) map.set(parseInt(m[1], 16), utf16(m[2]));
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(\[[^\]]*\]|<[0-9a-fA-F]+>)/g)) {
      const lo = parseInt(m[1], 16);
      const hi = parseInt(m[2], 16);
      if (m[3].startsWith('[')) [...m[3].matchAll(/<([0-9a-fA-F]+)>/g)].forEach((u, i) => map.set(lo + i, utf16(u[1])));
      else {
        const base = parseInt(m[3].slice(1, -1), 16);
        for (let c = lo; c <= hi; c++) map.set(c, String.fromCharCode(base + c - lo));
      }
    }
  }
  return map;
}

export interface PdfFontInfo {
  baseFont: string;
  embedded: 'FontFile2' | 'FontFile3' | 'FontFile' | null;
  toUnicode: Map<number, string>;
  glyphLength: (gid: number) => number;
}

/** TrueType glyph byte lengths from the loca table (0 = no outline). */
function glyphLengths(ttf: Buffer): (gid: number) => number {
  const tables = new Map<string, { offset: number; length: number }>();
  const n = ttf.readUInt16BE(4);
  for (let i = 0; i < n; i++) {
    const p = 12 + i * 16;
    tables.set(ttf.toString('latin1', p, p + 4), { offset: ttf.readUInt32BE(p + 8), length: ttf.readUInt32BE(p + 12) });
  }
  const head = tables.get('head')!;
  const loca = tables.get('loca')!;
  const long = ttf.readInt16BE(head.offset + 50) === 1;
  const at = (g: number) => (long ? ttf.readUInt32BE(loca.offset + g * 4) : ttf.readUInt16BE(loca.offset + g * 2) * 2);
  return (gid) => at(gid + 1) - at(gid);
}

export interface PdfInfo {
  pageCount: number;
  /** decoded text of each page (text operators joined by newlines) */
  pages: string[];
  /** glyph codes used on each page */
  codes: number[][];
  fonts: PdfFontInfo[];
}

export function inspectPdf(pdf: Buffer): PdfInfo {
  const objs = pdfObjects(pdf);
  const fonts = new Map<string, PdfFontInfo>(); // font resource name -> info (pdfkit names are unique per document)
  const fontByObj = new Map<number, PdfFontInfo>();
  const fontInfo = (num: number): PdfFontInfo => {
    const cached = fontByObj.get(num);
    if (cached) return cached;
    const font = objs.get(num)!;
    const baseFont = /\/BaseFont \/([^\s/]+)/.exec(font.dict)?.[1] ?? '';
    const tu = ref(font.dict, 'ToUnicode');
    const toUnicode = tu ? parseCMap(objs.get(tu)!.stream!.toString('latin1')) : new Map<number, string>();
    let embedded: PdfFontInfo['embedded'] = null;
    let glyphLength: (gid: number) => number = () => -1;
    const desc = /\/DescendantFonts \[(\d+) 0 R\]/.exec(font.dict);
    const cid = desc ? objs.get(Number(desc[1]))! : font;
    const fd = ref(cid.dict, 'FontDescriptor');
    if (fd) {
      const d = objs.get(fd)!.dict;
      for (const k of ['FontFile2', 'FontFile3', 'FontFile'] as const) {
        const f = ref(d, k);
        if (f) {
          embedded = k;
          if (k === 'FontFile2') glyphLength = glyphLengths(objs.get(f)!.stream!);
        }
      }
    }
    const info = { baseFont, embedded, toUnicode, glyphLength };
    fontByObj.set(num, info);
    return info;
  };

  const pageObjs = [...objs.values()].filter((o) => /\/Type \/Page\b/.test(o.dict));
  const pages: string[] = [];
  const codes: number[][] = [];
  for (const page of pageObjs) {
    const resources = ref(page.dict, 'Resources');
    const resDict = resources ? objs.get(resources)!.dict : page.dict;
    const fontDict = /\/Font <<([\s\S]*?)>>/.exec(resDict)?.[1] ?? '';
    for (const m of fontDict.matchAll(/\/(\w+) (\d+) 0 R/g)) fonts.set(m[1], fontInfo(Number(m[2])));
    const content = objs.get(ref(page.dict, 'Contents')!)!.stream!.toString('latin1');
    let current: PdfFontInfo | undefined;
    const lines: string[] = [];
    const used: number[] = [];
    // font selections and text-showing operators, in order
    for (const m of content.matchAll(/\/(\w+) [\d.]+ Tf|\[((?:[^\]])*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      if (m[1]) {
        current = fonts.get(m[1]);
        continue;
      }
      const hexes = m[2] !== undefined ? [...m[2].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]) : [m[3]];
      let line = '';
      for (const hex of hexes) {
        for (let i = 0; i + 4 <= hex.length; i += 4) {
          const code = parseInt(hex.slice(i, i + 4), 16);
          used.push(code);
          line += current?.toUnicode.get(code) ?? '\ufffd';
        }
      }
      lines.push(line);
    }
    pages.push(lines.join('\n'));
    codes.push(used);
  }
  const catalogPages = [...objs.values()].find((o) => /\/Type \/Pages\b/.test(o.dict));
  const count = Number(/\/Count (\d+)/.exec(catalogPages?.dict ?? '')?.[1] ?? -1);
  if (count !== pageObjs.length) throw new Error(`page tree says ${count} pages, found ${pageObjs.length} page objects`);
  return { pageCount: pageObjs.length, pages, codes, fonts: [...new Set(fonts.values())] };
}
