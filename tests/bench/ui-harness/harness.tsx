/**
 * The list-render harness (tests/bench/ui.ts drives it): one page, one table variant, the same
 * order records and the same columns for every variant, so only the table differs.
 *
 *   ?variant=lean       our LeanTable, with the props ListScreen's ListBody gives it (windowed)
 *   ?variant=leanAll    the same with maxHeight "none": the table grows to its full height, so the
 *                       window covers every row (LeanTable has no switch; this defeats the window)
 *   ?variant=datagrid   react-admin's stock <Datagrid> (bulk selection, rowClick="edit", TextField /
 *                       DateField / FunctionField for code labels, a column of row buttons)
 *   ?variant=datatable  react-admin's <DataTable> (recommended since 5.8), the same columns
 *
 * main.tsx loads /data.json (the records, fetched by the bench from the running server with the
 * orderConfirm screen's filter and sort, sup01's identity so the permission checks of the row
 * buttons run as in the portal, and sup01's session metadata, installed before this module loads as
 * the portal installs it), then start() mounts the variant with no rows, waits until the page is quiet,
 * then marks `ui:data-set` and hands the records to the list context in one state update:
 * "after data arrival" starts there. The page-side probe (ui-probe.ts, injected by the bench)
 * stamps the commit and the painted frame.
 */
import { useCallback, useEffect, useMemo, useState, type ReactElement } from 'react';
import { createRoot } from 'react-dom/client';
import {
  AdminContext,
  BulkDeleteButton,
  Button,
  Datagrid,
  DataTable,
  DateField,
  FunctionField,
  ListContextProvider,
  memoryStore,
  ResourceContextProvider,
  TextField,
  useListContext,
  useTranslate,
  type DataProvider,
  type Identifier,
  type ListControllerResult,
  type RaRecord,
  type SortPayload,
} from 'react-admin';
import { Box } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { initI18n } from '../../../admin/src/providers/i18nProvider.ts';
import { setStoredLocale, setToken, setUser, type PortalUser } from '../../../admin/src/providers/storage.ts';
import { buildTheme } from '../../../admin/src/layout/theme.ts';
import { DEFAULT_SETTINGS } from '../../../admin/src/layout/settings.tsx';
import { mayAction } from '../../../admin/src/screens/access.ts';
import { useLeanColumns } from '../../../admin/src/screens/columns.ts';
import { actionsForButtons, metadata, screenByName, screenEntity } from '../../../admin/src/screens/meta.ts';
import { LeanTable, type LeanRecord, type RowAction } from '../../../admin/src/screens/table/LeanTable.tsx';

type Variant = 'lean' | 'leanAll' | 'datagrid' | 'datatable';
export interface HarnessData {
  records: RaRecord[];
  user: PortalUser;
  token: string;
}
declare global {
  interface Window {
    __harness?: { variant: Variant; rows: number; ready: boolean; setAt?: number; error?: string };
  }
}

const params = new URLSearchParams(location.search);
const variant = (params.get('variant') ?? 'lean') as Variant;
const delayMs = Number(params.get('delay') ?? 300);
const screen = screenByName('orderConfirm')!;
const entity = screenEntity(screen);
const resource = entity.resource;
const recordActions = actionsForButtons(entity, screen.buttons).filter((a) => !a.collection);

// the data provider is never called: the rows come from the list context below
const noData = () => Promise.reject(new Error('harness: no data provider'));
const dataProvider = new Proxy({}, { get: () => noData }) as unknown as DataProvider;

/** A list context over rows held in state, as ListBase gives one when its query resolves. */
function useRowsList(rows: RaRecord[]): ListControllerResult {
  const [selectedIds, setSelectedIds] = useState<Identifier[]>([]);
  const [sort, setSortState] = useState<SortPayload>(screen.defaultSort ?? { field: 'id', order: 'ASC' });
  const onToggleItem = useCallback((id: Identifier) => setSelectedIds((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id])), []);
  const onUnselectItems = useCallback(() => setSelectedIds([]), []);
  const noop = useCallback(() => undefined, []);
  return useMemo(
    () =>
      ({
        data: rows,
        total: rows.length,
        isPending: false,
        isLoading: false,
        isFetching: false,
        isPaused: false,
        isPlaceholderData: false,
        error: null,
        refetch: noop,
        page: 1,
        perPage: metadata.app.pageSize,
        setPage: noop,
        setPerPage: noop,
        hasNextPage: false,
        hasPreviousPage: false,
        sort,
        setSort: setSortState,
        filter: {},
        filterValues: {},
        displayedFilters: {},
        setFilters: noop,
        showFilter: noop,
        hideFilter: noop,
        selectedIds,
        onSelect: setSelectedIds,
        onSelectAll: noop,
        onToggleItem,
        onUnselectItems,
        defaultTitle: '',
        resource,
        exporter: false,
      }) as unknown as ListControllerResult,
    [rows, sort, selectedIds, onToggleItem, onUnselectItems, noop],
  );
}

const textWidth = (s: string): number => [...s].reduce((w, ch) => w + (ch.charCodeAt(0) > 0x2e80 ? 12 : 7), 0);

/** LeanTable with the props ListScreen's ListBody computes (admin/src/screens/list/ListScreen.tsx). */
function LeanVariant({ all }: { all: boolean }): ReactElement {
  const translate = useTranslate();
  const theme = useTheme();
  const { data, selectedIds, onToggleItem, onSelect, sort, setSort, page, perPage } = useListContext();
  const [current, setCurrent] = useState<RaRecord | null>(null);
  const columns = useLeanColumns(entity, screen.columns, !!screenByName(screen.editScreen));
  const labels = useMemo(() => Object.fromEntries(recordActions.map((a) => [a.name, translate(a.labelKey)])), [translate]);
  const rowActions = useCallback(
    (r: LeanRecord): RowAction[] => recordActions.filter((a) => mayAction(screen, resource, a, r)).map((a) => ({ name: a.name, label: labels[a.name] })),
    [labels],
  );
  const onSort = useCallback((field: string) => setSort({ field, order: sort.field === field && sort.order === 'ASC' ? 'DESC' : 'ASC' }), [sort, setSort]);
  const showRowActions = recordActions.some((a) => mayAction(screen, resource, a));
  const actionsWidth = Math.max(80, 12 + recordActions.reduce((w, a) => w + textWidth(labels[a.name]) + 22, 0));
  return (
    <LeanTable
      columns={columns}
      rows={(data ?? []) as LeanRecord[]}
      selectable
      selectedIds={selectedIds}
      onToggle={onToggleItem}
      onSelect={onSelect}
      sort={sort}
      onSort={onSort}
      currentId={current?.id ?? null}
      onRowClick={(r) => setCurrent(r as RaRecord)}
      onOpen={() => undefined}
      rowActions={showRowActions ? rowActions : undefined}
      onRowAction={() => undefined}
      actionsLabel={translate('ui.actions')}
      actionsWidth={actionsWidth}
      emptyText=""
      rowNumberFrom={(page - 1) * perPage + 1}
      accent={theme.palette.primary.main}
      {...(all ? { maxHeight: 'none' } : {})}
    />
  );
}

/** The row buttons of the stock variants: react-admin <Button>s, the same permission and state checks. */
function RowButtons({ record }: { record: RaRecord }): ReactElement {
  return (
    <>
      {recordActions
        .filter((a) => mayAction(screen, resource, a, record))
        .map((a) => (
          <Button key={a.name} label={a.labelKey} variant="outlined" size="small" sx={{ mr: 0.5, py: 0, minWidth: 0 }} onClick={(e) => e.stopPropagation()} />
        ))}
    </>
  );
}

/** The columns for the stock variants: same fields, labels and cell texts as LeanTable's. */
function useStockColumns() {
  const translate = useTranslate();
  const lean = useLeanColumns(entity, screen.columns, false);
  return {
    actionsLabel: translate('ui.actions'),
    columns: screen.columns.map((c, i) => {
      const f = entity.fields[c.field];
      const kind =
        c.format === 'date' || f?.type === 'date' ? 'date' : f?.type === 'code' ? 'code' : f?.type === 'integer' || f?.type === 'decimal' ? 'number' : 'text';
      return { source: c.field, label: lean[i].label, sortable: !!lean[i].sortable, kind, text: lean[i].text };
    }),
  };
}

/**
 * One line per row, as LeanTable shows them: 19 columns do not fit the page, and the stock tables
 * would otherwise wrap every cell (rows several lines high, and slower to lay out).
 */
const NOWRAP = { '& td, & th': { whiteSpace: 'nowrap' } } as const;

function DatagridVariant(): ReactElement {
  const { columns, actionsLabel } = useStockColumns();
  return (
    <Datagrid rowClick="edit" bulkActionButtons={<BulkDeleteButton />} sx={NOWRAP}>
      {columns.map((c) =>
        c.kind === 'date' ? (
          // yyyy-MM-dd, as LeanTable shows dates
          <DateField key={c.source} source={c.source} label={c.label} sortable={c.sortable} locales="sv-SE" />
        ) : c.kind === 'code' ? (
          <FunctionField key={c.source} source={c.source} label={c.label} sortable={c.sortable} render={(r: RaRecord) => c.text(r as LeanRecord)} />
        ) : (
          <TextField key={c.source} source={c.source} label={c.label} sortable={c.sortable} textAlign={c.kind === 'number' ? 'right' : 'left'} />
        ),
      )}
      <FunctionField label={actionsLabel} render={(r: RaRecord) => <RowButtons record={r} />} />
    </Datagrid>
  );
}

function DataTableVariant(): ReactElement {
  const { columns, actionsLabel } = useStockColumns();
  return (
    <DataTable rowClick="edit" bulkActionButtons={<BulkDeleteButton />} sx={NOWRAP}>
      {columns.map((c) =>
        c.kind === 'date' ? (
          <DataTable.Col key={c.source} source={c.source} label={c.label} disableSort={!c.sortable}>
            <DateField source={c.source} locales="sv-SE" />
          </DataTable.Col>
        ) : c.kind === 'code' ? (
          <DataTable.Col key={c.source} source={c.source} label={c.label} disableSort={!c.sortable} render={(r: RaRecord) => c.text(r as LeanRecord)} />
        ) : (
          <DataTable.Col key={c.source} source={c.source} label={c.label} disableSort={!c.sortable} align={c.kind === 'number' ? 'right' : 'left'} />
        ),
      )}
      <DataTable.Col label={actionsLabel} render={(r: RaRecord) => <RowButtons record={r} />} />
    </DataTable>
  );
}

function Harness({ records }: { records: RaRecord[] }): ReactElement {
  const [rows, setRows] = useState<RaRecord[]>([]);
  const list = useRowsList(rows);
  // once mounted and painted, and the page has been quiet for `delay` ms: the data arrives
  useEffect(() => {
    const go = () => {
      performance.mark('ui:data-set');
      window.__harness!.setAt = performance.now();
      setRows(records);
    };
    let t: ReturnType<typeof setTimeout> | undefined;
    const f = requestAnimationFrame(() => requestAnimationFrame(() => (t = setTimeout(go, delayMs))));
    return () => {
      cancelAnimationFrame(f);
      clearTimeout(t);
    };
  }, [records]);
  return (
    <ResourceContextProvider value={resource}>
      <ListContextProvider value={list}>
        <Box sx={{ p: 1 }} data-testid={`variant-${variant}`}>
          {variant === 'lean' || variant === 'leanAll' ? (
            <LeanVariant all={variant === 'leanAll'} />
          ) : variant === 'datagrid' ? (
            <DatagridVariant />
          ) : (
            <DataTableVariant />
          )}
        </Box>
      </ListContextProvider>
    </ResourceContextProvider>
  );
}

export async function start(data: HarnessData): Promise<void> {
  window.__harness = { variant, rows: 0, ready: false };
  // the portal's own storage: the identity canAccessSync reads, the language
  setToken(data.token);
  setUser(data.user);
  setStoredLocale('zh-CN');
  const i18nProvider = await initI18n();
  window.__harness.rows = data.records.length;
  createRoot(document.getElementById('root')!).render(
    <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} store={memoryStore()} theme={buildTheme(DEFAULT_SETTINGS.themeColor)}>
      <Harness records={data.records} />
    </AdminContext>,
  );
  window.__harness.ready = true;
}
