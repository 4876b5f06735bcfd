/**
 * A show screen (kind "show", `?id=<id>`): the record's screen.columns as label/value pairs, the
 * entity actions the screen declares (enabled by the record's state, each with its generated
 * dialog), the child lists (attachments: download, preview) and back to the list screen.
 */
import { useMemo, type ReactElement } from 'react';
import { Box, Button, CircularProgress, Paper, Typography } from '@mui/material';
import { useGetOne, useLocaleState, useNavigate, useTranslate, type RaRecord } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import type { CompiledScreen } from '../../../../codegen/runtime/model.ts';
import { mayAction } from '../access.ts';
import { useActionRunner } from '../actions/useActionRunner.tsx';
import { makeFormatter } from '../format.ts';
import { shownValue } from '../../../../codegen/runtime/person-name.ts';
import { useReferenceTitles } from '../references.ts';
import { actionsForButtons, screenByName, screenEntity } from '../meta.ts';
import { RelatedList } from '../related/RelatedList.tsx';
import { ScreenHeader } from '../ScreenHeader.tsx';
import { RecordHistory } from '../history/RecordHistory.tsx';

export function ShowScreen({ screen }: { screen: CompiledScreen }): ReactElement {
  const entity = screenEntity(screen);
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id');
  const { data: record, isPending, error } = useGetOne<RaRecord>(entity.resource, { id: id ?? '' }, { enabled: !!id });
  const runner = useActionRunner(entity);
  const listScreen = screenByName(screen.listScreen);
  const res = entity.resource;
  const actions = actionsForButtons(entity, screen.buttons).filter((a) => !a.collection && mayAction(screen, res, a));
  const shownFields = useMemo(() => screen.columns.map((c) => c.field), [screen]);
  const titles = useReferenceTitles(
    entity,
    shownFields,
    useMemo(() => (record ? [record] : undefined), [record]),
  );
  const items = useMemo(
    () =>
      screen.columns.map((c) => ({
        key: c.field,
        label: translate(c.labelKey, { _: c.field }),
        fmt: makeFormatter(entity.fields[c.field], c.format, translate, locale, titles[c.field]),
        // long texts (and JSON such as an interface message's payload) take the whole row
        wide: (entity.fields[c.field]?.maxLength ?? 0) >= 500 || entity.fields[c.field]?.type === 'text' || c.format === 'json',
        mono: c.format === 'json',
      })),
    [screen, entity, translate, locale, titles],
  );

  const backButton = (
    <Button size="small" variant="outlined" onClick={() => (listScreen ? navigate(listScreen.path) : navigate(-1))} data-testid="btn-back">
      {translate('ui.back')}
    </Button>
  );

  let body: ReactElement;
  if (!id || error || (!isPending && !record)) body = <Typography color="error">{translate('error.notFound')}</Typography>;
  else if (isPending || !record) body = <CircularProgress size={24} />;
  else
    body = (
      <>
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Box
            component="dl"
            sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' }, columnGap: 3, rowGap: 1, m: 0 }}
            data-testid="record-detail"
          >
            {items.map((it) => (
              <Box key={it.key} sx={{ display: 'flex', gap: 1, minWidth: 0, ...(it.wide ? { gridColumn: '1 / -1' } : {}) }} data-testid={`detail-${it.key}`}>
                <Typography component="dt" variant="body2" color="text.secondary" sx={{ flex: '0 0 auto', minWidth: 96 }}>
                  {it.label}
                </Typography>
                <Typography
                  component="dd"
                  variant="body2"
                  sx={{
                    m: 0,
                    wordBreak: 'break-word',
                    whiteSpace: 'pre-wrap',
                    ...(it.mono ? { fontFamily: 'monospace', fontSize: 12, maxHeight: 360, overflow: 'auto', flex: 1 } : {}),
                  }}
                >
                  {it.fmt(shownValue(entity.fields[it.key], record, it.key)) || '—'}
                </Typography>
              </Box>
            ))}
          </Box>
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 2 }}>
            {actions
              .filter((a) => mayAction(screen, res, a, record))
              .map((a) => (
                <Button
                  key={a.name}
                  size="small"
                  variant="outlined"
                  disabled={runner.busy}
                  onClick={() => runner.start(a, [record])}
                  data-testid={`btn-${a.name}`}
                >
                  {translate(a.labelKey)}
                </Button>
              ))}
            {backButton}
          </Box>
        </Paper>
        <RecordHistory resource={res} id={record.id} />
        {screen.related.map((rel) => (
          <RelatedList key={rel.resource} screen={screen} relation={rel} parentId={record.id} parent={record} />
        ))}
      </>
    );

  return (
    <Box sx={{ p: 1 }} data-testid={`screen-${screen.name}`}>
      <ScreenHeader screen={screen} />
      {body}
      {runner.element}
    </Box>
  );
}
