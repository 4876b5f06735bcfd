/**
 * The dialog of one entity action, generated from the action's metadata: its input fields (with
 * the schema's enum narrowing selects, e.g. the `target` of an action with several end states),
 * the record fields it shows read-only (`show`), a grid with one row per record for the inputs
 * each record gets its own value of (`perRecord`, several records chosen), the confirm question
 * when the action asks for one, and the browser-side validation by the same schemas the server
 * checks. Actions without inputs and without `confirm` never open it.
 */
import { useMemo, useState, type ReactElement } from 'react';
import { Dialog, DialogActions, DialogContent, DialogTitle, Typography, Button, Stack } from '@mui/material';
import { Form, SaveButton, useTranslate, type RaRecord } from 'react-admin';
import { ACTION_DIALOG_BUTTONS, UPLOAD_DIALOG_BUTTONS, type CompiledAction, type CompiledEntity } from '../../../../codegen/runtime/model.ts';
import type { JsonSchema } from '../../../../codegen/runtime/field-schema.ts';
import { useNotifyError } from '../errors.ts';
import { FieldInput } from '../form/FieldInput.tsx';
import { downloadTemplate } from './uploadAction.ts';
import { focusFirstInput } from './focusFirstInput.ts';
import { makeValidate, toBody } from '../formBody.ts';
import { schemasOf } from '../meta.ts';
import {
  initialGridValues,
  perRecordBody,
  RecordInputsGrid,
  RecordSummary,
  singleRecordDefaults,
  splitServerErrors,
  validateGrid,
  type GridErrors,
  type GridValues,
} from './RecordInputsGrid.tsx';

export interface ActionDialogProps {
  entity: CompiledEntity;
  action: CompiledAction;
  /** the records it applies to (empty for a collection action) */
  records: readonly RaRecord[];
  onCancel: () => void;
  /** resolves with form errors (server field errors) or nothing; `extra` goes into the body as is (perRecord) */
  onSubmit: (values: Record<string, unknown>, extra?: Record<string, unknown>) => Promise<Record<string, unknown> | undefined>;
  /** a file chosen in the dialog (collection actions such as an import) */
  withFile?: boolean;
  onFile?: (f: File | null) => void;
}

export function ActionDialog({ entity, action, records, onCancel, onSubmit, withFile, onFile }: ActionDialogProps): ReactElement {
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const [fileName, setFileName] = useState('');
  const notifyError = useNotifyError();
  const recordSchema = schemasOf(entity).recordInputs?.[action.name];
  // several records with per-record inputs: those go into the grid, the rest stay in the form
  const grid = records.length > 1 && (!!action.perRecord || !!action.show?.length);
  const gridInputs = useMemo(() => new Set(records.length > 1 ? (action.perRecord?.fields ?? []) : []), [action, records.length]);
  const fields = useMemo(() => action.inputOrder.filter((n) => !gridInputs.has(n)).map((n) => action.input[n]), [action, gridInputs]);
  // one record is checked with its complete input (per-record inputs are required there)
  const schema = (records.length === 1 && recordSchema) || schemasOf(entity).actions[action.name];
  const props = (schemasOf(entity).actions[action.name]?.properties ?? {}) as Record<string, JsonSchema>;
  const [gridValues, setGridValues] = useState<GridValues>(() => initialGridValues(action, records));
  const [gridErrors, setGridErrors] = useState<GridErrors>({});
  const extra = useMemo<Record<string, unknown>>(() => {
    if (action.collection) return {};
    // one record goes to the record's own route (with its version), several to the bulk route
    if (records.length !== 1) return { ids: records.map((r) => r.id) };
    return entity.versioned && typeof records[0].version === 'number' ? { version: records[0].version } : {};
  }, [action, records, entity]);
  const validate = useMemo(() => makeValidate(schema, fields, 'action', extra), [schema, fields, extra]);
  const defaults = useMemo(
    () => ({
      ...Object.fromEntries(fields.filter((f) => f.default !== undefined).map((f) => [f.name, f.default])),
      ...(records.length === 1 ? singleRecordDefaults(action, records[0]) : {}),
    }),
    [fields, action, records],
  );
  const title = translate(action.labelKey, { _: action.name });

  const submit = async (values: Record<string, unknown>) => {
    let extra: Record<string, unknown> | undefined;
    if (gridInputs.size) {
      const errs = validateGrid(action, recordSchema, toBody(values, fields, 'action'), gridValues);
      setGridErrors(errs);
      if (Object.keys(errs).length) return {};
      extra = { perRecord: perRecordBody(action, gridValues) };
    }
    setBusy(true);
    try {
      const { grid: fromServer, form } = splitServerErrors(await onSubmit(values, extra));
      setGridErrors(fromServer);
      return form;
    } finally {
      setBusy(false);
    }
  };
  const onCell = (id: string, input: string, value: string) => {
    setGridValues((v) => ({ ...v, [id]: { ...v[id], [input]: value } }));
    setGridErrors((e) => (e[id]?.[input] ? { ...e, [id]: Object.fromEntries(Object.entries(e[id]).filter(([k]) => k !== input)) } : e));
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onCancel}
      maxWidth={grid ? 'lg' : 'sm'}
      fullWidth
      data-testid={`action-dialog-${action.name}`}
      slotProps={{ transition: { onEntered: focusFirstInput } }}
    >
      <DialogTitle>{title}</DialogTitle>
      {/* errors show next to the few inputs of the dialog: no extra "form is invalid" notification */}
      <Form onSubmit={submit as never} validate={validate} defaultValues={defaults} noValidate disableInvalidFormNotification>
        <DialogContent sx={{ pt: 0 }}>
          <Stack spacing={1.5}>
            {records.length > 1 && <Typography variant="body2">{translate('ui.selected', { count: records.length })}</Typography>}
            {records.length === 1 && !action.show?.length && (
              <Typography variant="body2" color="text.secondary">
                {String(records[0][entity.titleField] ?? records[0].id)}
              </Typography>
            )}
            {records.length === 1 && <RecordSummary entity={entity} action={action} record={records[0]} />}
            {grid && (
              <>
                {gridInputs.size > 0 && (
                  <Typography variant="caption" color="text.secondary">
                    {translate('ui.perRecordHint')}
                  </Typography>
                )}
                <RecordInputsGrid entity={entity} action={action} records={records} values={gridValues} errors={gridErrors} disabled={busy} onChange={onCell} />
              </>
            )}
            {action.confirm && (
              <Typography variant="body1" data-testid="action-confirm-question">
                {translate('message.confirmAction')}
              </Typography>
            )}
            {fields.map((f) => (
              <FieldInput key={f.name} field={f} schema={props[f.name]} required={f.required} />
            ))}
            {withFile && (
              <Stack direction="row" spacing={1} alignItems="center">
                <Button variant="outlined" component="label" size="small" data-testid="action-choose-file">
                  {translate(UPLOAD_DIALOG_BUTTONS.chooseFile)}
                  <input
                    type="file"
                    hidden
                    data-testid="action-file"
                    onChange={(e) => {
                      const f = e.target.files?.[0] ?? null;
                      setFileName(f?.name ?? '');
                      onFile?.(f);
                    }}
                  />
                </Button>
                <Typography variant="body2" data-testid="action-file-name">
                  {fileName}
                </Typography>
                {action.upload?.template && (
                  <Button size="small" onClick={() => void downloadTemplate(entity.resource, action.name).catch(notifyError)} data-testid="action-template">
                    {translate(UPLOAD_DIALOG_BUTTONS.template)}
                  </Button>
                )}
              </Stack>
            )}
          </Stack>
        </DialogContent>
        {/* not react-admin's <Toolbar>: below 600 px it is fixed to the window's bottom, outside the dialog */}
        <DialogActions>
          <Stack direction="row" spacing={1}>
            <Button onClick={onCancel} disabled={busy} data-testid="action-cancel">
              {translate(ACTION_DIALOG_BUTTONS.cancel)}
            </Button>
            <SaveButton label={translate(ACTION_DIALOG_BUTTONS.confirm)} icon={<span />} alwaysEnable={!busy} disabled={busy} data-testid="action-submit" />
          </Stack>
        </DialogActions>
      </Form>
    </Dialog>
  );
}
