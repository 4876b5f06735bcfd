/**
 * The create/edit form of a screen's `form` fields. Fields the user may not write in this mode
 * (read-only, system, create-only on update, or the whole record when its state forbids editing)
 * are shown read-only. The body is validated in the browser with the entity's generated create or
 * update schema (the server checks the same one) and saved through the dataProvider; server field
 * errors land on their inputs. The saved record (new version) replaces the old one in every cache.
 */
import { useMemo, type ReactElement, type ReactNode } from 'react';
import { Box } from '@mui/material';
import { Form, SaveButton, useDataProvider, useNotify, useTranslate, type RaRecord } from 'react-admin';
import type { CompiledEntity, CompiledField } from '../../../../codegen/runtime/model.ts';
import type { JsonSchema } from '../../../../codegen/runtime/field-schema.ts';
import { formErrorsOf, useNotifyError } from '../errors.ts';
import { makeValidate, toBody } from '../formBody.ts';
import { isCreatable, isUpdatable, schemasOf } from '../meta.ts';
import { useFreshRecords } from '../freshRecords.ts';
import { FieldInput } from './FieldInput.tsx';
import { LeaveGuard } from './UnsavedChanges.tsx';

export interface RecordFormProps {
  entity: CompiledEntity;
  fieldNames: readonly string[];
  /** absent: create */
  record?: RaRecord;
  /** the save button is shown (permission, and the record's state) */
  canSave: boolean;
  onSaved: (record: RaRecord) => void;
  /** more buttons next to save (actions, back) */
  buttons?: ReactNode;
  columns?: 1 | 2 | 3;
}

export function RecordForm({ entity, fieldNames, record, canSave, onSaved, buttons, columns = 2 }: RecordFormProps): ReactElement {
  const dp = useDataProvider();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const translate = useTranslate();
  const fresh = useFreshRecords();
  const mode = record ? 'update' : 'create';
  const fields = useMemo(() => fieldNames.map((n) => entity.fields[n]).filter((f): f is CompiledField => !!f), [entity, fieldNames]);
  const writable = useMemo(() => (canSave ? fields.filter((f) => (mode === 'create' ? isCreatable(f) : isUpdatable(f))) : []), [fields, mode, canSave]);
  const schemaSet = schemasOf(entity);
  const schema = mode === 'create' ? schemaSet.create : schemaSet.update;
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const extra = useMemo<Record<string, unknown>>(() => (record && entity.versioned ? { version: record.version } : {}), [record, entity]);
  const validate = useMemo(() => makeValidate(schema, writable, mode, extra, entity), [schema, writable, mode, extra, entity]);
  const defaults = useMemo(
    () => record ?? Object.fromEntries(fields.filter((f) => f.default !== undefined && isCreatable(f)).map((f) => [f.name, f.default])),
    [record, fields],
  );

  const submit = async (values: Record<string, unknown>) => {
    const data = { ...toBody(values, writable, mode), ...extra };
    try {
      const res = record ? await dp.update(entity.resource, { id: record.id, data, previousData: record }) : await dp.create(entity.resource, { data });
      // the page goes on with the saved record and its new version (freshRecords.ts)
      fresh(entity.resource, res.data as RaRecord);
      notify('message.saveSuccess', { type: 'success' });
      onSaved(res.data as RaRecord);
      return undefined;
    } catch (e) {
      notifyError(e);
      return formErrorsOf(e);
    }
  };

  const writableSet = new Set(writable.map((f) => f.name));
  // a field a lookup fills (the part's description) shows the picked record's value: the server writes it, not the user
  const filled = new Set(fields.flatMap((f) => Object.keys(f.lookup?.fills ?? {})));
  return (
    <Form key={String(record?.id ?? 'new')} record={defaults as RaRecord} onSubmit={submit as never} validate={validate} noValidate>
      {canSave && <LeaveGuard />}
      <Box
        sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: `repeat(${columns}, minmax(0, 1fr))` }, columnGap: 2, rowGap: 1.5, mb: 2 }}
        data-testid="record-form"
      >
        {fields.map((f) => (
          <Box key={f.name} sx={f.type === 'text' ? { gridColumn: '1 / -1' } : undefined}>
            <FieldInput
              field={f}
              schema={props[f.name]}
              readOnly={!writableSet.has(f.name) || filled.has(f.name)}
              required={f.required && writableSet.has(f.name)}
            />
          </Box>
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        {canSave && <SaveButton label={translate('button.save')} size="small" alwaysEnable data-testid="btn-save" />}
        {buttons}
      </Box>
    </Form>
  );
}
