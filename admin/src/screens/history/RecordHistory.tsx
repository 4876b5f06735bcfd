/**
 * A record's history (timeline) under its edit or show screen and in a list's row panel: who
 * changed it when, by which operation, which fields from what to what, and the files added and
 * removed. The server answers it in the user's language, scoped like the record
 * (GET /api/history/<resource>/<id>, server/home/history.ts). Closed until asked for: most visits
 * never need it, so it costs no request until then.
 */
import { useState, type ReactElement } from 'react';
import { Box, Button, CircularProgress, Paper, Typography } from '@mui/material';
import HistoryIcon from '@mui/icons-material/History';
import { useQuery } from '@tanstack/react-query';
import { useLocaleState, useTranslate, type Identifier } from 'react-admin';
import type { HistoryEntry } from '../../../../codegen/runtime/history.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { makeFormatter } from '../format.ts';

type Entry = HistoryEntry;

function Timeline({ resource, id }: { resource: string; id: Identifier }): ReactElement {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data, isPending, isError } = useQuery({
    queryKey: ['recordHistory', resource, String(id), locale],
    queryFn: async () => (await httpClient(`/api/history/${resource}/${encodeURIComponent(String(id))}`)).json as Entry[],
    retry: false, // a 401 raises the login-timeout dialog once; a retry would raise it again after Cancel
  });
  const time = makeFormatter(undefined, 'datetime', translate, locale);
  if (isPending) return <CircularProgress size={18} />;
  if (isError) return <Typography color="error">{translate('ra.notification.http_error')}</Typography>;
  if (!data.length)
    return (
      <Typography variant="body2" color="text.secondary" data-testid="history-empty">
        {translate('history.empty')}
      </Typography>
    );
  return (
    <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid="history-list">
      {data.map((e, i) => (
        <Box
          component="li"
          key={i}
          sx={{ borderLeft: 2, borderColor: 'primary.light', pl: 1.5, pb: 1.5 }}
          data-testid="history-entry"
          data-operation={e.operation}
        >
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {e.operationLabel}
            {e.fileName ? `: ${e.fileName}` : ''}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {time(e.at)} · {translate('history.by', { user: e.userName })}
          </Typography>
          {e.changes.length > 0 && (
            <Box component="ul" sx={{ m: 0, pl: 2 }}>
              {e.changes.map((c) => (
                <Typography component="li" variant="body2" key={c.field} data-testid="history-change" data-field={c.field}>
                  {c.label}: {translate('history.from')} “{c.before ?? '—'}” {translate('history.to')} “{c.after ?? '—'}”
                </Typography>
              ))}
            </Box>
          )}
        </Box>
      ))}
    </Box>
  );
}

export function RecordHistory({ resource, id }: { resource: string; id: Identifier }): ReactElement {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <Paper variant="outlined" sx={{ p: 1, mt: 1.5 }} data-testid="record-history">
      <Button size="small" startIcon={<HistoryIcon />} aria-expanded={open} onClick={() => setOpen(!open)} data-testid="history-toggle">
        {translate('history.button')}
      </Button>
      {open && (
        <Box sx={{ mt: 1 }}>
          <Timeline resource={resource} id={id} />
        </Box>
      )}
    </Paper>
  );
}
