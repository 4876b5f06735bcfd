/**
 * pdfkit plumbing shared by generated PDFs: a document with the CJK font registered, collected
 * into a Buffer, plus a way to let other requests run while a long document is drawn (pdfkit draws
 * synchronously; a 5000-card print must not freeze the server for seconds).
 */
import PDFDocument from 'pdfkit';
import { cjkFont } from './fonts.ts';

/** Name under which the CJK font is registered in every document made here. */
export const CJK = 'cjk';

export type Pdf = PDFKit.PDFDocument;

/** Lets queued I/O callbacks run (call every few pages of a long document). */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Creates a document, lets `draw` fill it and resolves with the finished bytes. The font is found
 * before the document starts, so a missing font fails fast with FontMissingError.
 */
export async function renderPdf(draw: (doc: Pdf) => Promise<void> | void, options: PDFKit.PDFDocumentOptions = {}): Promise<Buffer> {
  const font = cjkFont();
  const doc = new PDFDocument({ size: 'A4', margin: 0, autoFirstPage: false, ...options });
  const chunks: Buffer[] = [];
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont(CJK, font.data);
  doc.font(CJK);
  await draw(doc);
  doc.end();
  return finished;
}

/** Draws text clipped to one box: shrinks nothing, cuts with an ellipsis instead of overflowing. */
export function boxText(
  doc: Pdf,
  text: string,
  x: number,
  y: number,
  width: number,
  opts: { size: number; height?: number; align?: 'left' | 'center' | 'right'; color?: string },
): void {
  doc.fillColor(opts.color ?? '#000000').fontSize(opts.size);
  const height = opts.height ?? opts.size * 1.3;
  doc.text(text, x, y, { width, height, align: opts.align ?? 'left', ellipsis: true, lineGap: 0 });
}
