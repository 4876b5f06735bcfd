/**
 * A list screen generated from its metadata: tabs (each with its own filter), the search form,
 * the permission buttons, the lean 500-row table with row actions, pagination offering the
 * app's page size, and the children of the clicked row (screen.related).
 *
 * The list query always carries screen.fixedFilter and the selected tab's filter (ListBase's
 * permanent `filter`), plus the applied search. The search is kept in react-admin's Store per
 * screen (several screens share one resource, e.g. the three order lists), so it survives
 * navigation between tabs of the shell and is cleared at logout with the rest of the Store.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { Box, IconButton, Paper, Tab, Tabs, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { ListBase, Pagination, useListContext, useNavigate, useStore, useTranslate, type RaRecord } from 'react-admin';
import { useTheme } from '@mui/material/styles';
import type { CompiledEntity, CompiledScreen } from '../../../../codegen/runtime/model.ts';
import { mayButton, mayResource, parentTakesFiles } from '../access.ts';
import { useActionRunner } from '../actions/useActionRunner.tsx';
import { useLeanColumns } from '../columns.ts';
import { useFileOps } from '../files/useFileOps.tsx';
import { RecordFormDialog } from '../form/RecordFormDialog.tsx';
import { actionsForButtons, entityOfResource, fileRelation, metadata, screenByName, screenEntity } from '../meta.ts';
import { RelatedList } from '../related/RelatedList.tsx';
import { RecordHistory } from '../history/RecordHistory.tsx';
import { ScreenHeader } from '../ScreenHeader.tsx';
import { LeanTable, type LeanRecord } from '../table/LeanTable.tsx';
import { useMobileMode } from '../../layout/mobile.ts';
import { FilterBar, hasCondition, type FilterValues } from './FilterBar.tsx';
import { ListToolbar } from './ListToolbar.tsx';
import { SavedViewsBar } from './SavedViewsBar.tsx';
import { useRowActions, useSearchCommands } from './listBodyHooks.ts';
import { HEADER_HEIGHT } from '../../layout/theme.ts';
import { TAGS_HEIGHT } from '../../layout/TagsView.tsx';

/** rows-per-page choices; always include the app's page size (500) */
export const pageSizes = (): number[] => [...new Set([50, 100, 200, metadata.app.pageSize])].sort((a, b) => a - b);

const EMPTY: FilterValues = {};

/**
 * The side panel's width beside a wide window (on a phone it covers the screen). While it is open
 * the list gives up the same room on its right, so the panel covers none of the list's controls:
 * the panel is not modal (clicking another row shows that row's children), so Search, Reset and
 * the toolbar must stay usable beside it.
 */
const RELATED_PANEL_WIDTH = 'min(45vw, 820px)';

export function ListScreen({ screen }: { screen: CompiledScreen }): ReactElement {
  const entity = screenEntity(screen);
  const [tabKey, setTabKey] = useStore<string | undefined>(`screens.${screen.name}.tab`, screen.tabs[0]?.key);
  const [applied, setApplied] = useStore<FilterValues>(`screens.${screen.name}.filter`, EMPTY);
  const tab = screen.tabs.find((t) => t.key === tabKey) ?? screen.tabs[0];
  const permanent = useMemo(() => ({ ...screen.fixedFilter, ...(tab?.filter ?? {}) }), [screen, tab]);
  const filter = useMemo(() => ({ ...applied, ...permanent }), [applied, permanent]);
  const enabled = !screen.requireFilter || hasCondition(applied);

  return (
    <Box sx={{ p: 1 }} data-testid={`screen-${screen.name}`}>
      <ListBase
        resource={entity.resource}
        storeKey={`screens.${screen.name}.list`}
        disableSyncWithLocation
        filter={filter}
        perPage={metadata.app.pageSize}
        sort={screen.defaultSort ?? entity.defaultSort}
        // a lean page: the rows carry the fields this screen needs (server/routes/lean-list.ts)
        queryOptions={{ enabled, meta: { screen: screen.name } }}
      >
        <ScreenHeader screen={screen} />
        {screen.tabs.length > 0 && (
          <Tabs value={tab?.key} onChange={(_, v: string) => setTabKey(v)} sx={{ mb: 1, minHeight: 36 }} data-testid="screen-tabs">
            {screen.tabs.map((t) => (
              <TabLabel key={t.key} value={t.key} labelKey={t.titleKey} />
            ))}
          </Tabs>
        )}
        <ListBody
          screen={screen}
          entity={entity}
          applied={applied}
          setApplied={setApplied}
          permanent={permanent}
          enabled={enabled}
          tab={tab?.key}
          setTab={setTabKey}
        />
      </ListBase>
    </Box>
  );
}

/**
 * The children of the clicked row (screen.related, e.g. a DFS line's shipment history) in a panel
 * at the right edge of the window: visible at once, whatever row of a 500-row page was clicked,
 * and closed again with its button or Escape (or by clicking another row, which shows that row's).
 */
function RelatedPanel({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }): ReactElement {
  const translate = useTranslate();
  // Escape closes it, as it closes a drawer; not while a dialog above it has the key (MUI stops its Escape there)
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented && !document.querySelector('.MuiDialog-root')) onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <Paper
      elevation={8}
      square
      data-testid="related-panel"
      sx={{
        position: 'fixed',
        right: 0,
        top: HEADER_HEIGHT + TAGS_HEIGHT,
        bottom: 0,
        width: { xs: '100%', md: RELATED_PANEL_WIDTH },
        zIndex: (t) => t.zIndex.drawer,
        p: 1.5,
        pt: 1,
        overflow: 'auto',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }} data-testid="related-panel-title">
          {translate('ui.details')}: {title}
        </Typography>
        <IconButton size="small" aria-label={translate('ra.action.close')} onClick={onClose} data-testid="related-panel-close">
          <CloseIcon fontSize="small" />
        </IconButton>
      </Box>
      {children}
    </Paper>
  );
}

function TabLabel({ labelKey, ...rest }: { value: string; labelKey: string }): ReactElement {
  const translate = useTranslate();
  return <Tab {...rest} label={translate(labelKey)} sx={{ minHeight: 36, py: 0 }} data-testid={`tab-${rest.value}`} />;
}

/**
 * A selection belongs to the rows on screen: it is dropped when the list opens (the Store keeps it
 * across navigation and reloads), when the search, tab, sort or page changes (`paramsKey`), and
 * rows that a refetch no longer shows leave it; toolbar buttons never act on invisible rows.
 */
function useSelectionOfVisibleRows(ctx: ReturnType<typeof useListContext>, paramsKey: string): void {
  const { data, selectedIds, onSelect, onUnselectItems } = ctx;
  const latest = useRef({ selectedIds, onSelect, onUnselectItems });
  // the latest-value ref: the effects below read the newest selection and callbacks without re-running on them
  // eslint-disable-next-line react-hooks/refs
  latest.current = { selectedIds, onSelect, onUnselectItems };
  useEffect(() => {
    latest.current.onUnselectItems();
  }, [paramsKey]);
  useEffect(() => {
    if (!data) return;
    const visible = new Set(data.map((r) => String(r.id)));
    const { selectedIds: ids, onSelect: select } = latest.current;
    if (ids.some((id) => !visible.has(String(id)))) select(ids.filter((id) => visible.has(String(id))));
  }, [data]);
}

interface BodyProps {
  screen: CompiledScreen;
  entity: CompiledEntity;
  applied: FilterValues;
  setApplied: (v: FilterValues) => void;
  permanent: FilterValues;
  enabled: boolean;
  tab: string | undefined;
  setTab: (key: string) => void;
}

function ListBody({ screen, entity, applied, setApplied, permanent, enabled, tab, setTab }: BodyProps): ReactElement {
  const translate = useTranslate();
  // a phone: identifiers first, the operation column not pinned
  const compact = useMobileMode();
  const navigate = useNavigate();
  const theme = useTheme();
  const ctx = useListContext();
  const { data, error, isPending, selectedIds, onToggleItem, onSelect, onUnselectItems, sort, setSort, page, perPage } = ctx;
  const res = entity.resource;
  const editScreen = screenByName(screen.editScreen);
  const hasForm = screen.form.length > 0;
  const actions = useMemo(() => actionsForButtons(entity, screen.buttons), [entity, screen.buttons]);
  const recordActions = useMemo(() => actions.filter((a) => !a.collection), [actions]);
  const [current, setCurrent] = useState<RaRecord | null>(null);
  const [formRecord, setFormRecord] = useState<RaRecord | null | undefined>(undefined);
  const runner = useActionRunner(
    entity,
    useCallback(() => onUnselectItems(), [onUnselectItems]),
  );
  const relation = fileRelation(screen);
  const files = useFileOps(relation?.resource ?? res);
  const rows = (enabled && !error ? (data ?? []) : []) as LeanRecord[];
  const clearCurrent = useCallback(() => setCurrent(null), []);
  const search = useSearchCommands({ screen, entity, applied, setApplied, enabled, tab, setTab, clearCurrent });
  const { viewColumns, setViewColumns } = search;
  const shownColumns = useMemo(
    () => (viewColumns ? screen.columns.filter((c) => viewColumns.includes(c.field)) : screen.columns),
    [screen.columns, viewColumns],
  );
  const columns = useLeanColumns(entity, shownColumns, !!editScreen, rows);
  const selectedSet = useMemo(() => new Set(selectedIds.map(String)), [selectedIds]);
  const selected = useMemo(() => (data ?? []).filter((r) => selectedSet.has(String(r.id))), [data, selectedSet]);
  useSelectionOfVisibleRows(ctx, JSON.stringify([applied, permanent, sort, page, perPage]));
  const onSort = useCallback((field: string) => setSort({ field, order: sort.field === field && sort.order === 'ASC' ? 'DESC' : 'ASC' }), [sort, setSort]);
  const row = useRowActions(screen, entity, recordActions, runner.start);
  const open = useCallback(
    (r: LeanRecord) => {
      if (editScreen) navigate(`${editScreen.path}?id=${encodeURIComponent(String(r.id))}`);
    },
    [editScreen, navigate],
  );

  const canIncludeDeleted = !!entity.softDelete && mayResource(res, 'list');
  const onAdd = editScreen && editScreen.kind === 'edit' ? () => navigate(editScreen.path) : hasForm ? () => setFormRecord(null) : undefined;
  const onEdit = editScreen && editScreen.kind === 'edit' ? (r: RaRecord) => open(r as LeanRecord) : hasForm ? (r: RaRecord) => setFormRecord(r) : undefined;
  const showUpload = relation && mayButton(screen, 'upload', relation.resource, 'upload');
  const panelOpen = screen.related.length > 0 && enabled && !!current;

  return (
    <Box sx={{ mr: panelOpen ? { md: RELATED_PANEL_WIDTH } : 0 }} data-testid="list-body">
      <FilterBar
        screen={screen}
        entity={entity}
        applied={applied}
        onApply={search.apply}
        onReset={search.reset}
        canSearch={mayButton(screen, 'search', res, 'search')}
        canIncludeDeleted={canIncludeDeleted}
      />
      <SavedViewsBar screen={screen} current={search.currentView} apply={search.applyView} columns={viewColumns} setColumns={setViewColumns} />
      <ListToolbar
        screen={screen}
        entity={entity}
        actions={actions}
        selected={selected}
        onAdd={onAdd}
        onEdit={onEdit}
        onAction={runner.start}
        uploadInput={showUpload ? (r) => files.input({ [relation!.target]: r.id }) : undefined}
        uploadAllowed={(r) => parentTakesFiles(entityOfResource(relation?.resource), r)}
        exportParams={() => ({ filter: { ...applied, ...permanent }, sort })}
        nothingToExport={enabled && !isPending && page === 1 && !data?.length}
        onDeleted={() => onUnselectItems()}
      />
      <LeanTable
        compact={compact}
        columns={columns}
        rows={rows}
        selectable
        selectedIds={selectedIds}
        onToggle={onToggleItem}
        onSelect={onSelect}
        sort={sort}
        onSort={onSort}
        currentId={current?.id ?? null}
        onRowClick={(r) => setCurrent(r as RaRecord)}
        onOpen={open}
        rowActions={row.rowActions}
        onRowAction={row.onRowAction}
        actionsLabel={translate('ui.actions')}
        actionsWidth={row.actionsWidth}
        // a requireFilter screen shows its columns and asks for a condition before any query
        emptyText={!enabled ? translate('ui.searchFirst') : error ? translate('ui.listNotLoaded') : isPending ? '' : translate('ui.noData')}
        rowNumberFrom={(page - 1) * perPage + 1}
        accent={theme.palette.primary.main}
        selectRowLabel={translate('ra.action.select_row')}
        selectAllLabel={translate('ra.action.select_all')}
      />
      {enabled && !error && <Pagination rowsPerPageOptions={pageSizes()} />}
      {screen.related.length > 0 && enabled && <RowDetails screen={screen} entity={entity} current={current} onClose={clearCurrent} />}
      {formRecord !== undefined && (
        <RecordFormDialog
          entity={entity}
          fieldNames={screen.form}
          record={formRecord ?? undefined}
          canSave={formRecord ? mayButton(screen, 'edit', res, 'edit', formRecord) : mayButton(screen, 'add', res, 'create')}
          onClose={() => setFormRecord(undefined)}
        />
      )}
      {runner.element}
      {files.element}
    </Box>
  );
}

/** The clicked row's children and history in the side panel, or a hint to click a row */
function RowDetails({
  screen,
  entity,
  current,
  onClose,
}: {
  screen: CompiledScreen;
  entity: CompiledEntity;
  current: RaRecord | null;
  onClose: () => void;
}): ReactElement {
  const translate = useTranslate();
  if (!current)
    return (
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
        {translate('ui.selectRowForDetails')}
      </Typography>
    );
  return (
    <RelatedPanel title={String(current[entity.titleField] ?? current.id)} onClose={onClose}>
      {screen.related.map((rel) => (
        <RelatedList key={rel.resource} screen={screen} relation={rel} parentId={current.id} parent={current} />
      ))}
      <RecordHistory key={String(current.id)} resource={entity.resource} id={current.id} />
    </RelatedPanel>
  );
}
