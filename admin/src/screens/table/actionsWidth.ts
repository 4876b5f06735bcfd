/**
 * The width of the pinned operation column: room for every button of a row, measured in the table's
 * font (a fixed width cut the claim attachments' Delete off in English, issue 20 point 8). A button
 * (lean-table.css .lt-btn) adds 6 px padding each side, a 1 px border each side and 4 px margin to
 * its text; the cell adds its own 8 px padding each side and a border.
 */
import { textMeasurer } from './measure.ts';

const BUTTON_EXTRA_PX = 6 * 2 + 2 + 4;
const CELL_EXTRA_PX = 8 * 2 + 2;
const MIN_ACTIONS_PX = 80;

/** Room for these buttons side by side (and at least for a short note `also`, e.g. "not your line"). */
export function actionsWidth(labels: readonly string[], also = ''): number {
  const measure = textMeasurer(400);
  const buttons = labels.reduce((w, label) => w + Math.ceil(measure(label)) + BUTTON_EXTRA_PX, 0);
  return Math.max(MIN_ACTIONS_PX, CELL_EXTRA_PX + buttons, also ? CELL_EXTRA_PX + Math.ceil(measure(also)) : 0);
}
