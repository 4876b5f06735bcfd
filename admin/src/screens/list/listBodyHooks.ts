/**
 * The two pieces of a list screen's body that are logic rather than layout (ListScreen.tsx):
 * what Search, Reset and a saved view do to the list's parameters, and what each row offers.
 */
import { useCallback, useMemo } from 'react';
import { useListContext, useStore, useTranslate, type RaRecord } from 'react-admin';
import type { CompiledAction, CompiledEntity, CompiledScreen } from '../../../../codegen/runtime/model.ts';
import { inFromState, mayAction } from '../access.ts';
import { notActingSupplierSync } from '../../providers/permissions.ts';
import type { LeanRecord, RowAction } from '../table/LeanTable.tsx';
import { actionsWidth as actionsWidthFor } from '../table/actionsWidth.ts';
import { hasCondition, type FilterValues } from './FilterBar.tsx';
import type { ViewState } from './savedViewsApi.ts';

const EMPTY: FilterValues = {};

interface SearchArgs {
  screen: CompiledScreen;
  entity: CompiledEntity;
  applied: FilterValues;
  setApplied: (v: FilterValues) => void;
  enabled: boolean;
  tab: string | undefined;
  setTab: (key: string) => void;
  /** the side panel's row is dropped with the rows it belonged to */
  clearCurrent: () => void;
}

/** Search, Reset, the saved-view state and applying a view; the column choice a view keeps */
export function useSearchCommands({ screen, entity, applied, setApplied, enabled, tab, setTab, clearCurrent }: SearchArgs) {
  const { onUnselectItems, sort, setSort, setPage, page, refetch } = useListContext();
  // the column choice a saved view keeps (undefined: every column of the screen)
  const [viewColumns, setViewColumns] = useStore<string[] | undefined>(`screens.${screen.name}.columns`, undefined);
  const defaultSort = screen.defaultSort ?? entity.defaultSort;
  // Search with the same conditions asks again: users press it to refresh the rows
  const apply = (v: FilterValues) => {
    onUnselectItems();
    clearCurrent();
    const unchanged = JSON.stringify(v) === JSON.stringify(applied) && page === 1;
    setPage(1);
    setApplied(v);
    if (unchanged && (!screen.requireFilter || hasCondition(v))) void refetch();
  };
  // Reset clears the search, the list's stored parameters (sort, page) and asks again: an export
  // or a reload afterwards sees no trace of the old filter
  const reset = () => {
    onUnselectItems();
    clearCurrent();
    const unchanged = !Object.keys(applied).length && page === 1 && sort.field === defaultSort.field && sort.order === defaultSort.order;
    setApplied(EMPTY);
    setSort(defaultSort);
    setViewColumns(undefined);
    setPage(1);
    if (unchanged && enabled) void refetch();
  };
  const currentView = (): ViewState => ({ filter: applied, sort, ...(viewColumns ? { columns: viewColumns } : {}), ...(tab ? { tab } : {}) });
  const applyView = useCallback(
    (v: ViewState) => {
      onUnselectItems();
      clearCurrent();
      setApplied(v.filter);
      setSort(v.sort ?? defaultSort);
      setViewColumns(v.columns);
      if (v.tab) setTab(v.tab);
      setPage(1);
    },
    [onUnselectItems, clearCurrent, setApplied, setSort, defaultSort, setViewColumns, setTab, setPage],
  );
  return { apply, reset, currentView, applyView, viewColumns, setViewColumns };
}

/** What each row's operation column offers, and how wide that column must be */
export function useRowActions(
  screen: CompiledScreen,
  entity: CompiledEntity,
  recordActions: CompiledAction[],
  start: (a: CompiledAction, rows: RaRecord[]) => void,
) {
  const translate = useTranslate();
  const res = entity.resource;
  const labels = useMemo(() => Object.fromEntries(recordActions.map((a) => [a.name, translate(a.labelKey)])), [recordActions, translate]);
  const notYours = translate('ui.notYourLine');
  const rowActions = useCallback(
    (r: LeanRecord): RowAction[] => {
      const offered = recordActions.filter((a) => mayAction(screen, res, a, r)).map((a) => ({ name: a.name, label: labels[a.name] }));
      // a line of another supplier offers nothing and says so (the toolbar's tooltip names it too)
      if (!offered.length && recordActions.some((a) => notActingSupplierSync(a, r) && inFromState(a, r)))
        return [{ name: 'notYourLine', label: notYours, note: true }];
      return offered;
    },
    [recordActions, screen, res, labels, notYours],
  );
  const onRowAction = useCallback(
    (name: string, r: LeanRecord) => {
      const a = recordActions.find((x) => x.name === name);
      if (a) start(a, [r as RaRecord]);
    },
    [recordActions, start],
  );
  const showRowActions = recordActions.some((a) => mayAction(screen, res, a));
  // wide enough for every button of a row, or the note of a line of another supplier
  const actionsWidth = useMemo(
    () =>
      actionsWidthFor(
        recordActions.map((a) => labels[a.name]),
        recordActions.some((a) => a.supplierFields) ? notYours : '',
      ),
    [recordActions, labels, notYours],
  );
  return { rowActions: showRowActions ? rowActions : undefined, onRowAction, actionsWidth };
}
