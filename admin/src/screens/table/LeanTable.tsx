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
 * The parts: LeanRow.tsx (a row), LeanHeader.tsx (the header row), useRowWindow.ts (the window),
 * useColumnWidths.ts (widths, resizing), bodyClick.ts (the delegated handler), curtain.ts.
 * It depends on React only (no react-admin, no MUI) so it can be measured on its own against
 * react-admin's <Datagrid> (tests/bench). Test ids: `lean-table` on the root (with data-row-count
 * = all rows of the page, aria-rowcount), `lean-row` on the rendered rows (with data-id and
 * data-index), `lean-th-<key>` on header cells, `lean-row-action-<name>` on row buttons.
 */
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type MouseEvent, type ReactElement, type RefObject } from 'react';
import { handleBodyClick } from './bodyClick.ts';
import { drawCurtain } from './curtain.ts';
import { LeanHeader } from './LeanHeader.tsx';
import { LeanRow } from './LeanRow.tsx';
import { useColumnWidths } from './useColumnWidths.ts';
import { ROW_HEIGHT, useRowWindow } from './useRowWindow.ts';
import './lean-table.css';

export { ROW_HEIGHT };
export type RowId = string | number;

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
  /**
   * the spec's mobile mode (a phone): the identifier (`fit`) columns come first so they are in view,
   * and the operation column is not pinned (no room beside them): the table scrolls sideways to it
   */
  compact?: boolean;
  /** every column fits its header and its longest text (not its field type's width): a short child list in a narrow panel */
  fitContent?: boolean;
}

/** The identifier columns first, the others in their order (the compact table of a phone). */
const identifiersFirst = (columns: readonly LeanColumn[]): readonly LeanColumn[] => [...columns.filter((c) => c.fit), ...columns.filter((c) => !c.fit)];

export function LeanTable(props: LeanTableProps): ReactElement {
  const { compact = false, rows, selectable = false, selectedIds, sort, rowActions, actionsLabel = '', actionsWidth = 160, rowNumberFrom } = props;
  const selected = useMemo(() => new Set((selectedIds ?? []).map(String)), [selectedIds]);
  const columns = useMemo(() => (compact ? identifiersFirst(props.columns) : props.columns), [compact, props.columns]);
  const wrap = useRef<HTMLDivElement>(null);
  const showActions = !!rowActions;
  const room = useRoom(wrap, !!props.fitContent);
  const extras = (selectable ? CHECK_PX : 0) + (showActions ? actionsWidth : 0) + (rowNumberFrom !== undefined ? ROW_NUMBER_PX : 0);
  const { widths, startResize, fitColumn } = useColumnWidths(columns, rows, props.fitContent, room === undefined ? undefined : room - extras);
  const { start, end } = useRowWindow(wrap, rows.length);
  // handlers live in a ref: the delegated listener never changes, rows never re-render for them
  const live = useRef(props);
  // the latest-value ref, written during render on purpose so the listener never sees stale props
  // eslint-disable-next-line react-hooks/refs
  live.current = props;
  const onBodyClick = useCallback((ev: MouseEvent<HTMLTableSectionElement>) => handleBodyClick(ev, live.current), []);

  const allSelected = rows.length > 0 && rows.every((r) => selected.has(String(r.id)));
  const someSelected = !allSelected && rows.some((r) => selected.has(String(r.id)));
  const rowNumbers = rowNumberFrom !== undefined;
  const colCount = columns.length + (selectable ? 1 : 0) + (showActions ? 1 : 0) + (rowNumbers ? 1 : 0);
  const totalWidth = widths.reduce((w, x) => w + x, 0) + (selectable ? CHECK_PX : 0) + (showActions ? actionsWidth : 0) + (rowNumbers ? ROW_NUMBER_PX : 0);
  // the curtain follows every change of the widths, the rows and the pinned column
  useLayoutEffect(() => {
    if (wrap.current) drawCurtain(wrap.current);
  }, [widths, rows.length, showActions, actionsWidth]);

  const spacer = (count: number) => (
    <tr className="lt-spacer" aria-hidden style={{ height: count * ROW_HEIGHT }}>
      <td colSpan={colCount} />
    </tr>
  );
  return (
    <div
      ref={wrap}
      className={['lt-wrap', compact && 'lt-compact', props.fitContent && 'lt-fit'].filter(Boolean).join(' ')}
      // the table scrolls: a keyboard user must be able to focus it to scroll it (WCAG 2.1.1)
      tabIndex={0}
      style={{ maxHeight: props.maxHeight ?? 'calc(100vh - 320px)', ...(props.accent ? { ['--lt-accent' as string]: props.accent } : {}) }}
      data-testid={props.testId ?? 'lean-table'}
      data-row-count={rows.length}
    >
      <table className="lt" style={{ width: totalWidth }} aria-rowcount={rows.length + 1}>
        {colGroup(columns, widths, rowNumbers, selectable, showActions ? actionsWidth : null)}
        <LeanHeader
          columns={columns}
          widths={widths}
          sort={sort}
          onSort={(field) => live.current.onSort?.(field)}
          rowNumbers={rowNumbers}
          selectable={selectable}
          allSelected={allSelected}
          someSelected={someSelected}
          onToggleAll={() => props.onSelect?.(allSelected ? [] : rows.map((r) => r.id))}
          selectAllLabel={props.selectAllLabel ?? 'select all'}
          actionsLabel={showActions ? actionsLabel : null}
          startResize={startResize}
          fitColumn={fitColumn}
        />
        <tbody onClick={onBodyClick}>
          {start > 0 && spacer(start)}
          {rows.slice(start, end).map((r, j) => (
            <LeanRow
              key={String(r.id)}
              record={r}
              index={start + j}
              columns={columns}
              selectable={selectable}
              selected={selected.has(String(r.id))}
              current={props.currentId != null && String(props.currentId) === String(r.id)}
              actions={rowActions ? rowActions(r) : null}
              rowNumber={rowNumbers ? rowNumberFrom + start + j : null}
              selectLabel={props.selectRowLabel ?? 'select'}
            />
          ))}
          {end < rows.length && spacer(rows.length - end)}
        </tbody>
      </table>
      {rows.length === 0 && (
        <div className="lt-empty" data-testid="lean-empty">
          {props.emptyText ?? ''}
        </div>
      )}
    </div>
  );
}

/**
 * The width inside the table's frame (its padding excluded), followed as the frame changes size;
 * only measured when `active` (a table whose columns fit their content must also fit its frame).
 */
function useRoom(wrap: RefObject<HTMLDivElement | null>, active: boolean): number | undefined {
  const [room, setRoom] = useState<number>();
  useLayoutEffect(() => {
    const el = wrap.current;
    if (!active || !el) return;
    const measure = () => {
      const style = getComputedStyle(el);
      setRoom(Math.floor(el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [wrap, active]);
  return room;
}

/** The known column widths: with `table-layout: fixed` the browser lays the table out from them. */
function colGroup(columns: readonly LeanColumn[], widths: readonly number[], rowNumbers: boolean, selectable: boolean, actionsWidth: number | null) {
  return (
    <colgroup>
      {rowNumbers && <col style={{ width: ROW_NUMBER_PX }} />}
      {selectable && <col style={{ width: CHECK_PX }} />}
      {columns.map((c, i) => (
        <col key={c.key} style={{ width: widths[i] }} />
      ))}
      {actionsWidth !== null && <col style={{ width: actionsWidth }} />}
    </colgroup>
  );
}
