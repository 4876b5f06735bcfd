/**
 * One rendered row of the lean table, memo'd on (record, selected, current, actions) so that
 * selecting a row re-renders one row. Cells are plain text; links, check boxes and row buttons
 * carry data-role / data-action for the table's one delegated click handler (bodyClick.ts).
 */
import { memo } from 'react';
import type { LeanColumn, LeanRecord, RowAction } from './LeanTable.tsx';

export interface RowProps {
  record: LeanRecord;
  index: number;
  columns: readonly LeanColumn[];
  selectable: boolean;
  selected: boolean;
  current: boolean;
  actions: readonly RowAction[] | null;
  rowNumber: number | null;
  selectLabel: string;
}

function sameActions(a: readonly RowAction[] | null, b: readonly RowAction[] | null): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => x.name === b[i].name && x.label === b[i].label);
}

export const alignClass = (align: LeanColumn['align']): string | undefined => (align === 'right' ? 'lt-r' : align === 'center' ? 'lt-c' : undefined);

/** A data cell; a plain function, not a component: no extra fiber per cell (the table is measured). */
function cell(column: LeanColumn, record: LeanRecord) {
  const text = column.text(record);
  return (
    <td key={column.key} className={alignClass(column.align)} title={text.length > 12 ? text : undefined}>
      {column.link ? (
        <a href="#" data-role="open">
          {text || '—'}
        </a>
      ) : (
        text
      )}
    </td>
  );
}

function actionsCell(actions: readonly RowAction[]) {
  return (
    <td className="lt-actions">
      <div className="lt-actions-in">
        {actions.map((a) =>
          a.note ? (
            <span key={a.name} className="lt-note" data-testid="lean-row-note">
              {a.label}
            </span>
          ) : (
            <button key={a.name} type="button" className="lt-btn" data-action={a.name} data-testid={`lean-row-action-${a.name}`}>
              {a.label}
            </button>
          ),
        )}
      </div>
    </td>
  );
}

export const LeanRow = memo(
  function LeanRow({ record, index, columns, selectable, selected, current, actions, rowNumber, selectLabel }: RowProps) {
    return (
      <tr
        data-testid="lean-row"
        data-id={String(record.id)}
        data-index={index}
        aria-rowindex={index + 2}
        className={current ? 'lt-current' : selected ? 'lt-selected' : index % 2 ? 'lt-odd' : undefined}
      >
        {rowNumber !== null && <td className="lt-num">{rowNumber}</td>}
        {selectable && (
          <td className="lt-check">
            <input type="checkbox" checked={selected} readOnly data-role="toggle" aria-label={selectLabel} />
          </td>
        )}
        {columns.map((c) => cell(c, record))}
        {actions !== null && actionsCell(actions)}
      </tr>
    );
  },
  (p, n) =>
    p.record === n.record &&
    p.selected === n.selected &&
    p.current === n.current &&
    p.columns === n.columns &&
    p.index === n.index &&
    p.rowNumber === n.rowNumber &&
    p.selectable === n.selectable &&
    p.selectLabel === n.selectLabel &&
    sameActions(p.actions, n.actions),
);
