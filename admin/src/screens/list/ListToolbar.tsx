/**
 * The buttons above a list: add, edit, delete, the entity actions, upload (to the file child of
 * the chosen row) and export. A button exists only when the screen declares it and the user holds
 * the permission. A record button pressed with no row selected, or with several where it takes
 * one, answers with the spec's messages (error.noRecordSelected, error.onlyOneRecord: spec points
 * 5 and 8); it is disabled only when a selected row's state forbids it, and then its tooltip says
 * why (the state message the server would answer).
 */
import { useState, type ReactElement } from 'react';
import { Box, Button, Tooltip, Typography } from '@mui/material';
import { Confirm, useDataProvider, useNotify, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import type { CompiledAction, CompiledEntity, CompiledScreen } from '../../../../codegen/runtime/model.ts';
import type { PortalDataProvider } from '../../providers/dataProvider.ts';
import { actionRefusal, mayAction, mayButton, translatedLabels } from '../access.ts';
import { useNotifyError } from '../errors.ts';

/** why a button is disabled: an i18n key, with its arguments when it names records */
type Refusal = string | { key: string; args?: Record<string, string> };

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
  /** the search found no rows: Export says so instead of downloading an empty sheet */
  nothingToExport?: boolean;
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
  const showDelete = mayButton(screen, 'delete', res, 'delete');
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
    if (p.nothingToExport) {
      notify('ui.nothingToExport', { type: 'warning' });
      return;
    }
    setBusy(true);
    try {
      await dp.exportList(res, { ...p.exportParams(), screen: screen.name });
    } catch (e) {
      notifyError(e);
    } finally {
      setBusy(false);
    }
  };

  /** `forbidden`: why a selected row refuses the button, an i18n key (with its arguments); the button is disabled and its tooltip says it */
  const btn = (key: string, label: string, onClick: () => void, forbidden?: Refusal, variant: 'contained' | 'outlined' = 'outlined') => {
    const button = (
      <Button key={key} size="small" variant={variant} disabled={!!forbidden || busy} onClick={onClick} data-testid={`btn-${key}`}>
        {label}
      </Button>
    );
    if (!forbidden) return button;
    // a disabled button fires no events: the tooltip listens on a wrapper
    return (
      <Tooltip
        key={key}
        title={typeof forbidden === 'string' ? translate(forbidden) : translate(forbidden.key, translatedLabels(forbidden.args, translate))}
        arrow
        describeChild
      >
        <span data-testid={`btn-${key}-reason`}>{button}</span>
      </Tooltip>
    );
  };
  /** Runs `run` on the selection when its size suits the button, otherwise says what is wrong. */
  const withSelection = (many: boolean, run: (rows: readonly RaRecord[]) => void) => () => {
    if (!selected.length) notify('error.noRecordSelected', { type: 'warning' });
    else if (!many && selected.length > 1) notify('error.onlyOneRecord', { type: 'warning' });
    else run(selected);
  };
  const stateForbids = (allowed: (r: RaRecord) => boolean, key: string): string | undefined => (selected.length && !selected.every(allowed) ? key : undefined);

  const actionButtons = actions
    .filter((a) => mayAction(screen, res, a))
    .map((a) => {
      if (a.collection) return btn(a.name, translate(a.labelKey), () => p.onAction(a, []));
      return btn(
        a.name,
        translate(a.labelKey),
        withSelection(a.bulk, (rows) => p.onAction(a, rows)),
        // the real reason: a line of another supplier says so, not "not allowed in this status"
        actionRefusal(screen, entity, a, selected),
      );
    });

  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 1 }} data-testid="list-toolbar">
      {canAdd && btn('add', translate('button.add'), () => p.onAdd!(), undefined, 'contained')}
      {showEdit &&
        btn(
          'edit',
          translate('button.edit'),
          withSelection(false, (rows) => p.onEdit!(rows[0])),
          stateForbids((r) => mayButton(screen, 'edit', res, 'edit', r), 'error.editNotAllowed'),
        )}
      {showDelete &&
        btn(
          'delete',
          translate('button.delete'),
          withSelection(true, () => setConfirmDelete(true)),
          stateForbids((r) => mayButton(screen, 'delete', res, 'delete', r), 'error.deleteNotAllowed'),
        )}
      {actionButtons}
      {showUpload &&
        (one && !(p.uploadAllowed && !p.uploadAllowed(one)) ? (
          <Button size="small" variant="outlined" component="label" disabled={busy} data-testid="btn-upload">
            {translate('button.upload')}
            {p.uploadInput!(one)}
          </Button>
        ) : one ? (
          // the chosen row's state takes no files (a confirmed receipt keeps its document)
          btn('upload', translate('button.upload'), () => undefined, 'error.fileNotAllowed')
        ) : (
          btn(
            'upload',
            translate('button.upload'),
            withSelection(false, () => undefined),
          )
        ))}
      {showExport && btn('export', translate('button.export'), () => void doExport())}
      {selected.length > 0 && (
        <Typography variant="caption" color="text.secondary" data-testid="selected-count">
          {translate('ui.selected', { count: selected.length })}
        </Typography>
      )}
      <Confirm
        isOpen={confirmDelete}
        loading={busy}
        title="button.delete"
        content="message.confirmAction"
        onConfirm={() => void doDelete()}
        onClose={() => setConfirmDelete(false)}
      />
    </Box>
  );
}
