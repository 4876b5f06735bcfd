/**
 * The bell in the header: the unread count and the newest notifications of the user's audience
 * (GET /api/notifications), each opening its record; read marks per account. New ones arrive by
 * themselves: the page holds a Server-Sent Events stream (GET /api/notifications/stream, read with
 * fetch so the token goes in the Authorization header, not the address) whose "changed" events
 * make it read the feed again; after a reconnect it reads the feed too, so nothing is missed.
 */
import { useEffect, useState, type ReactElement } from 'react';
import { Badge, Box, Button, Divider, IconButton, Menu, MenuItem, Tooltip, Typography } from '@mui/material';
import NotificationsIcon from '@mui/icons-material/Notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocaleState, useNavigate, useTranslate } from 'react-admin';
import { httpClient } from '../providers/httpClient.ts';
import { currentLocale } from '../providers/i18nProvider.ts';
import { getToken } from '../providers/storage.ts';
import { makeFormatter } from '../screens/format.ts';

interface Feed {
  unread: number;
  items: { id: number; label: string; title: string | null; at: string; read: boolean; path: string }[];
}

const FEED_KEY = ['notifications'];
const RETRY_MS = { first: 1000, max: 15_000 };

/** Holds the stream while the page lives; calls `onChange` on every event and after each (re)connect. */
function useNotificationStream(onChange: () => void): boolean {
  const [live, setLive] = useState(false);
  useEffect(() => {
    const stop = new AbortController();
    void (async () => {
      let wait = RETRY_MS.first;
      while (!stop.signal.aborted) {
        const token = getToken();
        try {
          if (!token) throw new Error('no session');
          const res = await fetch('/api/notifications/stream', {
            headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream', 'Accept-Language': currentLocale() },
            signal: stop.signal,
          });
          if (!res.ok || !res.body) throw new Error(`stream: ${res.status}`);
          setLive(true);
          wait = RETRY_MS.first;
          onChange(); // catch up with what happened while disconnected
          const reader = res.body.getReader();
          const decoder = new TextDecoder();
          let buffer = '';
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            buffer += decoder.decode(value, { stream: true });
            const events = buffer.split('\n\n');
            buffer = events.pop() ?? '';
            if (events.some((e) => e.split('\n').includes('event: changed'))) onChange();
          }
        } catch {
          // aborted, refused or broken: retried below
        }
        setLive(false);
        if (stop.signal.aborted) break;
        await new Promise((r) => setTimeout(r, wait));
        wait = Math.min(wait * 2, RETRY_MS.max);
      }
    })();
    return () => stop.abort();
  }, [onChange]);
  return live;
}

export function NotificationBell(): ReactElement {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [locale] = useLocaleState();
  const client = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { data } = useQuery({
    queryKey: [...FEED_KEY, locale],
    // a background read: a session that ended is the pages' business to announce (one login-timeout dialog), not the bell's
    queryFn: async () => (await httpClient('/api/notifications', { skipAuthDialog: true })).json as Feed,
  });
  const [refetch] = useState(() => () => void client.invalidateQueries({ queryKey: FEED_KEY }));
  const live = useNotificationStream(refetch);
  const time = makeFormatter(undefined, 'datetime', translate, locale);
  const unread = data?.unread ?? 0;
  const label = `${translate('bell.title')}${unread ? `: ${translate('bell.unread', { count: unread })}` : ''}`;

  const open = async (item: Feed['items'][number]) => {
    setAnchor(null);
    if (!item.read) await httpClient(`/api/notifications/${item.id}/read`, { method: 'POST', body: '{}' }).catch(() => undefined);
    refetch();
    navigate(item.path);
  };
  const readAll = async () => {
    await httpClient('/api/notifications/read-all', { method: 'POST', body: '{}' }).catch(() => undefined);
    refetch();
  };

  return (
    <>
      {/* no digit while nothing is unread: a hidden "0" would be text the accessible name lacks (axe: label-content-name-mismatch); the count is in the name */}
      <Tooltip title={`${label} · ${translate(live ? 'bell.live' : 'bell.offline')}`}>
        <IconButton onClick={(e) => setAnchor(e.currentTarget)} aria-label={label} data-testid="notification-bell" data-live={live ? 'true' : 'false'}>
          <Badge badgeContent={unread || undefined} color="error" max={99} slotProps={{ badge: { 'data-testid': 'notification-count' } as object }}>
            <NotificationsIcon fontSize="small" />
          </Badge>
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} slotProps={{ paper: { sx: { width: 360, maxHeight: 480 } } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 0.5 }}>
          <Typography variant="subtitle2" sx={{ flex: 1 }}>
            {translate('bell.title')}
          </Typography>
          <Button size="small" disabled={!unread} onClick={() => void readAll()} data-testid="notification-read-all">
            {translate('bell.markAllRead')}
          </Button>
        </Box>
        <Divider />
        {!data?.items.length && <MenuItem disabled>{translate('bell.none')}</MenuItem>}
        {data?.items.map((item) => (
          <MenuItem
            key={item.id}
            onClick={() => void open(item)}
            data-testid="notification-item"
            data-read={item.read ? 'true' : 'false'}
            sx={{ whiteSpace: 'normal' }}
          >
            <Box>
              <Typography variant="body2" sx={{ fontWeight: item.read ? 400 : 700 }}>
                {item.label}
                {item.title ? `: ${item.title}` : ''}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {time(item.at)}
              </Typography>
            </Box>
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
