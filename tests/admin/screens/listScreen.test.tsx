/**
 * A generated list screen in jsdom with a scripted dataProvider: translated title and columns,
 * the fixed filter and the search form's server keys, 500 rows a page, state-dependent row
 * actions, the generated action dialog validating before it calls runAction, and a requireFilter
 * screen that queries nothing until a condition is given.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { GetListParams } from 'react-admin';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { metadata } from '../../../admin/src/generated/index.ts';
import { ListScreen } from '../../../admin/src/screens/index.tsx';
import { screenTestLifecycle } from './screenTest.ts';
import { msg, renderScreen, screenWhere } from './renderScreen.tsx';

const screenOf = (name: string) => screenWhere((s) => s.name === name);
const code = (table: string, key: string) => metadata.codeTables[table].values.find((v) => v.key === key)!.code;
const RELEASED = code('purchaseOrderStatus', 'released');

const i18n = screenTestLifecycle(() => ListScreen.preload());

function orders(n: number, status = RELEASED) {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    version: 1,
    orderNo: `P${1000 + i}`,
    itemNo: 1,
    partsCode: `PN-${i}`,
    orderQty: 10,
    status,
    releaseDate: '2026-11-01',
    orderType: '0',
  }));
}

function mount(s: CompiledScreen, rows: Record<string, unknown>[]) {
  const getList = vi.fn(async (_res: string, p: GetListParams) => ({ data: rows.slice(0, p.pagination!.perPage), total: rows.length }));
  const runAction = vi.fn(async () => ({ data: rows[0] }));
  renderScreen(s, i18n(), getList, { runAction });
  return { getList, runAction };
}

describe('generated list screen', () => {
  it('shows the translated title and columns, asks with the fixed filter and 500 rows a page', async () => {
    const s = screenOf('orderConfirm');
    const { getList } = mount(s, orders(3));
    expect(await screen.findByTestId('screen-title')).toHaveTextContent(msg[s.titleKey]);
    for (const c of s.columns) expect(screen.getByTestId(`lean-th-${c.field}`)).toHaveTextContent(msg[c.labelKey]);
    await waitFor(() => expect(screen.getAllByTestId('lean-row')).toHaveLength(3));
    const [, params] = getList.mock.calls.at(-1)!;
    expect(params.pagination).toEqual({ page: 1, perPage: metadata.app.pageSize });
    expect(params.filter).toEqual(s.fixedFilter);
    // code values as labels, dates as yyyy-MM-dd
    const row = screen.getAllByTestId('lean-row')[0];
    expect(row).toHaveTextContent(msg[`code.purchaseOrderStatus.${RELEASED}`]);
    expect(row).toHaveTextContent('2026-11-01');
  });

  it('maps the search form to the server filter keys', async () => {
    const s = screenOf('orderConfirm');
    const { getList } = mount(s, orders(2));
    await waitFor(() => expect(screen.getAllByTestId('lean-row')).toHaveLength(2));
    fireEvent.change(screen.getByTestId('filter-orderNo_like'), { target: { value: 'P10' } });
    fireEvent.click(screen.getByTestId('btn-more-filters'));
    fireEvent.change(screen.getByTestId('filter-releaseDate_gte'), { target: { value: '2026-11-01' } });
    fireEvent.click(screen.getByTestId('btn-search'));
    await waitFor(() => expect(getList.mock.calls.at(-1)![1].filter).toEqual({ ...s.fixedFilter, orderNo_like: 'P10', releaseDate_gte: '2026-11-01' }));
  });

  it('runs a row action through its generated dialog, validated before the call', async () => {
    const s = screenOf('orderConfirm');
    const { runAction } = mount(s, orders(2));
    const row = (await screen.findAllByTestId('lean-row'))[0];
    fireEvent.click(within(row).getByTestId('lean-row-action-confirm'));
    const dialog = await screen.findByTestId('action-dialog-confirm');
    // this-shipment qty (the dialog also offers the optional print qty)
    const input = within(within(dialog).getByTestId('input-thisShipmentQty')).getByRole('spinbutton');
    fireEvent.change(input, { target: { value: '0' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('action-submit'));
    });
    expect(await within(dialog).findByText(msg['rule.positiveInteger'])).toBeInTheDocument();
    expect(runAction).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '4' } });
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId('action-submit'));
    });
    await waitFor(() => expect(runAction).toHaveBeenCalledWith('orders', { id: 1, action: 'confirm', data: { thisShipmentQty: 4, version: 1 } }));
  });

  it("offers no action a row's state forbids", async () => {
    mount(screenOf('orderConfirm'), orders(2, code('purchaseOrderStatus', 'closed')));
    const rows = await screen.findAllByTestId('lean-row');
    expect(within(rows[0]).queryByTestId('lean-row-action-confirm')).toBeNull();
  });

  it('a screen that needs a condition queries nothing until one is given', async () => {
    const s = screenOf('orderSearch');
    const { getList } = mount(s, orders(2));
    expect(await screen.findByTestId('lean-empty')).toHaveTextContent(msg['ui.searchFirst']);
    fireEvent.click(screen.getByTestId('btn-search'));
    expect(getList).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('filter-partsCode_like'), { target: { value: 'PN' } });
    fireEvent.click(screen.getByTestId('btn-search'));
    await waitFor(() => expect(getList).toHaveBeenCalled());
    expect(getList.mock.calls.at(-1)![1].filter).toEqual({ partsCode_like: 'PN' });
  });
});
