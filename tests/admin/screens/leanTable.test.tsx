/**
 * The lean list table: headers and cells from the column definitions, a window of rows for a
 * 500-row page, delegated clicks (toggle, open, row action, row click, sort) and memoised rows
 * (changing one row's selection re-renders that row only).
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LeanTable, ROW_HEIGHT, type LeanColumn, type LeanRecord } from '../../../admin/src/screens/table/LeanTable.tsx';

const rows = (n: number): LeanRecord[] => Array.from({ length: n }, (_, i) => ({ id: i + 1, code: `C${i + 1}`, qty: i * 10, status: i % 2 ? '1' : '0' }));

function columns(counter?: { calls: number }): LeanColumn[] {
  return [
    { key: 'code', label: '代码', width: 100, sortable: true, link: true, text: (r) => String(r.code) },
    {
      key: 'qty',
      label: 'Qty',
      width: 80,
      align: 'right',
      text: (r) => {
        if (counter) counter.calls++;
        return String(r.qty);
      },
    },
  ];
}

afterEach(cleanup);

describe('LeanTable', () => {
  it('renders the labels, the cells and the total row count', () => {
    render(<LeanTable columns={columns()} rows={rows(3)} />);
    expect(screen.getByTestId('lean-th-code')).toHaveTextContent('代码');
    expect(screen.getByTestId('lean-th-qty')).toHaveTextContent('Qty');
    const trs = screen.getAllByTestId('lean-row');
    expect(trs).toHaveLength(3);
    expect(within(trs[1]).getByText('C2')).toBeInTheDocument();
    expect(within(trs[1]).getByText('10')).toHaveClass('lt-r');
    expect(screen.getByTestId('lean-table')).toHaveAttribute('data-row-count', '3');
  });

  it('compact (the mobile mode): the identifier columns first, the operation column not pinned; otherwise the declared order', () => {
    const cols: LeanColumn[] = [columns()[1], { ...columns()[0], fit: true }];
    const order = () => [...document.querySelectorAll('thead th[data-testid^="lean-th-"]')].map((th) => th.getAttribute('data-testid'));
    const { rerender } = render(<LeanTable columns={cols} rows={rows(2)} rowActions={() => []} />);
    expect(order()).toEqual(['lean-th-qty', 'lean-th-code']);
    expect(screen.getByTestId('lean-table')).not.toHaveClass('lt-compact');
    rerender(<LeanTable columns={cols} rows={rows(2)} rowActions={() => []} compact />);
    expect(order()).toEqual(['lean-th-code', 'lean-th-qty']);
    // the cells follow their headers
    expect(screen.getAllByTestId('lean-row')[0].children[0]).toHaveTextContent('C1');
    expect(screen.getByTestId('lean-table')).toHaveClass('lt-compact');
  });

  it('keeps only a window of a 500-row page in the DOM, with spacers for the rest', () => {
    const { container } = render(<LeanTable columns={columns()} rows={rows(500)} />);
    const rendered = screen.getAllByTestId('lean-row');
    expect(rendered.length).toBeGreaterThan(30);
    expect(rendered.length).toBeLessThan(120);
    expect(screen.getByTestId('lean-table')).toHaveAttribute('data-row-count', '500');
    const spacer = container.querySelector('tr.lt-spacer') as HTMLElement;
    expect(parseInt(spacer.style.height, 10)).toBe((500 - rendered.length) * ROW_HEIGHT);
  });

  it('shows the rows of the scrolled-to part', async () => {
    render(<LeanTable columns={columns()} rows={rows(500)} />);
    const wrap = screen.getByTestId('lean-table');
    Object.defineProperty(wrap, 'clientHeight', { value: 400, configurable: true });
    wrap.scrollTop = 300 * ROW_HEIGHT;
    fireEvent.scroll(wrap);
    await waitFor(() => {
      const ids = screen.getAllByTestId('lean-row').map((r) => Number(r.getAttribute('data-id')));
      expect(ids).toContain(301);
      expect(ids).not.toContain(1);
    });
  });

  it('delegates clicks: toggle, open, row action, row click, sort and select all', () => {
    const onToggle = vi.fn();
    const onOpen = vi.fn();
    const onRowAction = vi.fn();
    const onRowClick = vi.fn();
    const onSort = vi.fn();
    const onSelect = vi.fn();
    const data = rows(3);
    render(
      <LeanTable
        columns={columns()}
        rows={data}
        selectable
        selectedIds={[2]}
        onToggle={onToggle}
        onOpen={onOpen}
        onRowClick={onRowClick}
        onSort={onSort}
        onSelect={onSelect}
        sort={{ field: 'code', order: 'ASC' }}
        rowActions={(r) => (r.status === '0' ? [{ name: 'ship', label: 'Ship' }] : [])}
        onRowAction={onRowAction}
      />,
    );
    const [first, second] = screen.getAllByTestId('lean-row');
    expect(second).toHaveClass('lt-selected');
    fireEvent.click(within(first).getByRole('checkbox'));
    expect(onToggle).toHaveBeenCalledWith(1);
    fireEvent.click(within(first).getByText('C1'));
    expect(onOpen).toHaveBeenCalledWith(data[0]);
    // the action exists only on rows whose state allows it
    expect(within(second).queryByTestId('lean-row-action-ship')).toBeNull();
    fireEvent.click(within(first).getByTestId('lean-row-action-ship'));
    expect(onRowAction).toHaveBeenCalledWith('ship', data[0]);
    fireEvent.click(within(second).getByText('10'));
    expect(onRowClick).toHaveBeenCalledWith(data[1]);
    expect(screen.getByTestId('lean-th-code')).toHaveAttribute('aria-sort', 'ascending');
    fireEvent.click(screen.getByTestId('lean-th-code'));
    expect(onSort).toHaveBeenCalledWith('code');
    fireEvent.click(screen.getByTestId('lean-th-qty'));
    expect(onSort).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByTestId('lean-select-all'));
    expect(onSelect).toHaveBeenCalledWith([1, 2, 3]);
  });

  it('re-renders only the row whose selection changed', () => {
    const counter = { calls: 0 };
    const cols = columns(counter);
    const data = rows(20);
    const { rerender } = render(<LeanTable columns={cols} rows={data} selectable selectedIds={[]} />);
    expect(counter.calls).toBe(20);
    counter.calls = 0;
    rerender(<LeanTable columns={cols} rows={data} selectable selectedIds={[5]} />);
    expect(counter.calls).toBe(1);
  });

  it('widens an identifier column to its longest text; a header grip resizes a column, double click fits it', () => {
    const onSort = vi.fn();
    const cols: LeanColumn[] = [
      { key: 'no', label: 'No', width: 50, fit: true, text: (r) => String(r.no) },
      { key: 'qty', label: 'Qty', width: 60, sortable: true, text: (r) => String(r.qty) },
    ];
    const data = [
      { id: 1, no: 'P2026111500012345', qty: 1 },
      { id: 2, no: 'P1', qty: 2 },
    ];
    const { container } = render(<LeanTable columns={cols} rows={data} onSort={onSort} />);
    const colWidth = (i: number) => parseInt((container.querySelectorAll('col')[i] as HTMLElement).style.width, 10);
    // 17 characters do not fit 50 px: the identifier column grows, the other keeps its width
    expect(colWidth(0)).toBeGreaterThan(100);
    expect(colWidth(1)).toBe(60);
    const grip = screen.getByTestId('lean-resize-qty');
    fireEvent.pointerDown(grip, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(grip, { clientX: 140, pointerId: 1 });
    fireEvent.pointerUp(grip, { clientX: 140, pointerId: 1 });
    expect(colWidth(1)).toBe(100);
    fireEvent.pointerMove(grip, { clientX: 300, pointerId: 1 });
    expect(colWidth(1)).toBe(100);
    fireEvent.click(grip);
    expect(onSort).not.toHaveBeenCalled();
    fireEvent.doubleClick(grip);
    expect(colWidth(1)).toBeGreaterThanOrEqual(40);
    expect(colWidth(1)).toBeLessThan(100);
  });

  it('names its check boxes in the language it is given', () => {
    render(<LeanTable columns={columns()} rows={rows(2)} selectable selectRowLabel="选择此行" selectAllLabel="全选" />);
    expect(screen.getByTestId('lean-select-all')).toHaveAttribute('aria-label', '全选');
    expect(within(screen.getAllByTestId('lean-row')[0]).getByRole('checkbox')).toHaveAttribute('aria-label', '选择此行');
  });

  it('says so when there is nothing to show', () => {
    render(<LeanTable columns={columns()} rows={[]} emptyText="No data" />);
    expect(screen.getByTestId('lean-empty')).toHaveTextContent('No data');
  });
});
