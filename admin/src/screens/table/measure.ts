/**
 * Text widths in the list table's font (12 px, the page's font family), measured on a canvas: the
 * exact width in whatever font the browser really draws with (a Chinese system font draws digits
 * wider than Helvetica does, which is how order numbers got cut off in Chinese). Where there is no
 * canvas (jsdom) a per-character estimate stands in. Depends on the DOM only (no React, no MUI).
 */

export const TABLE_FONT_PX = 12;
/** what a cell adds to its text: 8 px padding each side, a 1 px border, 2 px of rounding slack */
export const CELL_EXTRA_PX = 19;

type Ctx = { font: string; measureText(text: string): { width: number } };
let context: Ctx | null | undefined;

function canvas(): Ctx | null {
  if (context !== undefined) return context;
  context = null;
  try {
    if (typeof OffscreenCanvas !== 'undefined') context = new OffscreenCanvas(1, 1).getContext('2d') as Ctx | null;
  } catch {
    context = null;
  }
  return context;
}

/** The font family the page draws with (the table inherits it). */
const pageFamily = (): string => (typeof document !== 'undefined' && document.body ? getComputedStyle(document.body).fontFamily : '') || 'sans-serif';

const wide = (ch: string): boolean => ch.charCodeAt(0) > 0x2e80;

/** A measurer for one font weight; build one per column set (it reads the page's font once). */
export function textMeasurer(weight: 400 | 600 = 400): (text: string) => number {
  const ctx = canvas();
  if (!ctx) return (text) => [...text].reduce((w, ch) => w + (wide(ch) ? TABLE_FONT_PX : TABLE_FONT_PX * 0.62), 0);
  const font = `${weight} ${TABLE_FONT_PX}px ${pageFamily()}`;
  return (text) => {
    ctx.font = font;
    return ctx.measureText(text).width;
  };
}
