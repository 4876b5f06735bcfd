/**
 * The pickers behind DateInput.tsx (loaded on demand from there: MUI X's pickers are the largest
 * library of the admin, and a list shows its rows without waiting for them). The one date input of the screens (list filters, record forms, action dialogs): MUI X's picker
 * over dayjs, in the app's format (metadata app.dateFormat, yyyy-MM-dd; app.dateTimeFormat for
 * date-times) and in the UI language (calendar, month and weekday names, the picker's own texts:
 * zh-CN or en), whatever the browser's locale. The browser's own <input type="date"> shows
 * mm/dd/yyyy in an American Chrome, which is why it is not used.
 *
 * Values travel as the API writes them: a date as `yyyy-MM-dd` (no time zone shift), a date-time
 * as an ISO instant; '' (or null in a form) is empty. A half-typed or impossible date is kept
 * out of the value (the form or the filter sees empty) rather than sent.
 */
import { useMemo, type KeyboardEvent, type ReactElement, type ReactNode } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { enUS, zhCN } from '@mui/x-date-pickers/locales';
import { InputHelperText, useInput, useLocaleState } from 'react-admin';
import { metadata } from '../meta.ts';

/** metadata's date patterns (Java / Unicode style: yyyy-MM-dd HH:mm:ss) in dayjs tokens */
export const toDayjsFormat = (pattern: string): string =>
  pattern.replace(/y+/g, (m) => (m.length === 2 ? 'YY' : 'YYYY')).replace(/d+/g, (m) => 'D'.repeat(m.length));
export const DATE_FORMAT = toDayjsFormat(metadata.app.dateFormat ?? 'yyyy-MM-dd');
export const DATE_TIME_FORMAT = toDayjsFormat(metadata.app.dateTimeFormat ?? 'yyyy-MM-dd HH:mm:ss');

const PICKER_TEXTS = { 'zh-CN': zhCN, 'en-US': enUS } as const;
const DAYJS_LOCALE: Record<string, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };

/** The picker's language follows the UI language (react-admin's locale), not the browser's. */
export function DateLocalization({ children }: { children: ReactElement }): ReactElement {
  const [locale] = useLocaleState();
  const texts = PICKER_TEXTS[locale as keyof typeof PICKER_TEXTS] ?? zhCN;
  return (
    <LocalizationProvider
      dateAdapter={AdapterDayjs}
      adapterLocale={DAYJS_LOCALE[locale] ?? 'zh-cn'}
      localeText={texts.components.MuiLocalizationProvider.defaultProps.localeText}
    >
      {children}
    </LocalizationProvider>
  );
}

/** API value -> picker value (null when empty or unreadable) */
function parse(value: unknown, withTime: boolean): Dayjs | null {
  if (value === null || value === undefined || value === '') return null;
  const s = String(value);
  const d = withTime ? dayjs(s) : dayjs(s.slice(0, 10), 'YYYY-MM-DD');
  return d.isValid() ? d : null;
}

/** picker value -> API value ('' when empty or not a whole valid date yet) */
function serialise(d: Dayjs | null, withTime: boolean): string {
  if (!d || !d.isValid()) return '';
  return withTime ? d.toISOString() : d.format('YYYY-MM-DD');
}

export interface DatePickerFieldProps {
  /** yyyy-MM-dd (a date) or an ISO instant (withTime); '' or undefined: empty */
  value: unknown;
  onChange: (value: string) => void;
  label: string;
  withTime?: boolean;
  readOnly?: boolean;
  /** data-testid of the field (label, sections and calendar button) */
  testId?: string;
  /** data-testid of its (hidden) input, which holds the value as text and takes a typed or pasted one */
  inputTestId?: string;
  error?: boolean;
  helperText?: ReactNode;
  size?: 'small' | 'medium';
  /** forms use react-admin's filled inputs, the search form outlined ones */
  variant?: 'outlined' | 'filled';
  fullWidth?: boolean;
  sx?: object;
  onKeyDown?: (e: KeyboardEvent) => void;
}

/** A controlled date (or date-time) field with its calendar, in the app's format and the UI language. */
export function DatePickerField({
  value,
  onChange,
  label,
  withTime = false,
  readOnly,
  testId,
  inputTestId,
  error,
  helperText,
  size = 'small',
  variant = 'outlined',
  fullWidth,
  sx,
  onKeyDown,
}: DatePickerFieldProps): ReactElement {
  const picked = useMemo(() => parse(value, withTime), [value, withTime]);
  const textField = {
    size,
    variant,
    fullWidth,
    error,
    helperText,
    sx,
    onKeyDown,
    'data-testid': testId,
    slotProps: { htmlInput: { 'data-testid': inputTestId } },
  };
  const common = {
    label,
    value: picked,
    readOnly,
    onChange: (d: Dayjs | null) => onChange(serialise(d, withTime)),
    slotProps: { textField, field: { clearable: !readOnly } },
  };
  return (
    <DateLocalization>
      {withTime ? <DateTimePicker {...common} format={DATE_TIME_FORMAT} ampm={false} /> : <DatePicker {...common} format={DATE_FORMAT} />}
    </DateLocalization>
  );
}

export interface DateInputProps {
  source: string;
  label: string;
  withTime?: boolean;
  readOnly?: boolean;
  testId?: string;
}

/** The react-admin form input of a date or date-time field (forms and action dialogs). */
export function DateInput({ source, label, withTime = false, readOnly, testId }: DateInputProps): ReactElement {
  const { field, fieldState } = useInput({ source });
  const err = fieldState.error?.message;
  return (
    <DatePickerField
      value={field.value}
      onChange={(v) => field.onChange(v === '' ? null : v)}
      label={label}
      withTime={withTime}
      readOnly={readOnly}
      testId={testId}
      inputTestId={testId ? `${testId}-input` : undefined}
      error={!!err}
      helperText={err ? <InputHelperText error={err} helperText={false} /> : undefined}
      variant="filled"
      fullWidth
    />
  );
}
