/**
 * Runs an entity action the way its metadata says: a dialog when it has inputs (or is a file
 * import), a confirm question when `confirm` is set, otherwise at once. One record goes to
 * POST /api/<res>/<id>/actions/<a> (with its version), several to the bulk route in one
 * transaction. Success shows the action's success message and refreshes the page's data.
 */
import { useCallback, useRef, useState, type ReactElement } from 'react';
import { Confirm, useDataProvider, useNotify, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import { ACTION_DIALOG_BUTTONS, type CompiledAction, type CompiledEntity } from '../../../../codegen/runtime/model.ts';
import type { PortalDataProvider } from '../../providers/dataProvider.ts';
import { formErrorsOf, useNotifyError } from '../errors.ts';
import { toBody } from '../formBody.ts';
import { ActionDialog } from './ActionDialog.tsx';
import { useFreshRecords } from '../freshRecords.ts';
import { runUploadAction } from './uploadAction.ts';

interface Pending {
  action: CompiledAction;
  records: readonly RaRecord[];
}

export interface ActionRunner {
  start: (action: CompiledAction, records: readonly RaRecord[]) => void;
  /** render once in the screen */
  element: ReactElement | null;
  busy: boolean;
}

/** The action takes a file (metadata `upload`, e.g. fee items imported from Excel). */
const needsFile = (a: CompiledAction): boolean => !!a.upload;

export function useActionRunner(entity: CompiledEntity, onDone?: (a: CompiledAction) => void): ActionRunner {
  const dp = useDataProvider<PortalDataProvider>();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const refresh = useRefresh();
  const translate = useTranslate();
  const fresh = useFreshRecords();
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const file = useRef<File | null>(null);

  const call = useCallback(
    async (p: Pending, values: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Record<string, unknown> | undefined> => {
      const { action, records } = p;
      const fields = action.inputOrder.map((n) => action.input[n]);
      const data: Record<string, unknown> = { ...toBody(values, fields, 'action'), ...extra };
      if (needsFile(action) && !file.current) {
        notify('error.fileEmpty', { type: 'warning' });
        return undefined;
      }
      setBusy(true);
      try {
        let res: { message?: string; data?: unknown };
        if (needsFile(action)) {
          // a file goes with one record (or none: a collection action such as an import)
          const target = action.collection || !records[0] ? {} : { id: records[0].id };
          res = await runUploadAction(entity.resource, { ...target, action: action.name, data, file: file.current! });
        } else if (action.collection) res = await dp.runAction(entity.resource, { action: action.name, data });
        else if (records.length === 1) {
          const r = records[0];
          res = await dp.runAction(entity.resource, {
            id: r.id,
            action: action.name,
            data: { ...data, ...(entity.versioned && typeof r.version === 'number' ? { version: r.version } : {}) },
          });
        } else res = await dp.runAction(entity.resource, { ids: records.map((r) => r.id), action: action.name, data });
        // the changed records (with their new versions) go to the page at once, before the refresh
        if (!action.collection && res?.data) fresh(entity.resource, res.data as RaRecord | RaRecord[]);
        const msg = res?.message || translate(action.successKey, { _: translate('message.actionSuccess') });
        notify(msg, { type: 'success', messageArgs: { _: msg } });
        setPending(null);
        file.current = null;
        refresh();
        onDone?.(action);
        return undefined;
      } catch (e) {
        notifyError(e);
        return formErrorsOf(e);
      } finally {
        setBusy(false);
      }
    },
    [dp, entity, notify, notifyError, refresh, translate, onDone, fresh],
  );

  const start = useCallback(
    (action: CompiledAction, records: readonly RaRecord[]) => {
      const p = { action, records };
      if (action.inputOrder.length || action.confirm || needsFile(action)) setPending(p);
      else void call(p, {});
    },
    [call],
  );

  let element: ReactElement | null = null;
  if (pending) {
    const { action } = pending;
    if (!action.inputOrder.length && !needsFile(action)) {
      // confirm only
      element = (
        <Confirm
          isOpen
          loading={busy}
          title={translate(action.labelKey, { _: action.name })}
          content={
            pending.records.length > 1
              ? `${translate('message.confirmAction')} (${translate('ui.selected', { count: pending.records.length })})`
              : 'message.confirmAction'
          }
          confirm={ACTION_DIALOG_BUTTONS.confirm}
          cancel={ACTION_DIALOG_BUTTONS.cancel}
          onConfirm={() => void call(pending, {})}
          onClose={() => setPending(null)}
        />
      );
    } else {
      element = (
        <ActionDialog
          entity={entity}
          action={action}
          records={pending.records}
          onCancel={() => setPending(null)}
          onSubmit={(values, extra) => call(pending, values, extra)}
          withFile={needsFile(action)}
          onFile={(f) => {
            file.current = f;
          }}
        />
      );
    }
  }
  return { start, element, busy };
}
