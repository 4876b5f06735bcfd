/**
 * The widths of the table's columns: from the columns (format.ts: field type and maxLength), a
 * `fit` column (an identifier) widened to its longest text on the page, and the widths the user
 * set by dragging a header's grip (double click: fit to the header and the content).
 */
import { useMemo, useState, type PointerEvent } from 'react';
import { CELL_EXTRA_PX, textMeasurer } from './measure.ts';
import type { LeanColumn, LeanRecord } from './LeanTable.tsx';

/** a column dragged narrower stops here */
const MIN_COLUMN_PX = 40;

export interface ColumnWidths {
  widths: number[];
  /** the grip's pointerdown handler of the column `key`, whose width is `from` when the drag starts */
  startResize: (key: string, from: number) => (e: PointerEvent<HTMLSpanElement>) => void;
  /** fit the column to its header and its longest text on the page */
  fitColumn: (c: LeanColumn) => void;
}

/**
 * `fitAll`: every column as wide as its header or its longest text on the page, whichever is wider,
 * instead of the width its field type suggests (a child list in a narrow side panel: its few
 * rows' values fit the panel where the type's widths pushed the last columns out of it).
 */
export function useColumnWidths(columns: readonly LeanColumn[], rows: readonly LeanRecord[], fitAll = false, room?: number): ColumnWidths {
  // widths the user dragged, by column key; the others come from the columns (fit: and the page)
  const [resized, setResized] = useState<Record<string, number>>({});
  const widths = useMemo(() => {
    const measure = fitAll || columns.some((c) => c.fit && !resized[c.key]) ? textMeasurer(400) : null;
    if (fitAll && measure) {
      const floors = columns.map((c) => resized[c.key] ?? Math.max(MIN_COLUMN_PX, headerWidth(c)));
      const fitted = columns.map((c, i) => resized[c.key] ?? Math.max(floors[i], longestText(c, rows, measure)));
      if (!room) return fitted;
      // texts first; then, if the headers alone are wider than the room, the headers (they wrap: lt-fit)
      const texts = shrinkToRoom(fitted, floors, room);
      return shrinkToRoom(
        texts,
        columns.map((c) => resized[c.key] ?? MIN_COLUMN_PX),
        room,
      );
    }
    return columns.map((c) => resized[c.key] ?? (c.fit && measure ? Math.max(c.width, longestText(c, rows, measure)) : c.width));
  }, [columns, rows, resized, fitAll, room]);

  /** Dragging a header's grip resizes its column (pointer capture: the drag may leave the grip). */
  const startResize = (key: string, from: number) => (e: PointerEvent<HTMLSpanElement>) => {
    e.preventDefault();
    e.stopPropagation();
    const grip = e.currentTarget;
    grip.setPointerCapture?.(e.pointerId);
    const x0 = e.clientX;
    const move = (ev: globalThis.PointerEvent) => setResized((r) => ({ ...r, [key]: Math.max(MIN_COLUMN_PX, Math.round(from + ev.clientX - x0)) }));
    const up = () => {
      grip.removeEventListener('pointermove', move);
      grip.removeEventListener('pointerup', up);
      grip.removeEventListener('pointercancel', up);
    };
    grip.addEventListener('pointermove', move);
    grip.addEventListener('pointerup', up);
    grip.addEventListener('pointercancel', up);
  };
  const fitColumn = (c: LeanColumn) => {
    const width = Math.max(headerWidth(c), longestText(c, rows, textMeasurer(400)), MIN_COLUMN_PX);
    setResized((r) => ({ ...r, [c.key]: width }));
  };
  return { widths, startResize, fitColumn };
}

/**
 * Fitted widths that add up to more than the room there is: the columns wider than their header
 * give up the excess in proportion to what they have beyond it (their texts end in an ellipsis),
 * so that every column stays in view.
 */
export function shrinkToRoom(widths: readonly number[], floors: readonly number[], room: number): number[] {
  const total = widths.reduce((a, b) => a + b, 0);
  const spare = widths.map((w, i) => Math.max(0, w - floors[i]));
  const spareTotal = spare.reduce((a, b) => a + b, 0);
  if (total <= room || spareTotal === 0) return [...widths];
  const cut = Math.min(total - room, spareTotal);
  return widths.map((w, i) => Math.floor(w - (spare[i] * cut) / spareTotal));
}

/** The width (px) of a column's header: its label in the header's bold font, and the sort mark. */
const SORT_MARK_PX = 14;
const headerWidth = (c: LeanColumn): number => Math.ceil(textMeasurer(600)(c.label) + CELL_EXTRA_PX + (c.sortable ? SORT_MARK_PX : 0));

/** The width (px) of a column's longest text on the page; only the longest few strings are measured. */
function longestText(c: LeanColumn, rows: readonly LeanRecord[], measure: (t: string) => number): number {
  const texts = new Set<string>();
  let longest = 0;
  for (const r of rows) {
    const t = c.text(r);
    if (t.length + 3 < longest) continue;
    texts.add(t);
    if (t.length > longest) longest = t.length;
  }
  let width = 0;
  for (const t of texts) if (t.length + 3 >= longest) width = Math.max(width, measure(t));
  return Math.ceil(width + CELL_EXTRA_PX);
}
