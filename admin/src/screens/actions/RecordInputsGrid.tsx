/**
 * What an action's dialog shows of its records, from metadata: `show` (record fields, read-only)
 * and `perRecord` (inputs each record gets its own value of). One record: its shown fields as
 * label/value pairs (its per-record inputs are ordinary inputs of the form). Several: a grid, one
 * row per record, the shown fields as columns and an input cell per per-record input, pre-filled
 * from the declared default field (e.g. the unsent quantity); on a phone a card per record instead
 * (RecordInputsCards); a cell's error (the browser's check
 * or the server's `perRecord.<id>.<input>` field error) shows under it.
 */
import { useMemo, type ReactElement } from 'react';
import { Box, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useLocaleState, useTranslate, type RaRecord } from 'react-admin';
import type { CompiledAction, CompiledEntity, CompiledField } from '../../../../codegen/runtime/model.ts';
import type { JsonSchema } from '../../../../codegen/runtime/field-schema.ts';
import { validateLite } from '../../../../codegen/runtime/validate-lite.ts';
import { toBody } from '../formBody.ts';
import { alignOf, makeFormatter } from '../format.ts';
import { shownValue } from '../../../../codegen/runtime/person-name.ts';
import { metadata } from '../meta.ts';
import { useMobileMode } from '../../layout/mobile.ts';

/** record id -> input -> the text in its cell */
export type GridValues = Record<string, Record<string, string>>;
/** record id -> input -> error (message key and its placeholder values) */
export type GridErrors = Record<string, Record<string, { message: string; args?: Record<string, unknown> }>>;

const textOf = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** The cells pre-filled from each input's declared default field. */
export function initialGridValues(action: CompiledAction, records: readonly RaRecord[]): GridValues {
  const out: GridValues = {};
  for (const r of records) {
    out[String(r.id)] = Object.fromEntries(
      (action.perRecord?.fields ?? []).map((f) => [f, textOf(action.perRecord!.defaults[f] ? r[action.perRecord!.defaults[f]] : '')]),
    );
  }
  return out;
}

/** The form's default values of one record's per-record inputs (a one-record dialog). */
export const singleRecordDefaults = (action: CompiledAction, record: RaRecord | undefined): Record<string, unknown> =>
  record
    ? Object.fromEntries(
        Object.entries(action.perRecord?.defaults ?? {})
          .filter(([, from]) => record[from] !== null && record[from] !== undefined)
          .map(([input, from]) => [input, record[from]]),
      )
    : {};

/**
 * Each row's input checked with the record input schema (the shared values merged in), as the
 * server checks it; only errors of the per-record inputs are kept (shared ones show on their inputs).
 */
export function validateGrid(action: CompiledAction, schema: JsonSchema | undefined, shared: Record<string, unknown>, values: GridValues): GridErrors {
  const fields = (action.perRecord?.fields ?? []).map((n) => action.input[n]);
  const out: GridErrors = {};
  if (!schema) return out;
  for (const [id, row] of Object.entries(values)) {
    const errs = validateLite(schema, { ...shared, ...toBody(row, fields, 'action') }, metadata.rules) ?? {};
    const mine = Object.entries(errs).filter(([f]) => fields.some((x) => x.name === f));
    if (mine.length) out[id] = Object.fromEntries(mine.map(([f, e]) => [f, { message: e.key, args: e.args ?? {} }]));
  }
  return out;
}

/** The per-record body: `{ "<id>": { <input>: value } }` of every row (empty cells left out). */
export function perRecordBody(action: CompiledAction, values: GridValues): Record<string, Record<string, unknown>> {
  const fields = (action.perRecord?.fields ?? []).map((n) => action.input[n]);
  return Object.fromEntries(Object.entries(values).map(([id, row]) => [id, toBody(row, fields, 'action')]));
}

const RA_ERROR_PREFIX = '@@react-admin@@';
/** A form error as the HTTP layer makes it (a key, or '@@react-admin@@' + JSON { message, args }). */
function cellError(v: unknown): { message: string; args?: Record<string, unknown> } {
  if (typeof v !== 'string') return { message: String((v as { message?: unknown })?.message ?? v) };
  if (!v.startsWith(RA_ERROR_PREFIX)) return { message: v };
  try {
    return JSON.parse(v.slice(RA_ERROR_PREFIX.length)) as { message: string; args?: Record<string, unknown> };
  } catch {
    return { message: v };
  }
}

/** Server field errors `perRecord.<id>.<input>` -> the grid's; the rest stays with the form. */
export function splitServerErrors(errors: Record<string, unknown> | undefined): { grid: GridErrors; form: Record<string, unknown> | undefined } {
  const grid: GridErrors = {};
  const form: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(errors ?? {})) {
    const m = /^perRecord\.([^.]+)\.(.+)$/.exec(k);
    if (m) (grid[m[1]] ??= {})[m[2]] = cellError(v);
    else form[k] = v;
  }
  return { grid, form: Object.keys(form).length ? form : undefined };
}

function useShownFields(entity: CompiledEntity, action: CompiledAction) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return useMemo(
    () =>
      (action.show ?? []).map((n) => {
        const f = entity.fields[n] as CompiledField;
        const fmt = makeFormatter(f, undefined, translate, locale);
        // a person by name (person-name.ts)
        return { name: n, label: translate(f.labelKey, { _: n }), text: (r: RaRecord) => fmt(shownValue(f, r, n)), align: alignOf(f, undefined) };
      }),
    [entity, action, translate, locale],
  );
}

/** One record's shown fields, read-only. */
export function RecordSummary({ entity, action, record }: { entity: CompiledEntity; action: CompiledAction; record: RaRecord }): ReactElement | null {
  const shown = useShownFields(entity, action);
  if (!shown.length) return null;
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', columnGap: 2, rowGap: 0.5, m: 0 }} data-testid="action-record">
      {shown.map((s) => (
        <Box key={s.name} sx={{ display: 'flex', gap: 1, minWidth: 0 }} data-testid={`action-show-${s.name}`}>
          <Typography component="dt" variant="body2" color="text.secondary" sx={{ flex: '0 0 auto' }}>
            {s.label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
            {s.text(record) || '—'}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

export interface RecordInputsGridProps {
  entity: CompiledEntity;
  action: CompiledAction;
  records: readonly RaRecord[];
  values: GridValues;
  errors: GridErrors;
  disabled?: boolean;
  onChange: (id: string, input: string, value: string) => void;
}

/** One record's input cell: the text box of a per-record input, its error under it. */
function CellInput({ field: f, id, props, label }: { field: CompiledField; id: string; props: RecordInputsGridProps; label?: boolean }): ReactElement {
  const translate = useTranslate();
  const err = props.errors[id]?.[f.name];
  const name = translate(f.labelKey, { _: f.name });
  return (
    <TextField
      size="small"
      hiddenLabel={!label}
      label={label ? `${name}${f.required ? ' *' : ''}` : undefined}
      type={f.type === 'integer' || f.type === 'decimal' ? 'number' : 'text'}
      value={props.values[id]?.[f.name] ?? ''}
      disabled={props.disabled}
      onChange={(ev) => props.onChange(id, f.name, ev.target.value)}
      error={!!err}
      helperText={err ? translate(err.message, { _: err.message, ...(err.args ?? {}) }) : undefined}
      slotProps={{
        htmlInput: {
          'data-testid': `grid-input-${f.name}`,
          'aria-label': `${name} ${id}`,
          step: f.type === 'integer' ? 1 : undefined,
        },
      }}
      sx={{ width: label ? '100%' : 130 }}
    />
  );
}

/**
 * Several records on a phone (the mobile mode): a card each, its shown fields as label/value pairs
 * and its inputs below them at full width, so no input sits off to the right of the dialog.
 */
function RecordInputsCards(props: RecordInputsGridProps): ReactElement {
  const { entity, action, records } = props;
  const inputs = (action.perRecord?.fields ?? []).map((n) => action.input[n]);
  return (
    <Stack spacing={1} data-testid="action-grid" data-layout="cards">
      {records.map((r) => {
        const id = String(r.id);
        return (
          <Stack key={id} spacing={1} sx={{ p: 1, border: 1, borderColor: 'divider', borderRadius: 1 }} data-testid="action-grid-row" data-id={id}>
            <RecordSummary entity={entity} action={action} record={r} />
            {inputs.map((f) => (
              <CellInput key={f.name} field={f} id={id} props={props} label />
            ))}
          </Stack>
        );
      })}
    </Stack>
  );
}

/** Several records: one row each, shown fields and per-record input cells (on a phone: cards). */
export function RecordInputsGrid(props: RecordInputsGridProps): ReactElement {
  const { entity, action, records } = props;
  const translate = useTranslate();
  const shown = useShownFields(entity, action);
  const compact = useMobileMode();
  const inputs = (action.perRecord?.fields ?? []).map((n) => action.input[n]);
  if (compact) return <RecordInputsCards {...props} />;
  return (
    <TableContainer sx={{ maxHeight: '50vh', border: 1, borderColor: 'divider', borderRadius: 1 }} data-testid="action-grid">
      <Table size="small" stickyHeader>
        <TableHead>
          <TableRow>
            {shown.map((s) => (
              <TableCell key={s.name} align={s.align} sx={{ whiteSpace: 'nowrap' }} data-testid={`action-grid-th-${s.name}`}>
                {s.label}
              </TableCell>
            ))}
            {inputs.map((f) => (
              <TableCell key={f.name} sx={{ whiteSpace: 'nowrap', minWidth: 120 }} data-testid={`action-grid-th-${f.name}`}>
                {translate(f.labelKey, { _: f.name })}
                {f.required ? ' *' : ''}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {records.map((r) => {
            const id = String(r.id);
            return (
              <TableRow key={id} data-testid="action-grid-row" data-id={id}>
                {shown.map((s) => (
                  <TableCell key={s.name} align={s.align} sx={{ whiteSpace: 'nowrap' }}>
                    {s.text(r)}
                  </TableCell>
                ))}
                {inputs.map((f) => (
                  <TableCell key={f.name} sx={{ py: 0.5 }}>
                    <CellInput field={f} id={id} props={props} />
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
