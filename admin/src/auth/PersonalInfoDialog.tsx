/**
 * The personal-info dialog (spec 2): user ID, name, e-mail, mobile, telephone, old / new / confirm
 * password; OK and close. For an account in status 602 it is forced: it cannot be closed (only
 * log out remains) until the password has been changed, as the server refuses everything else.
 * Below the form: two-step verification (TwoStepVerification.tsx), and the forced enrolment of an
 * account whose type requires it, which comes after a forced password change.
 */
import { useEffect, useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useLogout, useNotify, useTranslate } from 'react-admin';
import { authEvents } from '../providers/authEvents.ts';
import { fetchSession, MUST_CHANGE_PASSWORD } from '../providers/authProvider.ts';
import { legacyPost, type ServerErrorBody } from '../providers/httpClient.ts';
import { SESSION_QUERY_KEY } from '../providers/hooks.ts';
import { getUser, setAccountStatus, type PortalUser } from '../providers/storage.ts';
import { profilePayload, validateProfile, type ProfileErrors, type ProfileField, type ProfileForm } from './profileRules.ts';
import { mfaOf, type UserMfa } from './mfa.ts';
import { MfaEnrolmentGate, TwoStepSection } from './TwoStepVerification.tsx';

const fromUser = (u: PortalUser | null): ProfileForm => ({
  userId: u?.userId ?? '',
  name: u?.name ?? '',
  email: u?.email ?? '',
  mobile: u?.mobile ?? '',
  telephone: u?.telephone ?? '',
  oldPassword: '',
  newPassword: '',
  confirmPassword: '',
});

const FIELDS: { name: ProfileField; label: string; type?: string; readOnly?: boolean; autoComplete?: string }[] = [
  { name: 'userId', label: 'field.account.userId', readOnly: true, autoComplete: 'username' },
  { name: 'name', label: 'field.account.name', autoComplete: 'name' },
  { name: 'email', label: 'field.account.email', type: 'email', autoComplete: 'email' },
  { name: 'mobile', label: 'field.account.mobile', autoComplete: 'tel' },
  { name: 'telephone', label: 'field.account.telephone', autoComplete: 'tel' },
  { name: 'oldPassword', label: 'shell.profile.oldPassword', type: 'password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'shell.profile.newPassword', type: 'password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'shell.profile.confirmPassword', type: 'password', autoComplete: 'new-password' },
];

export function PersonalInfoDialog({ open, forced, onClose }: { open: boolean; forced: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const logout = useLogout();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<ProfileForm>(() => fromUser(getUser()));
  const [errors, setErrors] = useState<ProfileErrors>({});
  const [saving, setSaving] = useState(false);
  const [mfa, setMfa] = useState<UserMfa | null>(() => mfaOf(getUser()));

  // fresh values each time it opens (another session may have changed them)
  useEffect(() => {
    if (!open) return;
    setValues(fromUser(getUser()));
    setMfa(mfaOf(getUser()));
    setErrors({});
    if (forced) return;
    let live = true;
    fetchSession()
      .then((s) => {
        if (!live) return;
        setValues((v) => ({ ...fromUser(s.user), oldPassword: v.oldPassword, newPassword: v.newPassword, confirmPassword: v.confirmPassword }));
        setMfa(mfaOf(s.user));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [open, forced]);

  const set = (name: ProfileField, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (errors[name]) setErrors((e) => ({ ...e, [name]: undefined }));
  };

  const submit = async () => {
    const problems = validateProfile(values, forced);
    setErrors(problems);
    if (Object.values(problems).some(Boolean)) return;
    setSaving(true);
    try {
      const json = await legacyPost<{ message?: string; data?: { accountStatus?: number } }>('/supplierApi/accountInfo/update', profilePayload(values));
      const status = Number(json.data?.accountStatus ?? 0);
      setAccountStatus(status);
      if (status !== MUST_CHANGE_PASSWORD) authEvents.passwordChanged();
      notify(json.message || 'message.saveSuccess', { type: 'success' });
      const session = await fetchSession().catch(() => null);
      if (session) queryClient.setQueryData(SESSION_QUERY_KEY, session);
      onClose();
    } catch (e) {
      const body = (e as { body?: ServerErrorBody & { fieldErrors?: Record<string, string> } }).body;
      if (body?.fieldErrors) {
        const mapped: ProfileErrors = {};
        for (const [f, key] of Object.entries(body.fieldErrors)) mapped[f as ProfileField] = { key, args: body.errorArgs?.[f] };
        setErrors(mapped);
      }
      notify((e as Error).message || 'error.generic', { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Dialog
        open={open}
        onClose={forced ? undefined : onClose}
        disableEscapeKeyDown={forced}
        maxWidth="sm"
        fullWidth
        aria-labelledby="profile-title"
        data-testid="profile-dialog"
        data-forced={forced}
      >
        <DialogTitle id="profile-title">{translate('shell.profile.title')}</DialogTitle>
        <DialogContent>
          {forced && (
            <Alert severity="warning" sx={{ mb: 1 }} data-testid="profile-forced">
              {translate('shell.profile.forced')}
            </Alert>
          )}
          <Box
            component="form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
            sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}
          >
            {FIELDS.map((f) => {
              const err = errors[f.name];
              const helper = err
                ? translate(err.key, { ...(err.args ?? {}), _: err.key })
                : f.name === 'oldPassword' && !forced
                  ? translate('shell.profile.passwordHint')
                  : ' ';
              return (
                <TextField
                  key={f.name}
                  name={f.name}
                  label={translate(f.label)}
                  type={f.type ?? 'text'}
                  value={values[f.name]}
                  onChange={(e) => set(f.name, e.target.value)}
                  required={f.name === 'name' || (forced && f.type === 'password')}
                  error={!!err}
                  helperText={helper}
                  variant="outlined"
                  margin="dense"
                  autoComplete={f.autoComplete}
                  disabled={f.readOnly}
                  // the password change reads as its own block: old password on a row of its own
                  sx={f.name === 'oldPassword' ? { gridColumn: '1 / -1' } : undefined}
                  slotProps={{ htmlInput: { 'data-testid': `profile-${f.name}` } }}
                />
              );
            })}
            <button type="submit" hidden />
          </Box>
          {!forced && <TwoStepSection mfa={mfa} onChanged={setMfa} />}
        </DialogContent>
        <DialogActions>
          {forced ? (
            <Button onClick={() => void logout({}, '/login', false)} data-testid="profile-logout">
              {translate('shell.userMenu.logout')}
            </Button>
          ) : (
            <Button onClick={onClose} data-testid="profile-close">
              {translate('shell.profile.close')}
            </Button>
          )}
          <Button variant="contained" onClick={() => void submit()} disabled={saving} data-testid="profile-ok">
            {translate('shell.profile.ok')}
          </Button>
        </DialogActions>
      </Dialog>
      <MfaEnrolmentGate blocked={forced} />
    </>
  );
}
