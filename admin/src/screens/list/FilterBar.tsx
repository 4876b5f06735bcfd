/**
 * The search form of a list screen, generated from screen.filters. Each filter becomes server
 * filter keys (server/README.md): eq -> `field`, in -> `field` (array), contains -> `field_like`,
 * range -> `field_gte` + `field_lte`. Typing changes a draft; Search applies it (the legacy portal
 * searches on a button, and requireFilter screens must refuse an empty search before any call).
 * Soft-deleting entities get the 'including deleted' option (filter `includeDeleted`).
 */
import { useEffect, useState, type KeyboardEvent, type ReactElement } from 'react';
import { Box, Button, Checkbox, FormControlLabel, MenuItem, TextField } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import type { CompiledEntity, CompiledFilter, CompiledScreen } from '../../../../codegen/runtime/model.ts';
import { codeLabelKey, metadata } from '../meta.ts';
import { DatePickerField } from '../form/DateInput.tsx';

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

const inputSx = { width: 170 } as const;

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

  const one = (f: CompiledFilter): ReactElement[] => {
    const field = entity.fields[f.field];
    const label = translate(f.labelKey, { _: f.field });
    const text = (key: string, lbl: string, type = 'text', error = false) => (
      <TextField
        key={key}
        error={error}
        size="small"
        variant="outlined"
        label={lbl}
        type={type}
        value={(draft[key] as string | number | undefined) ?? ''}
        onChange={(e) => set(key, e.target.value)}
        onKeyDown={onKey}
        sx={inputSx}
        slotProps={{ htmlInput: { 'data-testid': `filter-${key}` } }}
      />
    );
    if (f.op === 'range') {
      const wrong = inverted.find((x) => x.field === f.field);
      if (field?.type === 'date' || field?.type === 'datetime') {
        // a range of days, also on a date-time column (the server takes the end day whole)
        const date = (key: string, lbl: string) => (
          <DatePickerField
            key={`${key}-${resets}`}
            value={draft[key]}
            onChange={(v) => set(key, v)}
            label={lbl}
            testId={`filter-${key}-field`}
            inputTestId={`filter-${key}`}
            sx={inputSx}
            onKeyDown={onKey}
            error={!!wrong}
          />
        );
        return [date(`${f.field}_gte`, `${label} ${translate('ui.from')}`), date(`${f.field}_lte`, `${label} ${translate('ui.to')}`)];
      }
      return [
        text(`${f.field}_gte`, `${label} ${translate('ui.from')}`, 'number', !!wrong),
        text(`${f.field}_lte`, `${label} ${translate('ui.to')}`, 'number', !!wrong),
      ];
    }
    if (field?.type === 'code' && field.codeTable) {
      const values = metadata.codeTables[field.codeTable]?.values ?? [];
      const multiple = f.op === 'in';
      const current = draft[f.field];
      return [
        <TextField
          key={f.field}
          select
          size="small"
          variant="outlined"
          label={label}
          value={multiple ? (Array.isArray(current) ? current : []) : ((current as string | undefined) ?? '')}
          onChange={(e) => set(f.field, e.target.value)}
          sx={inputSx}
          slotProps={{
            select: {
              multiple,
              renderValue: multiple ? (sel) => (sel as string[]).map((c) => translate(codeLabelKey(field.codeTable!, c), { _: c })).join(', ') : undefined,
            },
            htmlInput: { 'data-testid': `filter-${f.field}` },
          }}
        >
          {!multiple && <MenuItem value="">&nbsp;</MenuItem>}
          {values.map((v) => (
            <MenuItem key={v.code} value={v.code}>
              {translate(codeLabelKey(field.codeTable!, v.code), { _: v.code })}
            </MenuItem>
          ))}
        </TextField>,
      ];
    }
    if (field?.type === 'boolean') {
      return [
        <TextField
          key={f.field}
          select
          size="small"
          variant="outlined"
          label={label}
          value={draft[f.field] === undefined ? '' : String(draft[f.field])}
          onChange={(e) => set(f.field, e.target.value === '' ? undefined : e.target.value === 'true')}
          sx={inputSx}
        >
          <MenuItem value="">&nbsp;</MenuItem>
          <MenuItem value="true">{translate('ra.boolean.true')}</MenuItem>
          <MenuItem value="false">{translate('ra.boolean.false')}</MenuItem>
        </TextField>,
      ];
    }
    const numeric = field?.type === 'integer' || field?.type === 'decimal';
    const key = f.op === 'contains' ? `${f.field}_like` : f.field;
    return [text(key, label, numeric ? 'number' : 'text')];
  };

  return (
    <Box
      component="form"
      onSubmit={(e) => e.preventDefault()}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 1 }}
      data-testid="filter-bar"
    >
      {screen.filters.filter((f) => f.alwaysOn || more).flatMap(one)}
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
