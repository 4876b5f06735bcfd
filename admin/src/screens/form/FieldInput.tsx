/**
 * One react-admin input generated from a compiled field: integer/decimal -> number, date and
 * datetime -> the app's date picker (DateInput.tsx: yyyy-MM-dd, the UI language), code -> select of the code table's values with translated labels (or the
 * values the schema allows, e.g. an action's `target`), boolean -> switch, string/text -> text.
 * Validation is not attached here: the whole form is checked by its schema (formBody.ts).
 */
import { useMemo, type ReactElement } from 'react';
import { BooleanInput, NumberInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import type { CompiledField } from '../../../../codegen/runtime/model.ts';
import type { JsonSchema } from '../../../../codegen/runtime/field-schema.ts';
import { codeChoices, codeLabelKey } from '../meta.ts';
import { DateInput } from './DateInput.tsx';
import { LookupInput } from './LookupInput.tsx';
import { useWatch } from 'react-hook-form';
import { lookupApplies } from '../../../../codegen/runtime/lookup-rules.ts';

export interface FieldInputProps {
  field: CompiledField;
  /** the field's schema in the body (enum narrows a code select) */
  schema?: JsonSchema;
  readOnly?: boolean;
  /** marks the label with * */
  required?: boolean;
  /** a different label key (action inputs reuse entity labels) */
  labelKey?: string;
}

export function FieldInput(props: FieldInputProps): ReactElement {
  return props.field.lookup && !props.readOnly ? <LookupField {...props} /> : <PlainInput {...props} />;
}

const useLabel = ({ field, readOnly, required, labelKey }: FieldInputProps): string => {
  const translate = useTranslate();
  return `${translate(labelKey ?? field.labelKey, { _: field.name })}${required && !readOnly ? ' *' : ''}`;
};

/**
 * A lookup offers the values it may take (metadata lookup, LookupInput.tsx) while it applies: a
 * lookup with `when` (an account's department is a supplier code only for a supplier account)
 * follows the form's values, plain text otherwise.
 */
function LookupField(props: FieldInputProps): ReactElement {
  const lookup = props.field.lookup!;
  const names = Object.keys(lookup.when ?? {});
  const watched = useWatch({ name: names }) as unknown[];
  const label = useLabel(props);
  const applies = lookupApplies(lookup, (f) => watched[names.indexOf(f)]);
  return applies ? <LookupInput field={props.field} label={label} testId={`input-${props.field.name}`} /> : <PlainInput {...props} />;
}

function PlainInput(props: FieldInputProps): ReactElement {
  const { field, schema, readOnly } = props;
  const translate = useTranslate();
  const label = useLabel(props);
  const common = { source: field.name, label, readOnly, helperText: false as const, fullWidth: true, 'data-testid': `input-${field.name}` };
  const choices = useMemo(
    () =>
      field.type === 'code' && field.codeTable
        ? codeChoices(field, schema).map((c) => ({ id: c, name: translate(codeLabelKey(field.codeTable!, c), { _: c }) }))
        : [],
    [field, schema, translate],
  );
  switch (field.type) {
    case 'integer':
    case 'ref':
      return <NumberInput {...common} step={1} />;
    case 'decimal':
      return <NumberInput {...common} step={field.scale ? 10 ** -field.scale : 0.01} />;
    case 'date':
    case 'datetime':
      // the app's format and the UI language, not the browser's (DateInput.tsx)
      return <DateInput source={field.name} label={label} readOnly={readOnly} withTime={field.type === 'datetime'} testId={`input-${field.name}`} />;
    case 'boolean':
      return <BooleanInput source={field.name} label={label} readOnly={readOnly} helperText={false} />;
    case 'code':
      return <SelectInput {...common} choices={choices} translateChoice={false} emptyText="" />;
    default: {
      const long = field.type === 'text' || (field.maxLength ?? 0) >= 500;
      return <TextInput {...common} multiline={long} minRows={long ? 3 : undefined} />;
    }
  }
}
