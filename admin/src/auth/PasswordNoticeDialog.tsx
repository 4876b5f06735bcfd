/**
 * 'The password for the remaining {0} days expired, whether now revised?' (spec 8): shown once
 * after a login whose answer carried a password notice; "change now" opens the profile dialog.
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText } from '@mui/material';
import { useTranslate } from 'react-admin';
import { getPasswordNotice, setPasswordNotice } from '../providers/storage.ts';

export function PasswordNoticeDialog({ onChange }: { onChange: () => void }) {
  const translate = useTranslate();
  const [notice, setNotice] = useState(getPasswordNotice);
  const close = () => {
    setPasswordNotice(null);
    setNotice(null);
  };
  if (!notice) return null;
  return (
    <Dialog open onClose={close} data-testid="password-notice-dialog" maxWidth="xs" fullWidth>
      <DialogContent>
        <DialogContentText>{translate(notice.code, { days: notice.days ?? 0, _: notice.message })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('shell.passwordNotice.later')}</Button>
        <Button
          variant="contained"
          onClick={() => {
            close();
            onChange();
          }}
        >
          {translate('shell.passwordNotice.change')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
