/**
 * The search form of a list screen, generated from screen.filters. Each filter becomes server
 * filter keys (server/README.md): eq -> `field`, in -> `field` (array), contains -> `field_like`,
 * range -> `field_gte` + `field_lte`. Typing changes a draft; Search applies it (the legacy portal
 * searches on a button, and requireFilter screens must refuse an empty search before any call).
 * The inputs of each condition are built in filterInputs.tsx.
 * Soft-deleting entities get the 'including deleted' option (filter `includeDeleted`).
 */
import { useEffect, useState, type KeyboardEvent, type ReactElement } from 'react';
import { Box, Button, Checkbox, FormControlLabel } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import type { CompiledEntity, CompiledScreen } from '../../../../codegen/runtime/model.ts';
import { filterInputs, type FilterInputContext } from './filterInputs.tsx';

export type FilterValues = Record<string, unknown>;

export const INCLUDE_DELETED = 'includeDeleted';

const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/** Trims text (a pasted "  P2026 " searches for "P2026") and drops empty values; what is left is sent as the list's filter. */
export function cleanFilter(values: FilterValues): FilterValues {
  return Object.fromEntries(
    Object.entries(values)
      .map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v] as const)
      .filter(([, v]) => isSet(v) && v !== false),
  );
}

/** Does the filter hold a real search condition (the 'including deleted' switch is none)? */
export const hasCondition = (values: FilterValues): boolean => Object.entries(values).some(([k, v]) => k !== INCLUDE_DELETED && isSet(v));

/**
 * The range filters whose start is after their end ("Start date must not be after end date",
 * spec point 5): the search refuses them with the message the server would answer (400
 * error.dateRange / error.numberRange, server/engine/query.ts), and their inputs show red.
 */
export function invertedRanges(screen: CompiledScreen, entity: CompiledEntity, values: FilterValues): { field: string; code: string }[] {
  return screen.filters
    .filter((f) => f.op === 'range' && isSet(values[`${f.field}_gte`]) && isSet(values[`${f.field}_lte`]))
    .flatMap((f) => {
      const dated = ['date', 'datetime'].includes(entity.fields[f.field]?.type ?? '');
      const from = values[`${f.field}_gte`];
      const to = values[`${f.field}_lte`];
      const wrong = dated ? String(from).slice(0, 10) > String(to).slice(0, 10) : Number(from) > Number(to);
      return wrong ? [{ field: f.field, code: dated ? 'error.dateRange' : 'error.numberRange' }] : [];
    });
}

export interface FilterBarProps {
  screen: CompiledScreen;
  entity: CompiledEntity;
  applied: FilterValues;
  onApply: (values: FilterValues) => void;
  /** Reset: clears the draft, the applied search and the list's stored parameters, and queries again */
  onReset: () => void;
  /** the search button is a permission button */
  canSearch: boolean;
  /** offer 'including deleted' */
  canIncludeDeleted: boolean;
}

export function FilterBar({ screen, entity, applied, onApply, onReset, canSearch, canIncludeDeleted }: FilterBarProps): ReactElement | null {
  const translate = useTranslate();
  const notify = useNotify();
  const [draft, setDraft] = useState<FilterValues>(applied);
  useEffect(() => setDraft(applied), [applied]);
  // filters not marked alwaysOn sit behind "more conditions", open when one of them is in use
  const extra = screen.filters.filter((f) => !f.alwaysOn);
  const extraInUse = extra.some((f) => [f.field, `${f.field}_like`, `${f.field}_gte`, `${f.field}_lte`].some((k) => isSet(applied[k])));
  const [more, setMore] = useState(extraInUse);
  const set = (key: string, v: unknown) => setDraft((d) => ({ ...d, [key]: v }));

  const inverted = invertedRanges(screen, entity, draft);
  const search = () => {
    const values = cleanFilter(draft);
    if (inverted.length) {
      notify(inverted[0].code, { type: 'warning' });
      return;
    }
    if (screen.requireFilter && !hasCondition(values)) {
      notify('error.searchConditionRequired', { type: 'warning' });
      return;
    }
    onApply(values);
  };
  // a half-typed date (2026-1) is no value, so clearing the draft changes nothing the picker sees: Reset remounts the date fields
  const [resets, setResets] = useState(0);
  const reset = () => {
    setDraft({});
    setResets((n) => n + 1);
    onReset();
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && canSearch) search();
  };

  if (!screen.filters.length && !canIncludeDeleted) return null;

  const ctx: FilterInputContext = { entity, draft, set, onKey, inverted, translate, resets };

  return (
    <Box
      component="form"
      onSubmit={(e) => e.preventDefault()}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }}
      data-testid="filter-bar"
    >
      {screen.filters.filter((f) => f.alwaysOn || more).flatMap((f) => filterInputs(ctx, f))}
      {canIncludeDeleted && (
        <FormControlLabel
          control={
            <Checkbox
              size="small"
              checked={draft[INCLUDE_DELETED] === true}
              onChange={(e) => set(INCLUDE_DELETED, e.target.checked)}
              slotProps={{ input: { 'data-testid': 'filter-includeDeleted' } as object }}
            />
          }
          label={translate('ui.includeDeleted')}
        />
      )}
      {canSearch && (
        <Button variant="contained" size="small" onClick={search} data-testid="btn-search">
          {translate('button.search')}
        </Button>
      )}
      <Button variant="outlined" size="small" onClick={reset} data-testid="btn-reset">
        {translate('ui.reset')}
      </Button>
      {extra.length > 0 && (
        <Button size="small" onClick={() => setMore((m) => !m)} data-testid="btn-more-filters">
          {translate(more ? 'ui.fewerFilters' : 'ui.moreFilters')}
        </Button>
      )}
    </Box>
  );
}
