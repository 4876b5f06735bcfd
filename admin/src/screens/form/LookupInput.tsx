/**
 * The form input of a field with a metadata `lookup` (e.g. an adjustment's part code, which must
 * be a part of the supplier's child-part stock): an autocomplete over the values the user may
 * choose. Typing asks the target's list (GET /api/<target>?filter={"<field>_like": typed}, 20 at
 * a time, under the caller's read scope); the server checks the same rule (400 with the lookup's
 * message on the field), so a value typed past the form is refused all the same.
 *
 * What the keyboard does must match what the user sees typed (issue 20 point 2):
 * - options belong to the text in the box: a search the user has typed past is aborted, an answer
 *   to an older text is dropped, and while the current text's answer is on its way no option is
 *   offered (ArrowDown + Enter cannot pick a stale one);
 * - Enter, Tab or leaving the box takes the typed text as it is: an exact match of the target is
 *   the value (asked of the server when the options are not there yet); an unknown code stays in
 *   the box with the lookup's message ("not in your stock"), never an empty field saying
 *   "required".
 * A value chosen or taken fills the fields its lookup's `fills` names (the part's description),
 * from the target's record.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { Autocomplete, TextField } from '@mui/material';
import { InputHelperText, useDataProvider, useInput, useTranslate, type DataProvider, type RaRecord } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import type { CompiledEntity, CompiledField } from '../../../../codegen/runtime/model.ts';
import { metadata } from '../meta.ts';

/** how many values one search offers */
export const LOOKUP_OPTIONS = 20;
const TYPING_PAUSE_MS = 250;

type Lookup = NonNullable<CompiledField['lookup']>;

/** The target's records whose value contains `typed` (all when empty), in the target's order. */
async function searchRecords(dp: DataProvider, target: CompiledEntity, lookup: Lookup, typed: string, signal?: AbortSignal): Promise<RaRecord[]> {
  const targetField = target.fields[lookup.field];
  const filter = typed && targetField.type === 'string' ? { [`${lookup.field}_like`]: typed } : {};
  const { data } = await dp.getList<RaRecord>(target.resource, {
    filter,
    pagination: { page: 1, perPage: LOOKUP_OPTIONS },
    sort: { field: targetField.sort ? lookup.field : target.defaultSort.field, order: 'ASC' },
    signal,
  });
  return data;
}

/** The target's values containing `typed` (all when empty), in the target's order. */
async function searchValues(dp: DataProvider, target: CompiledEntity, lookup: Lookup, typed: string, signal?: AbortSignal): Promise<string[]> {
  const data = await searchRecords(dp, target, lookup, typed, signal);
  return [...new Set(data.map((r) => String(r[lookup.field] ?? '')).filter(Boolean))];
}

/** The target's record holding exactly `value` (under the caller's scope), if any: by equality when the field may be filtered so, else among the contains matches. */
async function recordOf(dp: DataProvider, target: CompiledEntity, lookup: Lookup, value: string): Promise<RaRecord | undefined> {
  const targetField = target.fields[lookup.field];
  const data = targetField.filter.includes('eq')
    ? (
        await dp.getList<RaRecord>(target.resource, {
          filter: { [lookup.field]: value },
          pagination: { page: 1, perPage: 1 },
          sort: { field: target.defaultSort.field, order: 'ASC' },
        })
      ).data
    : await searchRecords(dp, target, lookup, value);
  return data.find((r) => String(r[lookup.field]) === value);
}

export function LookupInput({ field, label, testId }: { field: CompiledField; label: string; testId: string }): ReactElement {
  const lookup = field.lookup!;
  const target = metadata.entities[lookup.entity];
  const dp = useDataProvider();
  const translate = useTranslate();
  const { setError, clearErrors, setValue } = useFormContext();
  const { field: input, fieldState } = useInput({ source: field.name });
  const value = typeof input.value === 'string' || typeof input.value === 'number' ? String(input.value) : '';
  const [typed, setTyped] = useState(value);
  // the options and the text they answer: shown only while that is still the text in the box
  const [answer, setAnswer] = useState<{ query: string; options: string[] } | null>(null);
  const committing = useRef('');
  // did the user move to an option with the arrow keys since typing?
  const movedToOption = useRef(false);

  useEffect(() => {
    const abort = new AbortController();
    const timer = setTimeout(() => {
      searchValues(dp, target, lookup, typed, abort.signal)
        .then((options) => !abort.signal.aborted && setAnswer({ query: typed, options }))
        .catch(() => !abort.signal.aborted && setAnswer({ query: typed, options: [] }));
    }, TYPING_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [typed, dp, target, lookup]);

  const current = answer?.query === typed ? answer.options : null;
  const options = useMemo(() => current ?? [], [current]);
  // the stored value stays choosable even when the search does not bring it
  const choices = useMemo(() => (value && !options.includes(value) ? [value, ...options] : options), [value, options]);

  /** The fields a pick fills (metadata `fills`, e.g. the part's description) from the target's record; the server writes the same. */
  const fill = (record: RaRecord | undefined) => {
    for (const [mine, theirs] of Object.entries(lookup.fills ?? {})) setValue(mine, record?.[theirs] ?? null, { shouldDirty: true });
  };
  const fillFor = async (text: string) => {
    if (!lookup.fills) return;
    const record = await recordOf(dp, target, lookup, text).catch(() => undefined);
    if (committing.current === text) fill(record);
  };

  /** Takes the typed text as the value: empty clears it, a known value is set, an unknown one is kept with the lookup's message. */
  const commit = async () => {
    const text = typed.trim();
    if (text === value) return;
    if (!text) {
      input.onChange(null);
      fill(undefined);
      return;
    }
    committing.current = text;
    input.onChange(text);
    // a value among the options is known without asking, unless its record must fill other fields
    const record = lookup.fills || !options.includes(text) ? await recordOf(dp, target, lookup, text).catch(() => undefined) : undefined;
    if (committing.current !== text) return; // the user has typed on meanwhile
    fill(record);
    if (record || options.includes(text)) clearErrors(field.name);
    else setError(field.name, { type: 'lookup', message: lookup.messageKey }, { shouldFocus: false });
  };

  const onKeyDown = (ev: KeyboardEvent<HTMLDivElement> & { defaultMuiPrevented?: boolean }) => {
    if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') movedToOption.current = true;
    if (ev.key !== 'Enter') return;
    // an option the user moved to with the arrows is MUI's to choose; otherwise Enter takes the typed text
    // (MUI also highlights the stored value among the options by itself: typed over, it is not what Enter means)
    const highlighted = (ev.target as HTMLElement).getAttribute('aria-activedescendant');
    if (highlighted && current && movedToOption.current) return;
    ev.defaultMuiPrevented = true;
    ev.preventDefault();
    void commit();
  };

  const err = fieldState.error?.message;
  return (
    <Autocomplete
      options={choices}
      value={value || null}
      onChange={(_, v) => {
        committing.current = v ?? '';
        clearErrors(field.name);
        input.onChange(v ?? null);
        if (v) void fillFor(v);
        else fill(undefined);
      }}
      inputValue={typed}
      onInputChange={(_, v) => {
        movedToOption.current = false;
        setTyped(v);
      }}
      onBlur={() => {
        void commit();
        input.onBlur();
      }}
      onKeyDown={onKeyDown}
      // the typed text is taken by commit(), not thrown away on blur
      clearOnBlur={false}
      filterOptions={(x) => x}
      loading={current === null}
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
