/**
 * react-admin's notification with the portal's rules (spec 8): shown for app.messageDurationMs
 * (10 s) with a close button, at the top like the legacy messages, below the header and tab bar.
 */
import { IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { Notification, useCloseNotification, useTranslate } from 'react-admin';
import { metadata } from '../generated/index.ts';
import { HEADER_HEIGHT, TAGS_HEIGHT } from './theme.ts';

function CloseAction() {
  const close = useCloseNotification();
  const translate = useTranslate();
  return (
    <IconButton color="inherit" aria-label={translate('ra.action.close')} data-testid="notification-close" onClick={close}>
      <CloseIcon fontSize="small" />
    </IconButton>
  );
}

/** below the header (breadcrumb) and the tab bar, so a message never hides them */
const TOP = HEADER_HEIGHT + TAGS_HEIGHT + 8;

export function PortalNotification() {
  return (
    <Notification
      autoHideDuration={metadata.app.messageDurationMs}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      action={<CloseAction />}
      multiLine
      sx={{ top: { xs: TOP, sm: TOP } }}
    />
  );
}
