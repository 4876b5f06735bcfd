/**
 * The lean table's header row: row number, select-all box, one sortable header per column with a
 * grip to resize it (double click: fit), and the pinned operation column's header.
 */
import type { PointerEvent, ReactElement } from 'react';
import { alignClass } from './LeanRow.tsx';
import type { LeanColumn } from './LeanTable.tsx';

export interface LeanHeaderProps {
  columns: readonly LeanColumn[];
  widths: readonly number[];
  sort?: { field: string; order: string };
  onSort: (field: string) => void;
  rowNumbers: boolean;
  selectable: boolean;
  allSelected: boolean;
  someSelected: boolean;
  onToggleAll: () => void;
  selectAllLabel: string;
  /** the operation column's header text, or null without one */
  actionsLabel: string | null;
  startResize: (key: string, from: number) => (e: PointerEvent<HTMLSpanElement>) => void;
  fitColumn: (c: LeanColumn) => void;
}

export function LeanHeader(props: LeanHeaderProps): ReactElement {
  const { columns, widths, rowNumbers, selectable, allSelected, someSelected, onToggleAll, selectAllLabel, actionsLabel } = props;
  return (
    <thead>
      <tr>
        {rowNumbers && <th className="lt-num">#</th>}
        {selectable && (
          <th className="lt-check">
            <input
              type="checkbox"
              aria-label={selectAllLabel}
              data-testid="lean-select-all"
              checked={allSelected}
              ref={(el) => {
                if (el) el.indeterminate = someSelected;
              }}
              onChange={onToggleAll}
            />
          </th>
        )}
        {columns.map((c, i) => columnHeader(props, c, widths[i]))}
        {actionsLabel !== null && <th className="lt-actions-h">{actionsLabel}</th>}
      </tr>
    </thead>
  );
}

function columnHeader({ sort, onSort, startResize, fitColumn }: LeanHeaderProps, c: LeanColumn, width: number): ReactElement {
  const active = sort?.field === c.key;
  return (
    <th
      key={c.key}
      data-testid={`lean-th-${c.key}`}
      className={[c.sortable ? 'lt-sortable' : '', alignClass(c.align) ?? ''].join(' ').trim() || undefined}
      aria-sort={active ? (sort!.order === 'ASC' ? 'ascending' : 'descending') : undefined}
      onClick={c.sortable ? () => onSort(c.key) : undefined}
      title={c.label}
    >
      {c.label}
      <span
        className="lt-resize"
        aria-hidden="true"
        data-testid={`lean-resize-${c.key}`}
        onPointerDown={startResize(c.key, width)}
        onClick={(e) => e.stopPropagation()}
        onDoubleClick={(e) => {
          e.stopPropagation();
          fitColumn(c);
        }}
      />
    </th>
  );
}
