/**
 * The screens' date inputs (list filters, record forms, action dialogs), whose pickers load on
 * demand (issue 21): MUI X's date pickers are the largest library of the admin (about 360 kB of
 * script, 100 kB on the wire), and a list opened as a new document over a slow link should show its
 * rows without waiting for its date filters. Until the pickers have arrived, a field of the same
 * label and size stands in, disabled (no test id: a test waits for the real field).
 * The pickers themselves: DatePickers.tsx.
 */
import { Suspense, type ReactElement } from 'react';
import { TextField } from '@mui/material';
import { preloadable } from '../preloadable.tsx';
import type { DateInputProps, DatePickerFieldProps } from './DatePickers.tsx';

export type { DateInputProps, DatePickerFieldProps };

const loadPickers = () => import('./DatePickers.tsx');
const Field = preloadable(() => loadPickers().then((m) => m.DatePickerField));
const FormInput = preloadable(() => loadPickers().then((m) => m.DateInput));
/** Fetches the pickers ahead (a test, before its first wait for a date field). */
export const preloadDatePickers = () => Promise.all([Field.preload(), FormInput.preload()]);

function Placeholder({ label, size, variant, fullWidth, sx }: Pick<DatePickerFieldProps, 'label' | 'size' | 'variant' | 'fullWidth' | 'sx'>) {
  return <TextField label={label} size={size} variant={variant} fullWidth={fullWidth} sx={sx} value="" disabled />;
}

/** A controlled date (or date-time) field with its calendar, in the app's format and the UI language. */
export function DatePickerField(props: DatePickerFieldProps): ReactElement {
  const { label, size = 'small', variant = 'outlined', fullWidth, sx } = props;
  return (
    <Suspense fallback={<Placeholder label={label} size={size} variant={variant} fullWidth={fullWidth} sx={sx} />}>
      <Field {...props} />
    </Suspense>
  );
}

/** The react-admin form input of a date or date-time field (forms and action dialogs). */
export function DateInput(props: DateInputProps): ReactElement {
  return (
    <Suspense fallback={<Placeholder label={props.label} size="small" variant="filled" fullWidth />}>
      <FormInput {...props} />
    </Suspense>
  );
}
