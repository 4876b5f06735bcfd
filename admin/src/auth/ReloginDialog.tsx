/**
 * HTTP 401 (spec 8): a confirm titled "login timeout" offering re-login (the token is cleared and
 * the page reloads, which leads to /login?redirect=<this page>) or cancel (stay). Opened by the
 * HTTP layer through authEvents, once however many calls failed together.
 */
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslate } from 'react-admin';
import { authEvents } from '../providers/authEvents.ts';
import { useAuthEvents } from '../providers/hooks.ts';
import { resetToken } from '../providers/storage.ts';

export function relogin(): void {
  resetToken();
  window.location.reload();
}

export function ReloginDialog() {
  const translate = useTranslate();
  const { relogin: state } = useAuthEvents();
  return (
    <Dialog open={state.open} onClose={() => authEvents.closeRelogin()} aria-labelledby="relogin-title" data-testid="relogin-dialog" maxWidth="xs" fullWidth>
      <DialogTitle id="relogin-title">{translate('error.loginTimeout')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('shell.relogin.message')}</DialogContentText>
        {state.message && (
          <DialogContentText variant="body2" sx={{ mt: 1 }}>
            {state.message}
          </DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => authEvents.closeRelogin()} data-testid="relogin-cancel">
          {translate('ra.action.cancel')}
        </Button>
        <Button variant="contained" onClick={relogin} data-testid="relogin-confirm" autoFocus>
          {translate('error.relogin')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
