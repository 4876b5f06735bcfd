/**
 * The table body's one delegated click handler (instead of closures per row): a row button runs
 * its action, a link opens the record, the check box toggles the row, anything else is a row click.
 * The table calls it with its latest props (kept in a ref), so its listener never changes and rows
 * never re-render for it.
 */
import type { MouseEvent } from 'react';
import type { LeanRecord, LeanTableProps } from './LeanTable.tsx';

export function handleBodyClick(ev: MouseEvent<HTMLTableSectionElement>, p: LeanTableProps): void {
  const target = ev.target as HTMLElement;
  const record = rowOf(target, p.rows);
  if (!record) return;
  const actionBtn = target.closest('button[data-action]');
  if (actionBtn) {
    p.onRowAction?.(actionBtn.getAttribute('data-action')!, record);
    return;
  }
  if (target.closest('[data-role="open"]')) {
    ev.preventDefault();
    p.onOpen?.(record);
    return;
  }
  if (target.closest('[data-role="toggle"]') || target.closest('.lt-check')) {
    p.onToggle?.(record.id);
    return;
  }
  p.onRowClick?.(record);
}

/** The record of the row a click landed in (rows carry their page index in data-index). */
function rowOf(target: HTMLElement | null, rows: readonly LeanRecord[]): LeanRecord | undefined {
  const tr = target?.closest?.('tr[data-index]');
  const i = tr ? Number(tr.getAttribute('data-index')) : -1;
  return i >= 0 ? rows[i] : undefined;
}
