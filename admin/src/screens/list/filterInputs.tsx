/**
 * The inputs of one search condition of a list screen (FilterBar.tsx): a range (two dates or two
 * numbers), a code table's select (one value for eq, several for in), a yes/no select, or a text
 * box (`field_like` for contains). Plain functions returning elements, keyed by their filter key.
 */
import type { KeyboardEvent, ReactElement } from 'react';
import { MenuItem, TextField } from '@mui/material';
import type { CompiledEntity, CompiledField, CompiledFilter } from '../../../../codegen/runtime/model.ts';
import { codeLabelKey, metadata } from '../meta.ts';
import { DatePickerField } from '../form/DateInput.tsx';
import type { FilterValues } from './FilterBar.tsx';

/** What every input of the bar needs: the draft, its setter, the Enter key and the language. */
export interface FilterInputContext {
  entity: CompiledEntity;
  draft: FilterValues;
  set: (key: string, v: unknown) => void;
  onKey: (e: KeyboardEvent) => void;
  /** the range filters whose start is after their end (their inputs show red) */
  inverted: readonly { field: string }[];
  translate: (key: string, options?: Record<string, unknown>) => string;
  /** how often Reset was pressed: a half-typed date (2026-1) is no value, so Reset remounts the date fields */
  resets: number;
}

const inputSx = { width: 170 } as const;

/**
 * A range's two inputs are told apart by the end of their labels ("... From" / "... To"): an
 * empty input shows its label at full size inside the box, where MUI cuts it with an ellipsis at
 * the box's width, so both read "Release (audit) d...". The box grows to its label instead:
 * rem per character (labels are 1rem; a CJK character is about 1rem wide, a Latin one at most
 * about 0.6rem), plus the label's 14 px inset and the room MUI keeps on its right.
 */
export function rangeInputSx(label: string): { width: string } {
  const rem = [...label].reduce((sum, ch) => sum + (/[\u2e80-\uffef]/.test(ch) ? 1.05 : 0.6), 0);
  return { width: `max(170px, calc(${rem.toFixed(2)}rem + 40px))` };
}

/** The props every select of the bar shares. */
const selectBase = (label: string) => ({ select: true, size: 'small', variant: 'outlined', label, sx: inputSx }) as const;

/** The inputs of the condition `f`. */
export function filterInputs(ctx: FilterInputContext, f: CompiledFilter): ReactElement[] {
  const field = ctx.entity.fields[f.field];
  const label = ctx.translate(f.labelKey, { _: f.field });
  if (f.op === 'range') return rangeInputs(ctx, f, field, label);
  if (field?.type === 'code' && field.codeTable) return [codeSelect(ctx, f, field.codeTable, label)];
  if (field?.type === 'boolean') return [booleanSelect(ctx, f, label)];
  const numeric = field?.type === 'integer' || field?.type === 'decimal';
  const key = f.op === 'contains' ? `${f.field}_like` : f.field;
  return [textInput(ctx, key, label, numeric ? 'number' : 'text')];
}

function textInput({ draft, set, onKey }: FilterInputContext, key: string, label: string, type = 'text', error = false, sx: object = inputSx): ReactElement {
  return (
    <TextField
      key={key}
      error={error}
      size="small"
      variant="outlined"
      label={label}
      type={type}
      value={(draft[key] as string | number | undefined) ?? ''}
      onChange={(e) => set(key, e.target.value)}
      onKeyDown={onKey}
      sx={sx}
      slotProps={{ htmlInput: { 'data-testid': `filter-${key}` } }}
    />
  );
}

function rangeInputs(ctx: FilterInputContext, f: CompiledFilter, field: CompiledField | undefined, label: string): ReactElement[] {
  const wrong = ctx.inverted.some((x) => x.field === f.field);
  const from = `${label} ${ctx.translate('ui.from')}`;
  const to = `${label} ${ctx.translate('ui.to')}`;
  if (field?.type === 'date' || field?.type === 'datetime') {
    // a range of days, also on a date-time column (the server takes the end day whole)
    const date = (key: string, lbl: string) => (
      <DatePickerField
        key={`${key}-${ctx.resets}`}
        value={ctx.draft[key]}
        onChange={(v) => ctx.set(key, v)}
        label={lbl}
        testId={`filter-${key}-field`}
        inputTestId={`filter-${key}`}
        sx={rangeInputSx(lbl)}
        onKeyDown={ctx.onKey}
        error={wrong}
      />
    );
    return [date(`${f.field}_gte`, from), date(`${f.field}_lte`, to)];
  }
  return [textInput(ctx, `${f.field}_gte`, from, 'number', wrong, rangeInputSx(from)), textInput(ctx, `${f.field}_lte`, to, 'number', wrong, rangeInputSx(to))];
}

function codeSelect({ draft, set, translate }: FilterInputContext, f: CompiledFilter, codeTable: string, label: string): ReactElement {
  const values = metadata.codeTables[codeTable]?.values ?? [];
  const multiple = f.op === 'in';
  const current = draft[f.field];
  const text = (code: string) => translate(codeLabelKey(codeTable, code), { _: code });
  return (
    <TextField
      key={f.field}
      {...selectBase(label)}
      value={multiple ? (Array.isArray(current) ? current : []) : ((current as string | undefined) ?? '')}
      onChange={(e) => set(f.field, e.target.value)}
      slotProps={{
        select: { multiple, renderValue: multiple ? (sel) => (sel as string[]).map(text).join(', ') : undefined },
        htmlInput: { 'data-testid': `filter-${f.field}` },
      }}
    >
      {!multiple && <MenuItem value="">&nbsp;</MenuItem>}
      {values.map((v) => (
        <MenuItem key={v.code} value={v.code}>
          {text(v.code)}
        </MenuItem>
      ))}
    </TextField>
  );
}

function booleanSelect({ draft, set, translate }: FilterInputContext, f: CompiledFilter, label: string): ReactElement {
  return (
    <TextField
      key={f.field}
      {...selectBase(label)}
      value={draft[f.field] === undefined ? '' : String(draft[f.field])}
      onChange={(e) => set(f.field, e.target.value === '' ? undefined : e.target.value === 'true')}
    >
      <MenuItem value="">&nbsp;</MenuItem>
      <MenuItem value="true">{translate('ra.boolean.true')}</MenuItem>
      <MenuItem value="false">{translate('ra.boolean.false')}</MenuItem>
    </TextField>
  );
}
