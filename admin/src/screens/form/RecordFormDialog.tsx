/**
 * Add / edit in a dialog, for list screens that carry their own `form` (no separate edit route).
 */
import type { ReactElement } from 'react';
import { Button, Dialog, DialogContent, DialogTitle } from '@mui/material';
import { useRefresh, useTranslate, type RaRecord } from 'react-admin';
import type { CompiledEntity } from '../../../../codegen/runtime/model.ts';
import { RecordForm } from './RecordForm.tsx';

export interface RecordFormDialogProps {
  entity: CompiledEntity;
  fieldNames: readonly string[];
  record?: RaRecord;
  canSave: boolean;
  onClose: () => void;
}

export function RecordFormDialog({ entity, fieldNames, record, canSave, onClose }: RecordFormDialogProps): ReactElement {
  const translate = useTranslate();
  const refresh = useRefresh();
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="record-form-dialog">
      <DialogTitle>
        {translate(record ? 'ui.editTitle' : 'ui.createTitle')} · {translate(entity.labelKey)}
      </DialogTitle>
      <DialogContent sx={{ pt: '8px !important' }}>
        <RecordForm
          entity={entity}
          fieldNames={fieldNames}
          record={record}
          canSave={canSave}
          onSaved={() => {
            refresh();
            onClose();
          }}
          buttons={
            <Button size="small" onClick={onClose} data-testid="btn-cancel">
              {translate('ra.action.cancel')}
            </Button>
          }
        />
      </DialogContent>
    </Dialog>
  );
}
