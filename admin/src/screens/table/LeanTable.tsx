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
 *   - row buttons are plain <button>s described by data (name, label), styled by CSS;
 *   - widths come from the columns (format.ts: field type and maxLength); a `fit` column (an
 *     identifier) also widens to its longest text on the page, so it is never cut off; every
 *     header has a grip to resize its column by dragging (double click: fit to the content);
 *   - the operation column is pinned to the right edge. A column it would cut through is hidden
 *     whole behind it (a "curtain", --lt-curtain, recomputed on scroll), so no value is ever shown
 *     cut off by it; scrolling brings the column out.
 * It depends on React only (no react-admin, no MUI) so it can be measured on its own against
 * react-admin's <Datagrid> (tests/bench). Test ids: `lean-table` on the root (with data-row-count
 * = all rows of the page, aria-rowcount), `lean-row` on the rendered rows (with data-id and
 * data-index), `lean-th-<key>` on header cells, `lean-row-action-<name>` on row buttons.
 */
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type MouseEvent, type PointerEvent, type ReactElement } from 'react';
import { CELL_EXTRA_PX, textMeasurer } from './measure.ts';
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
/** a column dragged narrower stops here */
const MIN_COLUMN_PX = 40;
const ROW_NUMBER_PX = 44;
const CHECK_PX = 32;
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
  /** never cut off: widen to the longest text of the page (identifiers) */
  fit?: boolean;
}

export interface RowAction {
  name: string;
  label: string;
  /** not a button: a note saying why the row offers none (a line of another supplier) */
  note?: boolean;
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
  /** accessible names of the row and header check boxes, in the user's language */
  selectRowLabel?: string;
  selectAllLabel?: string;
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
  selectLabel: string;
}

function sameActions(a: readonly RowAction[] | null, b: readonly RowAction[] | null): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => x.name === b[i].name && x.label === b[i].label);
}

const Row = memo(
  function Row({ record, index, columns, selectable, selected, current, actions, rowNumber, selectLabel }: RowProps) {
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
    p.selectLabel === n.selectLabel &&
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
    selectRowLabel = 'select',
    selectAllLabel = 'select all',
  } = props;
  const selected = useMemo(() => new Set((selectedIds ?? []).map(String)), [selectedIds]);
  const wrap = useRef<HTMLDivElement>(null);
  const showActions = !!rowActions;
  // widths the user dragged, by column key; the others come from the columns (fit: and the page)
  const [resized, setResized] = useState<Record<string, number>>({});
  const widths = useMemo(() => {
    const measure = columns.some((c) => c.fit && !resized[c.key]) ? textMeasurer(400) : null;
    return columns.map((c) => resized[c.key] ?? (c.fit && measure ? Math.max(c.width, longestText(c, rows, measure)) : c.width));
  }, [columns, rows, resized]);
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
      drawCurtain(el);
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

  const colCount = columns.length + (selectable ? 1 : 0) + (showActions ? 1 : 0) + (rowNumberFrom !== undefined ? 1 : 0);
  const totalWidth =
    widths.reduce((w, x) => w + x, 0) + (selectable ? CHECK_PX : 0) + (showActions ? actionsWidth : 0) + (rowNumberFrom !== undefined ? ROW_NUMBER_PX : 0);
  // the curtain follows every change of the widths, the rows and the pinned column
  useLayoutEffect(() => {
    if (wrap.current) drawCurtain(wrap.current);
  }, [widths, rows.length, showActions, actionsWidth]);

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
  /** Double click on a grip: the column fits its header and its longest text on the page. */
  const fitColumn = (c: LeanColumn) => {
    const width = Math.max(Math.ceil(textMeasurer(600)(c.label) + CELL_EXTRA_PX), longestText(c, rows, textMeasurer(400)), MIN_COLUMN_PX);
    setResized((r) => ({ ...r, [c.key]: width }));
  };

  return (
    <div
      ref={wrap}
      className="lt-wrap"
      // the table scrolls: a keyboard user must be able to focus it to scroll it (WCAG 2.1.1)
      tabIndex={0}
      style={{ maxHeight, ...(accent ? { ['--lt-accent' as string]: accent } : {}) }}
      data-testid={testId}
      data-row-count={rows.length}
    >
      <table className="lt" style={{ width: totalWidth }} aria-rowcount={rows.length + 1}>
        <colgroup>
          {rowNumberFrom !== undefined && <col style={{ width: ROW_NUMBER_PX }} />}
          {selectable && <col style={{ width: CHECK_PX }} />}
          {columns.map((c, i) => (
            <col key={c.key} style={{ width: widths[i] }} />
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
                  aria-label={selectAllLabel}
                  data-testid="lean-select-all"
                  checked={allSelected}
                  ref={(el) => {
                    if (el) el.indeterminate = someSelected;
                  }}
                  onChange={toggleAll}
                />
              </th>
            )}
            {columns.map((c, i) => {
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
                  <span
                    className="lt-resize"
                    aria-hidden="true"
                    data-testid={`lean-resize-${c.key}`}
                    onPointerDown={startResize(c.key, widths[i])}
                    onClick={(e) => e.stopPropagation()}
                    onDoubleClick={(e) => {
                      e.stopPropagation();
                      fitColumn(c);
                    }}
                  />
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
              selectLabel={selectRowLabel}
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

/**
 * The curtain of the pinned operation column: when the table scrolls sideways and the column's
 * left edge falls inside a data column, the pinned cells extend left (--lt-curtain) to hide that
 * column whole, so none of its values shows cut off. Read from the header cells' layout.
 */
function drawCurtain(el: HTMLElement): void {
  const pinned = el.querySelector<HTMLElement>('thead .lt-actions-h');
  let cover = 0;
  if (pinned && el.scrollWidth > el.clientWidth + 1) {
    const edge = el.scrollLeft + el.clientWidth - pinned.offsetWidth;
    for (const th of el.querySelectorAll<HTMLElement>('thead th:not(.lt-actions-h)')) {
      const x = th.offsetLeft;
      if (x < edge && edge < x + th.offsetWidth) {
        cover = Math.ceil(edge - x);
        break;
      }
    }
  }
  const value = `${cover}px`;
  if (el.style.getPropertyValue('--lt-curtain') !== value) el.style.setProperty('--lt-curtain', value);
}
