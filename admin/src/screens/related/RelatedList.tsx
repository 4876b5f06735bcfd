/**
 * A child list of one record, from screen.related ({ resource, target, columns }): the children
 * whose `target` field points at the parent. When the child entity holds files, the screen's
 * upload / download / delete buttons act on it (with the overwrite question), and images and PDFs
 * can be previewed.
 */
import { useCallback, useMemo, type ReactElement } from 'react';
import { Box, Button, Typography } from '@mui/material';
import { useGetList, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import type { CompiledScreen } from '../../../../codegen/runtime/model.ts';
import { mayButton, parentTakesFiles } from '../access.ts';
import { useLeanColumns } from '../columns.ts';
import { entityOfResource, metadata } from '../meta.ts';
import { useFileOps } from '../files/useFileOps.tsx';
import { LeanTable, type LeanRecord, type RowAction } from '../table/LeanTable.tsx';
import { actionsWidth } from '../table/actionsWidth.ts';
import { useMobileMode } from '../../layout/mobile.ts';

type Relation = CompiledScreen['related'][number];

export interface RelatedListProps {
  screen: CompiledScreen;
  relation: Relation;
  parentId: Identifier;
  /** the parent record: its state decides whether files may change (access.ts parentTakesFiles) */
  parent?: RaRecord;
  /** hide upload/delete (e.g. a read-only view) */
  readOnly?: boolean;
}

const PREVIEWABLE = /^(image\/|application\/pdf)/;

export function RelatedList({ screen, relation, parentId, parent, readOnly }: RelatedListProps): ReactElement | null {
  const translate = useTranslate();
  // a phone: identifiers first, the operation column not pinned
  const compact = useMobileMode();
  const entity = entityOfResource(relation.resource);
  const { data, isPending } = useGetList(relation.resource, {
    filter: { [relation.target]: parentId },
    pagination: { page: 1, perPage: metadata.app.maxPageSize },
    sort: entity?.defaultSort ?? { field: 'id', order: 'ASC' },
  });
  const columns = useLeanColumns(entity, relation.columns, false, data as LeanRecord[] | undefined);
  const files = useFileOps(relation.resource);
  const isFile = !!entity?.file;
  const filesMayChange = !readOnly && parentTakesFiles(entity, parent);
  const canUpload = isFile && filesMayChange && mayButton(screen, 'upload', relation.resource, 'upload');
  const canDownload = isFile && mayButton(screen, 'download', relation.resource, 'download');
  const canDelete = isFile && filesMayChange && mayButton(screen, 'delete', relation.resource, 'delete');
  const labels = useMemo(() => ({ download: translate('button.download'), preview: translate('ui.preview'), delete: translate('button.delete') }), [translate]);

  const rowActions = useCallback(
    (r: LeanRecord): RowAction[] => {
      const out: RowAction[] = [];
      if (canDownload) out.push({ name: 'download', label: labels.download });
      if (canDownload && typeof r.mimeType === 'string' && PREVIEWABLE.test(r.mimeType)) out.push({ name: 'preview', label: labels.preview });
      // a grant may be limited to some rows (a supplier deletes only its own evidence)
      if (canDelete && mayButton(screen, 'delete', relation.resource, 'delete', r)) out.push({ name: 'delete', label: labels.delete });
      return out;
    },
    [canDownload, canDelete, labels, screen, relation.resource],
  );
  // room for every button a row may show (Delete was cut off in English)
  const width = useMemo(
    () => actionsWidth([...(canDownload ? [labels.download, labels.preview] : []), ...(canDelete ? [labels.delete] : [])]),
    [canDownload, canDelete, labels],
  );
  const onRowAction = useCallback(
    (name: string, r: LeanRecord) => {
      if (name === 'download') void files.download(r.id);
      else if (name === 'preview') void files.preview(r.id);
      else if (name === 'delete') files.remove(r as RaRecord);
    },
    [files],
  );

  if (!entity) return null;
  const title = translate(relation.titleKey || entity.labelKey, { _: entity.name });
  return (
    <Box sx={{ mt: 2 }} data-testid={`related-${relation.resource}`}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}>
        <Typography variant="subtitle2" sx={{ mr: 'auto' }}>
          {title}
        </Typography>
        {canUpload && (
          <Button size="small" variant="outlined" component="label" disabled={files.busy} data-testid={`btn-upload-${relation.resource}`}>
            {translate('button.upload')}
            {files.input({ [relation.target]: parentId })}
          </Button>
        )}
      </Box>
      <LeanTable
        compact={compact}
        // a child list is short and often shown in the narrow side panel: its columns fit their values
        fitContent
        testId={`related-table-${relation.resource}`}
        columns={columns}
        rows={(data ?? []) as LeanRecord[]}
        rowActions={isFile && (canDownload || canDelete) ? rowActions : undefined}
        onRowAction={onRowAction}
        actionsLabel={translate('ui.actions')}
        actionsWidth={width}
        emptyText={isPending ? '' : translate('ui.noData')}
        maxHeight={320}
      />
      {files.element}
    </Box>
  );
}
