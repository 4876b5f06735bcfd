/**
 * The header clock (spec 2): starts at the server time of the session call and ticks every second
 * on the browser's monotonic clock, so a wrong local clock does not matter.
 */
import { useEffect, useState } from 'react';
import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useSessionQuery } from '../providers/hooks.ts';

const pad = (n: number) => String(n).padStart(2, '0');
/** yyyy-MM-dd HH:mm:ss (metadata app.dateTimeFormat) in the browser's time zone */
export const formatDateTime = (d: Date): string =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

/** Server time now, from a server timestamp and when (performance.now()) it was received. */
export const serverNow = (serverTime: number, receivedAt: number, now: number): number => serverTime + (now - receivedAt);

export function Clock() {
  const translate = useTranslate();
  const { data } = useSessionQuery();
  const [base, setBase] = useState<{ server: number; at: number } | null>(null);
  const [now, setNow] = useState(() => performance.now());

  useEffect(() => {
    if (!data) return;
    const server = Date.parse(data.serverTime);
    // receivedAt is wall-clock ms; convert to the monotonic clock once
    const at = performance.now() - (Date.now() - data.receivedAt);
    setBase({ server: Number.isNaN(server) ? Date.now() : server, at });
  }, [data]);

  useEffect(() => {
    const id = window.setInterval(() => setNow(performance.now()), 1000);
    return () => window.clearInterval(id);
  }, []);

  if (!base) return null;
  return (
    <Typography
      component="span"
      variant="body2"
      data-testid="header-clock"
      title={translate('shell.header.serverTime')}
      sx={{ fontVariantNumeric: 'tabular-nums', color: 'text.secondary', whiteSpace: 'nowrap' }}
    >
      {formatDateTime(new Date(serverNow(base.server, base.at, now)))}
    </Typography>
  );
}
