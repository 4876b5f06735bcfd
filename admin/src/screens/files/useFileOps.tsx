/**
 * Upload, download, preview and delete for a file entity (metadata "file"), generic over the
 * resource. Uploading a name that already exists under the same owner answers 409
 * error.fileExists: the user is asked whether to overwrite, and the upload is sent again with
 * overwrite=true only when they agree.
 */
import { useCallback, useState, type ReactElement } from 'react';
import { Confirm, useDataProvider, useNotify, useRefresh, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import type { PortalDataProvider } from '../../providers/dataProvider.ts';
import { errorCode, useNotifyError, type ServerError } from '../errors.ts';

export interface FileOps {
  /**
   * A hidden file input whose chosen file is uploaded with `data` (e.g. { noticeId: 3 }); put it
   * inside a <Button component="label"> so the button opens the browser's file picker.
   */
  input: (data: Record<string, unknown>) => ReactElement;
  upload: (file: File, data: Record<string, unknown>, overwrite?: boolean) => Promise<void>;
  download: (id: Identifier) => Promise<void>;
  preview: (id: Identifier) => Promise<void>;
  remove: (record: RaRecord) => void;
  /** the dialogs (overwrite question, delete confirmation): render once */
  element: ReactElement;
  busy: boolean;
}

export function useFileOps(resource: string, onChange?: () => void): FileOps {
  const dp = useDataProvider<PortalDataProvider>();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const refresh = useRefresh();
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const [overwrite, setOverwrite] = useState<{ file: File; data: Record<string, unknown>; message: string } | null>(null);
  const [removing, setRemoving] = useState<RaRecord | null>(null);

  const done = useCallback(() => {
    refresh();
    onChange?.();
  }, [refresh, onChange]);

  const upload = useCallback(
    async (file: File, data: Record<string, unknown>, force = false) => {
      setBusy(true);
      try {
        await dp.upload(resource, { data, file, overwrite: force });
        notify('message.uploadSuccess', { type: 'success' });
        done();
      } catch (e) {
        if (!force && errorCode(e) === 'error.fileExists') {
          setOverwrite({ file, data, message: (e as ServerError).body?.message || translate('error.fileExists') });
        } else notifyError(e);
      } finally {
        setBusy(false);
      }
    },
    [dp, resource, notify, notifyError, done, translate],
  );

  const input = (data: Record<string, unknown>) => (
    <input
      type="file"
      hidden
      data-testid={`upload-input-${resource}`}
      onClick={(e) => {
        // choosing the same file again must fire change again
        (e.target as HTMLInputElement).value = '';
      }}
      onChange={(e) => {
        const f = e.target.files?.[0];
        // cleared at once: picking the same file again (the overwrite case) must change it again
        e.target.value = '';
        if (f) void upload(f, data);
      }}
    />
  );

  const download = useCallback(
    async (id: Identifier) => {
      try {
        await dp.download(resource, id);
      } catch (e) {
        notifyError(e);
      }
    },
    [dp, resource, notifyError],
  );

  const preview = useCallback(
    async (id: Identifier) => {
      // open the tab first (a popup must come from the click), then point it at the file
      const win = window.open('', '_blank');
      try {
        const { data } = await dp.download(resource, id, { inline: true });
        const url = URL.createObjectURL(data.blob);
        if (win) win.location.href = url;
        else window.open(url, '_blank');
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      } catch (e) {
        win?.close();
        notifyError(e);
      }
    },
    [dp, resource, notifyError],
  );

  const confirmRemove = useCallback(async () => {
    if (!removing) return;
    setBusy(true);
    try {
      await dp.delete(resource, { id: removing.id, previousData: removing });
      notify('message.deleteSuccess', { type: 'success' });
      setRemoving(null);
      done();
    } catch (e) {
      notifyError(e);
    } finally {
      setBusy(false);
    }
  }, [dp, resource, removing, notify, notifyError, done]);

  const element = (
    <>
      <Confirm
        isOpen={!!overwrite}
        loading={busy}
        title="message.overwriteFile"
        content={overwrite?.message ?? ''}
        confirm="message.overwriteFile"
        onConfirm={() => {
          const o = overwrite!;
          setOverwrite(null);
          void upload(o.file, o.data, true);
        }}
        onClose={() => setOverwrite(null)}
      />
      <Confirm
        isOpen={!!removing}
        loading={busy}
        title="button.delete"
        content="message.confirmAction"
        onConfirm={() => void confirmRemove()}
        onClose={() => setRemoving(null)}
      />
    </>
  );

  return { input, upload, download, preview, remove: setRemoving, element, busy };
}
