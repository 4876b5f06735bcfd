/**
 * The form input of a field with a metadata `lookup` (e.g. an adjustment's part code, which must
 * be a part of the supplier's child-part stock): an autocomplete over the values the user may
 * choose. Typing asks the target's list (GET /api/<target>?filter={"<field>_like": typed}, 20 at
 * a time, under the caller's read scope) and only an offered value can be chosen; the server
 * checks the same rule (400 with the lookup's message on the field), so a value typed past the
 * form is refused all the same.
 */
import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { InputHelperText, useDataProvider, useInput, useTranslate, type RaRecord } from 'react-admin';
import type { CompiledField } from '../../../../codegen/runtime/model.ts';
import { metadata } from '../meta.ts';

/** how many values one search offers */
export const LOOKUP_OPTIONS = 20;
const TYPING_PAUSE_MS = 250;

export function LookupInput({ field, label, testId }: { field: CompiledField; label: string; testId: string }): ReactElement {
  const lookup = field.lookup!;
  const target = metadata.entities[lookup.entity];
  const dp = useDataProvider();
  const translate = useTranslate();
  const { field: input, fieldState } = useInput({ source: field.name });
  const value = typeof input.value === 'string' || typeof input.value === 'number' ? String(input.value) : '';
  const [typed, setTyped] = useState(value);
  const [options, setOptions] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    let cancelled = false;
    const timer = setTimeout(() => {
      setLoading(true);
      const targetField = target.fields[lookup.field];
      const filter = typed && targetField.type === 'string' ? { [`${lookup.field}_like`]: typed } : {};
      dp.getList<RaRecord>(target.resource, {
        filter,
        pagination: { page: 1, perPage: LOOKUP_OPTIONS },
        sort: { field: targetField.sort ? lookup.field : target.defaultSort.field, order: 'ASC' },
      })
        .then(({ data }) => {
          if (!cancelled) setOptions([...new Set(data.map((r) => String(r[lookup.field] ?? '')).filter(Boolean))]);
        })
        .catch(() => {
          if (!cancelled) setOptions([]);
        })
        .finally(() => {
          if (!cancelled) setLoading(false);
        });
    }, TYPING_PAUSE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [typed, dp, target, lookup.field]);

  // the stored value stays choosable even when the search does not bring it
  const choices = useMemo(() => (value && !options.includes(value) ? [value, ...options] : options), [value, options]);
  const err = fieldState.error?.message;
  return (
    <Autocomplete
      options={choices}
      value={value || null}
      onChange={(_, v) => input.onChange(v ?? null)}
      inputValue={typed}
      onInputChange={(_, v) => setTyped(v)}
      onBlur={input.onBlur}
      filterOptions={(x) => x}
      loading={loading}
      noOptionsText={translate('validation.lookup')}
      loadingText="…"
      // MUI's own button names are English: the UI language's instead (the browser suite finds "Open" on a Chinese page)
      clearText={translate('ra.action.clear_input_value')}
      openText={translate('ra.action.open')}
      closeText={translate('ra.action.close')}
      fullWidth
      size="small"
      data-testid={testId}
      renderInput={(params) => (
        <TextField
          {...params}
          name={field.name}
          label={label}
          error={!!err}
          helperText={err ? <InputHelperText error={err} helperText={false} /> : undefined}
        />
      )}
    />
  );
}
