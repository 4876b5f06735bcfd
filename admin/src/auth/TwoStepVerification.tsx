/**
 * Two-step verification (TOTP) in the personal-info dialog: its state and the buttons to turn it
 * on or off, the enrolment dialog (password -> scan the QR code or type the key -> confirm with a
 * current code -> the ten recovery codes, shown once), the turn-off dialog (a current code or a
 * recovery code), and the forced enrolment of an account whose type requires it
 * (MfaEnrolmentGate: it cannot be closed, only logged out of).
 * Calls: POST /supplierApi/accountInfo/totp/setup | enable | disable (server/auth/totp-routes.ts);
 * turning it on or off ends the other sessions and the server hands this one a fresh token, which
 * the HTTP layer adopts.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import VerifiedUser from '@mui/icons-material/VerifiedUser';
import { useQueryClient } from '@tanstack/react-query';
import { useLogout, useNotify, useRefresh, useTranslate } from 'react-admin';
import { fetchSession } from '../providers/authProvider.ts';
import { legacyPost, type ServerErrorBody } from '../providers/httpClient.ts';
import { SESSION_QUERY_KEY } from '../providers/hooks.ts';
import { formatDateTime } from '../screens/format.ts';
import { mfaEvents, mfaOf, useMfaEnrolmentRequired, type UserMfa } from './mfa.ts';
import { TotpPasswordStep, TotpRecoveryCodes, TotpScanStep, mono, type Enrolment } from './TotpEnrolSteps.tsx';

type FieldErrors = Record<string, string | undefined>;

/** The server's field errors (`fieldErrors`, i18n keys) of a refused call, or null. */
const fieldErrorsOf = (e: unknown): FieldErrors | null =>
  (e as { body?: ServerErrorBody & { fieldErrors?: Record<string, string> } }).body?.fieldErrors ?? null;

/** The user info again (the dialog and the header show what it says now). */
function useReloadSession() {
  const queryClient = useQueryClient();
  return async (): Promise<UserMfa | null> => {
    const session = await fetchSession().catch(() => null);
    if (session) queryClient.setQueryData(SESSION_QUERY_KEY, session);
    return mfaOf(session?.user);
  };
}

/** True when the text went to the clipboard (the recovery codes are on screen to write down anyway). */
async function copyToClipboard(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The section of the personal-info dialog. */
export function TwoStepSection({ mfa, onChanged }: { mfa: UserMfa | null; onChanged: (m: UserMfa | null) => void }) {
  const translate = useTranslate();
  const [enrolOpen, setEnrolOpen] = useState(false);
  const [disableOpen, setDisableOpen] = useState(false);
  const on = !!mfa?.enabled;
  return (
    <Box data-testid="profile-totp" data-enabled={on} sx={{ mt: 2, p: 1.5, border: 1, borderColor: 'divider', borderRadius: 1 }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <VerifiedUser color={on ? 'success' : 'disabled'} />
          <Box>
            <Typography variant="subtitle2">{translate('shell.totp.title')}</Typography>
            <Typography variant="body2" color="text.secondary" data-testid="profile-totp-status">
              {on ? translate('shell.totp.statusOn', { date: formatDateTime(mfa?.enrolledAt) }) : translate('shell.totp.statusOff')}
              {on && mfa ? ` · ${translate('shell.totp.recoveryLeft', { smart_count: mfa.recoveryCodesLeft })}` : ''}
            </Typography>
            {mfa?.required && (
              <Typography variant="caption" color="warning.main">
                {translate('shell.totp.required')}
              </Typography>
            )}
          </Box>
        </Stack>
        {on ? (
          <Button
            variant="outlined"
            color="warning"
            onClick={() => setDisableOpen(true)}
            data-testid="profile-totp-disable"
            sx={{ flex: 'none', whiteSpace: 'nowrap' }}
          >
            {translate('shell.totp.turnOff')}
          </Button>
        ) : (
          <Button variant="outlined" onClick={() => setEnrolOpen(true)} data-testid="profile-totp-enable" sx={{ flex: 'none', whiteSpace: 'nowrap' }}>
            {translate('shell.totp.enable')}
          </Button>
        )}
      </Stack>
      <TotpEnrolDialog open={enrolOpen} forced={false} onClose={() => setEnrolOpen(false)} onEnabled={onChanged} />
      <TotpDisableDialog open={disableOpen} onClose={() => setDisableOpen(false)} onDisabled={onChanged} />
    </Box>
  );
}

type Step = 'password' | 'scan' | 'codes';

/**
 * Turning it on. `forced`: the account must (its type requires it): no cancel, only log out.
 * `onEnabled` runs once the user has seen the recovery codes and closes the dialog.
 */
export function TotpEnrolDialog({
  open,
  forced,
  onClose,
  onEnabled,
}: {
  open: boolean;
  forced: boolean;
  onClose: () => void;
  onEnabled: (m: UserMfa | null) => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const reloadSession = useReloadSession();
  const [step, setStep] = useState<Step>('password');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);
  // the user info asked again after turning it on: "Done" may come before it arrives (a quick user, a
  // loaded server), and the personal-info dialog must then still learn that it is on
  const reloaded = useRef<Promise<UserMfa | null> | null>(null);

  // every opening starts from the beginning; nothing of a previous one stays in memory
  useEffect(() => {
    if (!open) return;
    setStep('password');
    setPassword('');
    setCode('');
    setEnrolment(null);
    setRecoveryCodes([]);
    setErrors({});
    setCopied(false);
  }, [open]);

  const fail = (e: unknown) => {
    const fields = fieldErrorsOf(e);
    if (fields) setErrors(fields);
    notify((e as Error).message || 'error.generic', { type: 'error' });
  };

  const startSetup = async (ev?: FormEvent) => {
    ev?.preventDefault();
    if (!password) return setErrors({ password: 'validation.required' });
    setBusy(true);
    try {
      const json = await legacyPost<{ data: Enrolment }>('/supplierApi/accountInfo/totp/setup', { password });
      setEnrolment(json.data);
      setPassword('');
      setErrors({});
      setStep('scan');
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (ev?: FormEvent) => {
    ev?.preventDefault();
    if (!code.trim()) return setErrors({ code: 'validation.required' });
    setBusy(true);
    try {
      const json = await legacyPost<{ message?: string; data: { recoveryCodes: string[] } }>('/supplierApi/accountInfo/totp/enable', {
        code: code.replace(/\s+/g, ''),
      });
      setRecoveryCodes(json.data.recoveryCodes);
      setEnrolment(null);
      setErrors({});
      setStep('codes');
      notify(json.message || 'message.mfaEnabled', { type: 'success' });
      reloaded.current = reloadSession();
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (await copyToClipboard(recoveryCodes.join('\n'))) setCopied(true);
  };

  const done = async () => {
    setRecoveryCodes([]);
    onEnabled(await (reloaded.current ?? Promise.resolve(null)));
    reloaded.current = null;
    onClose();
  };

  const cancel = step === 'codes' ? undefined : forced ? undefined : onClose;
  return (
    <Dialog
      open={open}
      onClose={cancel}
      disableEscapeKeyDown={forced || step === 'codes'}
      maxWidth="sm"
      fullWidth
      aria-labelledby="totp-enrol-title"
      data-testid="totp-enrol-dialog"
      data-step={step}
      data-forced={forced}
    >
      <DialogTitle id="totp-enrol-title">{translate('shell.totp.title')}</DialogTitle>
      <DialogContent>
        {forced && step !== 'codes' && (
          <Alert severity="warning" sx={{ mb: 2 }} data-testid="totp-forced">
            {translate('shell.totp.forced')}
          </Alert>
        )}
        {step === 'password' && (
          <TotpPasswordStep
            password={password}
            error={errors.password}
            onChange={(value) => {
              setPassword(value);
              setErrors({});
            }}
            onSubmit={(e) => void startSetup(e)}
          />
        )}
        {step === 'scan' && enrolment && (
          <TotpScanStep
            enrolment={enrolment}
            code={code}
            error={errors.code}
            onChange={(value) => {
              setCode(value);
              setErrors({});
            }}
            onSubmit={(e) => void confirm(e)}
          />
        )}
        {step === 'codes' && <TotpRecoveryCodes codes={recoveryCodes} />}
      </DialogContent>
      <TotpEnrolActions
        step={step}
        forced={forced}
        busy={busy}
        copied={copied}
        onCopy={() => void copy()}
        onDone={done}
        onCancel={onClose}
        onNext={() => void (step === 'password' ? startSetup() : confirm())}
      />
    </Dialog>
  );
}

/** The enrolment dialog's buttons: cancel (or log out, when forced) and next or confirm; copy and done with the recovery codes. */
function TotpEnrolActions(props: {
  step: Step;
  forced: boolean;
  busy: boolean;
  copied: boolean;
  onCopy: () => void;
  onDone: () => void;
  onCancel: () => void;
  onNext: () => void;
}) {
  const { step, forced, busy, copied } = props;
  const translate = useTranslate();
  const logout = useLogout();
  return (
    <DialogActions>
      {step === 'codes' ? (
        <>
          <Button onClick={props.onCopy} data-testid="totp-copy">
            {translate(copied ? 'shell.totp.copied' : 'shell.totp.copy')}
          </Button>
          <Button variant="contained" onClick={props.onDone} data-testid="totp-done">
            {translate('shell.totp.done')}
          </Button>
        </>
      ) : (
        <>
          {forced ? (
            <Button onClick={() => void logout({}, '/login', false)} data-testid="totp-logout">
              {translate('shell.userMenu.logout')}
            </Button>
          ) : (
            <Button onClick={props.onCancel} data-testid="totp-cancel">
              {translate('shell.totp.cancel')}
            </Button>
          )}
          <Button
            variant="contained"
            disabled={busy}
            startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
            onClick={props.onNext}
            data-testid={step === 'password' ? 'totp-next' : 'totp-confirm'}
          >
            {translate(step === 'password' ? 'shell.totp.next' : 'shell.totp.confirm')}
          </Button>
        </>
      )}
    </DialogActions>
  );
}

/** Turning it off: a current code of the authenticator app, or a recovery code. */
export function TotpDisableDialog({ open, onClose, onDisabled }: { open: boolean; onClose: () => void; onDisabled: (m: UserMfa | null) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const reloadSession = useReloadSession();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setCode('');
    setError(undefined);
  }, [open]);

  const submit = async (ev?: FormEvent) => {
    ev?.preventDefault();
    if (!code.trim()) return setError('validation.required');
    setBusy(true);
    try {
      const json = await legacyPost<{ message?: string }>('/supplierApi/accountInfo/totp/disable', { code: code.trim() });
      notify(json.message || 'message.mfaDisabled', { type: 'success' });
      onDisabled(await reloadSession());
      onClose();
    } catch (e) {
      setError(fieldErrorsOf(e)?.code);
      notify((e as Error).message || 'error.generic', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="totp-disable-title" data-testid="totp-disable-dialog">
      <DialogTitle id="totp-disable-title">{translate('shell.totp.disable')}</DialogTitle>
      <DialogContent>
        <Box component="form" noValidate onSubmit={(e) => void submit(e)}>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {translate('shell.totp.disableHint')}
          </Typography>
          <TextField
            label={translate('shell.totp.codeOrRecovery')}
            value={code}
            onChange={(e) => {
              setCode(e.target.value);
              setError(undefined);
            }}
            error={!!error}
            helperText={error ? translate(error, { _: error }) : ' '}
            autoComplete="one-time-code"
            autoFocus
            fullWidth
            margin="dense"
            slotProps={{ htmlInput: { 'data-testid': 'totp-disable-code', maxLength: 64, style: mono } }}
          />
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="totp-disable-cancel">
          {translate('shell.totp.cancel')}
        </Button>
        <Button variant="contained" color="warning" disabled={busy} onClick={() => void submit()} data-testid="totp-disable-confirm">
          {translate('shell.totp.disable')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The forced enrolment: an account whose type requires two-step verification and has none gets
 * this dialog over every page until it has enrolled (the server refuses everything else with 403
 * error.mfaEnrolmentRequired). `blocked`: the forced password change (602) comes first.
 */
export function MfaEnrolmentGate({ blocked }: { blocked: boolean }) {
  const required = useMfaEnrolmentRequired();
  const refresh = useRefresh();
  // stays up after the enrolment (the user info then says "on") until the recovery codes are seen
  const [showing, setShowing] = useState(false);
  useEffect(() => {
    if (required && !blocked) setShowing(true);
  }, [required, blocked]);
  return (
    <TotpEnrolDialog
      open={showing}
      forced
      onClose={() => undefined}
      onEnabled={(m) => {
        if (m?.enabled) mfaEvents.enrolled();
        setShowing(false);
        // the calls refused while it was missing are made again
        refresh();
      }}
    />
  );
}
