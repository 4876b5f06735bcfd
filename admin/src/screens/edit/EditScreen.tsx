/**
 * An edit screen (kind "edit"): `?id=<id>` edits that record, no id creates one. The form comes
 * from screen.form; the buttons are the screen's permission buttons: save, the entity actions
 * (enabled by the record's state, run on the saved record) and back to the list screen. Child
 * lists (screen.related, e.g. attachments with upload/download/delete) appear once the record
 * exists; after a create the page switches to the new record's id so they can be added at once.
 */
import type { ReactElement } from 'react';
import { Alert, Box, Button, CircularProgress, Paper, Typography } from '@mui/material';
import { useGetOne, useNavigate, useTranslate, type RaRecord } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import type { CompiledScreen } from '../../../../codegen/runtime/model.ts';
import { mayAction, mayButton } from '../access.ts';
import { useActionRunner } from '../actions/useActionRunner.tsx';
import { RecordForm } from '../form/RecordForm.tsx';
import { navigateAfterSave, RecordActionButtons, WithReason } from '../form/UnsavedChanges.tsx';
import { actionsForButtons, screenByName, screenEntity } from '../meta.ts';
import { RelatedList } from '../related/RelatedList.tsx';
import { ScreenHeader } from '../ScreenHeader.tsx';
import { RecordHistory } from '../history/RecordHistory.tsx';

export function EditScreen({ screen }: { screen: CompiledScreen }): ReactElement {
  const entity = screenEntity(screen);
  const translate = useTranslate();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const { data: record, isPending, error } = useGetOne<RaRecord>(entity.resource, { id: id ?? '' }, { enabled: !!id });
  const runner = useActionRunner(entity);
  const listScreen = screenByName(screen.listScreen);
  const res = entity.resource;
  const actions = actionsForButtons(entity, screen.buttons).filter((a) => !a.collection);

  const back = () => (listScreen ? navigate(listScreen.path) : navigate(-1));
  const backButton = (
    <Button size="small" variant="outlined" onClick={back} data-testid="btn-back">
      {translate('ui.back')}
    </Button>
  );

  if (id && isPending) return <CircularProgress size={24} sx={{ m: 3 }} />;
  if (id && (error || !record)) {
    return (
      <Box sx={{ p: 2 }}>
        <ScreenHeader screen={screen}>{backButton}</ScreenHeader>
        <Typography color="error">{translate('error.notFound')}</Typography>
      </Box>
    );
  }

  const canSave = record ? mayButton(screen, 'save', res, 'edit', record) : mayButton(screen, 'save', res, 'create') || mayButton(screen, 'add', res, 'create');
  // an action's button exists only while the record's state allows it (docs/design.md 3.10); it acts on
  // the record as saved, so unsaved changes disable it with the reason (form/UnsavedChanges.tsx)
  const actionButtons = record ? (
    <RecordActionButtons>
      {(blockedReason) =>
        actions
          .filter((a) => mayAction(screen, res, a, record))
          .map((a) => {
            const label = translate(a.labelKey);
            const reason = blockedReason(label);
            return (
              <WithReason key={a.name} reason={reason} testId={`btn-${a.name}-reason`}>
                <Button
                  size="small"
                  variant="outlined"
                  disabled={runner.busy || !!reason}
                  onClick={() => runner.start(a, [record])}
                  data-testid={`btn-${a.name}`}
                >
                  {label}
                </Button>
              </WithReason>
            );
          })
      }
    </RecordActionButtons>
  ) : null;

  return (
    <Box sx={{ p: 1 }} data-testid={`screen-${screen.name}`}>
      <ScreenHeader screen={screen} />
      {record && entity.softDelete && record[entity.softDelete] === true && (
        <Alert severity="warning" sx={{ mb: 1 }} data-testid="record-deleted">
          {translate('error.recordDeleted')}
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <RecordForm
          entity={entity}
          fieldNames={screen.form}
          record={record}
          canSave={canSave}
          onSaved={(saved) => {
            if (!record) navigateAfterSave(() => setParams({ id: String(saved.id) }, { replace: true }));
          }}
          buttons={
            <>
              {actionButtons}
              {backButton}
            </>
          }
        />
      </Paper>
      {record && <RecordHistory resource={res} id={record.id} />}
      {screen.related.map((rel) =>
        record ? (
          <RelatedList key={rel.resource} screen={screen} relation={rel} parentId={record.id} parent={record} />
        ) : (
          <Typography key={rel.resource} variant="caption" color="text.secondary" sx={{ display: 'block', mt: 2 }}>
            {translate('ui.saveFirst')}
          </Typography>
        ),
      )}
      {runner.element}
    </Box>
  );
}
