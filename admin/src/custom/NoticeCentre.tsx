/**
 * The notice centre on the dashboard (spec 2): the active notices, newest first, each with its
 * content and attachments (file name, size, uploader, upload time, download); 'No Announcement!'
 * when there is none. Columns and the attachment relation come from the dashboard screen's
 * metadata; only the layout (one expandable card per notice) is special.
 */
import { useMemo, useState, type ReactElement } from 'react';
import { Accordion, AccordionDetails, AccordionSummary, Box, CircularProgress, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useGetList, useLocaleState, useTranslate, type Identifier, type RaRecord } from 'react-admin';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { useLeanColumns } from '../screens/columns.ts';
import { useFileOps } from '../screens/files/useFileOps.tsx';
import { makeFormatter } from '../screens/format.ts';
import { entityOfResource, metadata } from '../screens/meta.ts';
import { ScreenHeader } from '../screens/ScreenHeader.tsx';
import { HomeTiles } from '../screens/home/HomeTiles.tsx';
import { HomeCharts } from '../screens/home/HomeCharts.tsx';
import { LeanTable, type LeanRecord } from '../screens/table/LeanTable.tsx';
import { useMobileMode } from '../layout/mobile.ts';

/** the stored code of the notice status "active" (metadata speaks in keys, the API in codes) */
const activeCode = (): string | undefined => metadata.codeTables.noticeStatus?.values.find((v) => v.key === 'active')?.code;

type Relation = CompiledScreen['related'][number];

function Attachments({ relation, noticeId }: { relation: Relation; noticeId: Identifier }): ReactElement {
  const translate = useTranslate();
  // a phone: identifiers first, the operation column not pinned
  const compact = useMobileMode();
  const entity = entityOfResource(relation.resource);
  const columns = useLeanColumns(entity, relation.columns);
  const files = useFileOps(relation.resource);
  const { data, isPending } = useGetList(relation.resource, {
    filter: { [relation.target]: noticeId },
    pagination: { page: 1, perPage: metadata.app.maxPageSize },
    sort: entity?.defaultSort ?? { field: 'id', order: 'ASC' },
  });
  const label = translate('button.download');
  const rowActions = useMemo(() => () => [{ name: 'download', label }], [label]);
  if (isPending) return <CircularProgress size={16} />;
  if (!data?.length) return <></>;
  return (
    <Box sx={{ mt: 1.5 }}>
      <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
        {translate('ui.attachments')}
      </Typography>
      <LeanTable
        compact={compact}
        testId={`notice-attachments-${noticeId}`}
        columns={columns}
        rows={data as LeanRecord[]}
        rowActions={rowActions}
        onRowAction={(_, r) => void files.download(r.id)}
        actionsLabel={translate('ui.actions')}
        actionsWidth={90}
        maxHeight={260}
      />
      {files.element}
    </Box>
  );
}

export default function NoticeCentre({ screen }: { screen: CompiledScreen }): ReactElement {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const entity = entityOfResource(screen.resource);
  const relation = screen.related[0];
  const active = activeCode();
  const { data, isPending } = useGetList<RaRecord>(screen.resource ?? 'notices', {
    filter: active !== undefined ? { status: active } : {},
    pagination: { page: 1, perPage: 50 },
    // newest publication first (the screen's sort: publishedAt, set on create and on every activation)
    sort: screen.defaultSort ?? { field: 'createdAt', order: 'DESC' },
  });
  const [open, setOpen] = useState<Identifier | null | undefined>(undefined);
  const titleField = screen.columns[0]?.field ?? entity?.titleField ?? 'title';
  const timeCol = screen.columns[1];
  const timeFmt = useMemo(
    () => makeFormatter(timeCol ? entity?.fields[timeCol.field] : undefined, timeCol?.format ?? 'datetime', translate, locale),
    [timeCol, entity, translate, locale],
  );
  // the newest notice starts open
  const expanded = open === undefined ? data?.[0]?.id : open;

  return (
    <Box sx={{ p: 1 }} data-testid={`screen-${screen.name}`}>
      <ScreenHeader screen={screen} />
      <HomeTiles screen={screen} />
      <HomeCharts screen={screen} />
      <Box data-testid="notice-centre">
        {isPending ? (
          <CircularProgress size={24} />
        ) : !data?.length ? (
          <Typography sx={{ p: 4, textAlign: 'center' }} color="text.secondary" data-testid="no-announcement">
            {translate('message.noAnnouncement')}
          </Typography>
        ) : (
          data.map((n) => (
            <Accordion
              key={n.id}
              expanded={expanded === n.id}
              onChange={(_, isOpen) => setOpen(isOpen ? n.id : null)}
              disableGutters
              data-testid="notice-item"
              slotProps={{ transition: { unmountOnExit: true } }}
            >
              <AccordionSummary expandIcon={<ExpandMoreIcon />}>
                <Typography sx={{ fontWeight: 600, mr: 2, flex: 1 }} data-testid="notice-title">
                  {String(n[titleField] ?? '')}
                </Typography>
                {timeCol && (
                  <Typography variant="body2" color="text.secondary" data-testid="notice-time">
                    {timeFmt(n[timeCol.field] ?? n.createdAt)}
                  </Typography>
                )}
              </AccordionSummary>
              <AccordionDetails>
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }} data-testid="notice-content">
                  {String(n.content ?? '')}
                </Typography>
                {relation && <Attachments relation={relation} noticeId={n.id} />}
              </AccordionDetails>
            </Accordion>
          ))
        )}
      </Box>
    </Box>
  );
}
