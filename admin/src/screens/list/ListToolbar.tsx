/**
 * The buttons above a list: add, edit, delete, the entity actions, upload (to the file child of
 * the chosen row) and export. A button exists only when the screen declares it and the user holds
 * the permission; record buttons are enabled only when every selected row's state allows them.
 */
import { useState, type ReactElement } from 'react';
import { Box, Button, Typography } from '@mui/material';
import { Confirm, useDataProvider, useNotify, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import type { CompiledAction, CompiledEntity, CompiledScreen } from '../../../../codegen/runtime/model.ts';
import type { PortalDataProvider } from '../../providers/dataProvider.ts';
import { mayAction, mayButton } from '../access.ts';
import { useNotifyError } from '../errors.ts';

export interface ListToolbarProps {
  screen: CompiledScreen;
  entity: CompiledEntity;
  actions: readonly CompiledAction[];
  selected: readonly RaRecord[];
  onAdd?: () => void;
  onEdit?: (r: RaRecord) => void;
  onAction: (a: CompiledAction, records: readonly RaRecord[]) => void;
  /** the file input uploading to the chosen row's file child (screen with a file relation) */
  uploadInput?: (r: RaRecord) => ReactElement;
  /** whether the chosen row takes files in its state (access.ts parentTakesFiles) */
  uploadAllowed?: (r: RaRecord) => boolean;
  exportParams: () => { filter: Record<string, unknown>; sort: { field: string; order: string } };
  onDeleted: () => void;
}

export function ListToolbar(p: ListToolbarProps): ReactElement {
  const { screen, entity, actions, selected } = p;
  const translate = useTranslate();
  const dp = useDataProvider<PortalDataProvider>();
  const notify = useNotify();
  const notifyError = useNotifyError();
  const refresh = useRefresh();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [busy, setBusy] = useState(false);
  const res = entity.resource;
  const one = selected.length === 1 ? selected[0] : undefined;

  const canAdd = !!p.onAdd && mayButton(screen, 'add', res, 'create');
  const showEdit = !!p.onEdit && mayButton(screen, 'edit', res, 'edit');
  const canEditOne = showEdit && !!one && mayButton(screen, 'edit', res, 'edit', one);
  const showDelete = mayButton(screen, 'delete', res, 'delete');
  const canDelete = showDelete && selected.length > 0 && selected.every((r) => mayButton(screen, 'delete', res, 'delete', r));
  const showExport = mayButton(screen, 'export', res, 'export');
  const showUpload = !!p.uploadInput;

  const doDelete = async () => {
    setBusy(true);
    try {
      await dp.deleteMany(res, { ids: selected.map((r) => r.id) });
      notify('message.deleteSuccess', { type: 'success' });
      setConfirmDelete(false);
      p.onDeleted();
      refresh();
    } catch (e) {
      notifyError(e);
    } finally {
      setBusy(false);
    }
  };
  const doExport = async () => {
    setBusy(true);
    try {
      await dp.exportList(res, { ...p.exportParams(), screen: screen.name });
    } catch (e) {
      notifyError(e);
    } finally {
      setBusy(false);
    }
  };

  const btn = (key: string, label: string, onClick: () => void, enabled = true, variant: 'contained' | 'outlined' = 'outlined') => (
    <Button key={key} size="small" variant={variant} disabled={!enabled || busy} onClick={onClick} data-testid={`btn-${key}`}>
      {label}
    </Button>
  );

  const actionButtons = actions
    .filter((a) => mayAction(screen, res, a))
    .map((a) => {
      if (a.collection) return btn(a.name, translate(a.labelKey), () => p.onAction(a, []));
      const enabled = selected.length > 0 && (a.bulk || selected.length === 1) && selected.every((r) => mayAction(screen, res, a, r));
      return btn(a.name, translate(a.labelKey), () => p.onAction(a, selected), enabled);
    });

  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 1 }} data-testid="list-toolbar">
      {canAdd && btn('add', translate('button.add'), () => p.onAdd!(), true, 'contained')}
      {showEdit && btn('edit', translate('button.edit'), () => p.onEdit!(one!), canEditOne)}
      {showDelete && btn('delete', translate('button.delete'), () => setConfirmDelete(true), canDelete)}
      {actionButtons}
      {showUpload && (
        <Button size="small" variant="outlined" component="label" disabled={!one || busy || (p.uploadAllowed && !p.uploadAllowed(one))} data-testid="btn-upload">
          {translate('button.upload')}
          {one && p.uploadInput!(one)}
        </Button>
      )}
      {showExport && btn('export', translate('button.export'), () => void doExport())}
      {selected.length > 0 && (
        <Typography variant="caption" color="text.secondary" data-testid="selected-count">
          {translate('ui.selected', { count: selected.length })}
        </Typography>
      )}
      <Confirm isOpen={confirmDelete} loading={busy} title="button.delete" content="message.confirmAction" onConfirm={() => void doDelete()} onClose={() => setConfirmDelete(false)} />
    </Box>
  );
}
