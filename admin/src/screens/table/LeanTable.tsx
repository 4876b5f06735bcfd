/**
 * The list table of every generated screen. A 500-row page (app.pageSize) must render fast, and
 * react-admin's Datagrid/DataTable are not virtualised and draw every cell as an emotion-styled MUI
 * TableCell (about 3x the cost of a plain cell). So this is a lean, self-contained table:
 *   - windowed: rows have a fixed height (25 px, spec 9), so only the rows in the scrolling
 *     viewport (plus an overscan) are in the DOM, between two spacer rows that keep the scroll
 *     height of the whole page. Measured in Chromium, laying out and painting all 500 rows x 20
 *     columns took 200-400 ms after React's commit; the window keeps that to a few dozen rows;
 *   - a plain <table> with `table-layout: fixed` and known column widths, so the browser lays the
 *     table out from the first row instead of measuring every cell;
 *   - cells are plain text computed by per-column formatters built once (see format.ts);
 *   - rows are React.memo'd on (record, selected, current), so selecting a row re-renders one row;
 *   - one delegated click/change handler on the table instead of closures per row;
 *   - row buttons are plain <button>s described by data (name, label), styled by CSS.
 * It depends on React only (no react-admin, no MUI) so it can be measured on its own against
 * react-admin's <Datagrid> (tests/bench). Test ids: `lean-table` on the root (with data-row-count
 * = all rows of the page, aria-rowcount), `lean-row` on the rendered rows (with data-id and
 * data-index), `lean-th-<key>` on header cells, `lean-row-action-<name>` on row buttons.
 */
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type MouseEvent, type ReactElement } from 'react';
import './lean-table.css';

export type RowId = string | number;

/** row height in px (spec 9: grid row height 25); the CSS gives rows exactly this height */
export const ROW_HEIGHT = 25;
/** rows rendered above and below the viewport */
const OVERSCAN = 20;
/** the first visible row moves by this many rows before the window is recomputed */
const STEP = 8;
/** viewport height assumed before the first measurement */
const INITIAL_VIEWPORT = 1000;
export interface LeanRecord {
  id: RowId;
  [field: string]: unknown;
}

export interface LeanColumn {
  key: string;
  label: string;
  width: number;
  align?: 'left' | 'right' | 'center';
  sortable?: boolean;
  /** text of the cell */
  text: (record: LeanRecord) => string;
  /** render the cell as a link (opens the record; see onOpen) */
  link?: boolean;
}

export interface RowAction {
  name: string;
  label: string;
}

export interface LeanTableProps {
  columns: readonly LeanColumn[];
  rows: readonly LeanRecord[];
  /** show a checkbox column */
  selectable?: boolean;
  selectedIds?: readonly RowId[];
  onToggle?: (id: RowId) => void;
  /** select these ids (all rows) or none ([]) */
  onSelect?: (ids: RowId[]) => void;
  sort?: { field: string; order: string };
  onSort?: (field: string) => void;
  /** the highlighted row (e.g. whose details are shown below the table) */
  currentId?: RowId | null;
  onRowClick?: (record: LeanRecord) => void;
  /** link cells */
  onOpen?: (record: LeanRecord) => void;
  /** buttons of one row, already filtered by permission and state; keep the function stable */
  rowActions?: (record: LeanRecord) => readonly RowAction[];
  onRowAction?: (name: string, record: LeanRecord) => void;
  actionsLabel?: string;
  actionsWidth?: number;
  emptyText?: string;
  /** height of the scrolling body (header stays visible) */
  maxHeight?: number | string;
  testId?: string;
  /** row numbers in the first column (page offset + 1) */
  rowNumberFrom?: number;
  /** accent colour (links, sort marks, row buttons); follows the theme colour setting */
  accent?: string;
}

interface RowProps {
  record: LeanRecord;
  index: number;
  columns: readonly LeanColumn[];
  selectable: boolean;
  selected: boolean;
  current: boolean;
  actions: readonly RowAction[] | null;
  rowNumber: number | null;
}

function sameActions(a: readonly RowAction[] | null, b: readonly RowAction[] | null): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => x.name === b[i].name && x.label === b[i].label);
}

const Row = memo(
  function Row({ record, index, columns, selectable, selected, current, actions, rowNumber }: RowProps) {
    return (
      <tr data-testid="lean-row" data-id={String(record.id)} data-index={index} aria-rowindex={index + 2} className={current ? 'lt-current' : selected ? 'lt-selected' : index % 2 ? 'lt-odd' : undefined}>
        {rowNumber !== null && <td className="lt-num">{rowNumber}</td>}
        {selectable && (
          <td className="lt-check">
            <input type="checkbox" checked={selected} readOnly data-role="toggle" aria-label="select" />
          </td>
        )}
        {columns.map((c) => {
          const text = c.text(record);
          return (
            <td key={c.key} className={c.align === 'right' ? 'lt-r' : c.align === 'center' ? 'lt-c' : undefined} title={text.length > 12 ? text : undefined}>
              {c.link ? (
                <a href="#" data-role="open">
                  {text || '—'}
                </a>
              ) : (
                text
              )}
            </td>
          );
        })}
        {actions !== null && (
          <td className="lt-actions">
            {actions.map((a) => (
              <button key={a.name} type="button" className="lt-btn" data-action={a.name} data-testid={`lean-row-action-${a.name}`}>
                {a.label}
              </button>
            ))}
          </td>
        )}
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
    sameActions(p.actions, n.actions),
);

export function LeanTable(props: LeanTableProps): ReactElement {
  const {
    columns,
    rows,
    selectable = false,
    selectedIds,
    sort,
    currentId = null,
    rowActions,
    actionsLabel = '',
    actionsWidth = 160,
    emptyText = '',
    maxHeight = 'calc(100vh - 320px)',
    testId = 'lean-table',
    rowNumberFrom,
    accent,
  } = props;
  const selected = useMemo(() => new Set((selectedIds ?? []).map(String)), [selectedIds]);
  const wrap = useRef<HTMLDivElement>(null);
  // [first visible row, viewport height]; `first` moves in steps so scrolling re-renders rarely
  const [view, setView] = useState({ first: 0, height: INITIAL_VIEWPORT });
  useLayoutEffect(() => {
    const el = wrap.current;
    if (!el) return undefined;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const first = Math.floor(el.scrollTop / ROW_HEIGHT);
      const height = el.clientHeight || INITIAL_VIEWPORT;
      setView((v) => (Math.abs(v.first - first) >= STEP || (first === 0 && v.first !== 0) || Math.abs(v.height - height) > ROW_HEIGHT ? { first, height } : v));
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    el.addEventListener('scroll', onScroll, { passive: true });
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(onScroll) : null;
    ro?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      ro?.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);
  const start = Math.max(0, Math.min(view.first, rows.length) - OVERSCAN);
  const end = Math.min(rows.length, view.first + Math.ceil(view.height / ROW_HEIGHT) + OVERSCAN + STEP);
  // handlers live in a ref: the delegated listener never changes, rows never re-render for them
  const live = useRef(props);
  // the latest-value ref, written during render on purpose so the listener never sees stale props
  // eslint-disable-next-line react-hooks/refs
  live.current = props;

  const rowOf = (target: EventTarget | null): LeanRecord | undefined => {
    const tr = (target as HTMLElement | null)?.closest?.('tr[data-index]');
    const i = tr ? Number(tr.getAttribute('data-index')) : -1;
    return i >= 0 ? live.current.rows[i] : undefined;
  };

  const onBodyClick = useCallback((ev: MouseEvent<HTMLTableSectionElement>) => {
    const target = ev.target as HTMLElement;
    const record = rowOf(target);
    if (!record) return;
    const p = live.current;
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
  }, []);

  const allSelected = rows.length > 0 && rows.every((r) => selected.has(String(r.id)));
  const someSelected = !allSelected && rows.some((r) => selected.has(String(r.id)));
  const toggleAll = () => props.onSelect?.(allSelected ? [] : rows.map((r) => r.id));

  const showActions = !!rowActions;
  const colCount = columns.length + (selectable ? 1 : 0) + (showActions ? 1 : 0) + (rowNumberFrom !== undefined ? 1 : 0);
  const totalWidth =
    columns.reduce((w, c) => w + c.width, 0) + (selectable ? 32 : 0) + (showActions ? actionsWidth : 0) + (rowNumberFrom !== undefined ? 44 : 0);

  return (
    <div
      ref={wrap}
      className="lt-wrap"
      style={{ maxHeight, ...(accent ? { ['--lt-accent' as string]: accent } : {}) }}
      data-testid={testId}
      data-row-count={rows.length}
    >
      <table className="lt" style={{ width: totalWidth }} aria-rowcount={rows.length + 1}>
        <colgroup>
          {rowNumberFrom !== undefined && <col style={{ width: 44 }} />}
          {selectable && <col style={{ width: 32 }} />}
          {columns.map((c) => (
            <col key={c.key} style={{ width: c.width }} />
          ))}
          {showActions && <col style={{ width: actionsWidth }} />}
        </colgroup>
        <thead>
          <tr>
            {rowNumberFrom !== undefined && <th className="lt-num">#</th>}
            {selectable && (
              <th className="lt-check">
                <input
                  type="checkbox"
                  aria-label="select all"
                  data-testid="lean-select-all"
                  checked={allSelected}
                  ref={(el) => {
                    if (el) el.indeterminate = someSelected;
                  }}
                  onChange={toggleAll}
                />
              </th>
            )}
            {columns.map((c) => {
              const active = sort?.field === c.key;
              return (
                <th
                  key={c.key}
                  data-testid={`lean-th-${c.key}`}
                  className={[c.sortable ? 'lt-sortable' : '', c.align === 'right' ? 'lt-r' : c.align === 'center' ? 'lt-c' : ''].join(' ').trim() || undefined}
                  aria-sort={active ? (sort!.order === 'ASC' ? 'ascending' : 'descending') : undefined}
                  onClick={c.sortable ? () => live.current.onSort?.(c.key) : undefined}
                  title={c.label}
                >
                  {c.label}
                </th>
              );
            })}
            {showActions && <th className="lt-actions-h">{actionsLabel}</th>}
          </tr>
        </thead>
        <tbody onClick={onBodyClick}>
          {start > 0 && (
            <tr className="lt-spacer" aria-hidden style={{ height: start * ROW_HEIGHT }}>
              <td colSpan={colCount} />
            </tr>
          )}
          {rows.slice(start, end).map((r, j) => (
            <Row
              key={String(r.id)}
              record={r}
              index={start + j}
              columns={columns}
              selectable={selectable}
              selected={selected.has(String(r.id))}
              current={currentId !== null && String(currentId) === String(r.id)}
              actions={rowActions ? rowActions(r) : null}
              rowNumber={rowNumberFrom !== undefined ? rowNumberFrom + start + j : null}
            />
          ))}
          {end < rows.length && (
            <tr className="lt-spacer" aria-hidden style={{ height: (rows.length - end) * ROW_HEIGHT }}>
              <td colSpan={colCount} />
            </tr>
          )}
        </tbody>
      </table>
      {rows.length === 0 && (
        <div className="lt-empty" data-testid="lean-empty">
          {emptyText}
        </div>
      )}
    </div>
  );
}
