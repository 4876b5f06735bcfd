/**
 * Says that the server cannot be reached and the page waits for it (connection.ts): shown while a
 * call waits, gone as soon as the server answers again. The session is untouched meanwhile.
 */
import { useSyncExternalStore } from 'react';
import { Alert, CircularProgress } from '@mui/material';
import { useTranslate } from 'react-admin';
import { connection } from '../providers/connection.ts';

export function ConnectionBanner({ force = false }: { force?: boolean }) {
  const waiting = useSyncExternalStore(connection.subscribe, connection.reconnecting);
  const translate = useTranslate();
  if (!waiting && !force) return null;
  return (
    <Alert
      data-testid="reconnecting"
      role="status"
      severity="warning"
      icon={<CircularProgress size={18} color="inherit" />}
      sx={{ position: 'fixed', top: 8, left: '50%', transform: 'translateX(-50%)', zIndex: (t) => t.zIndex.snackbar + 1, boxShadow: 3 }}
    >
      {translate('message.reconnecting')}
    </Alert>
  );
}
