/**
 * The page a reset mail links to: `/reset-password#token=...` (the token rides in the fragment,
 * so it never reaches a server log or a Referer; `?token=` works too). The link is checked first,
 * so a used or expired one says so at once (with a way to ask for a new one); then the new
 * password, checked here with the metadata rule as the server checks it again (with the last-N
 * rule only it can check). Success: back to the login page with the message.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { Alert, Box, Button, CircularProgress, Link, Stack, TextField, Typography } from '@mui/material';
import { HttpError, useNotify, useTranslate } from 'react-admin';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import { httpClient, type ServerErrorBody } from '../providers/httpClient.ts';
import { clearSession, getUser } from '../providers/storage.ts';
import { LOGIN_PATH, SCREENS } from '../routing/routeTable.ts';
import { AuthCard, BusySubmitButton } from './AuthCard.tsx';
import { ruleProblem, type FieldProblem } from './profileRules.ts';

type Field = 'newPassword' | 'confirmPassword';
type LinkState = { state: 'checking' } | { state: 'ok'; userId: string } | { state: 'bad'; message: string };

const FORGOT_PATH = SCREENS.find((s) => s.kind === 'auth' && s.component === 'ForgotPassword')?.path ?? '/forgot-password';

/** The token of the URL: `#token=...` (what the mails carry) or `?token=...`. */
function tokenOf(hash: string, search: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? new URLSearchParams(search).get('token') ?? '';
}

const post = (url: string, body: unknown) => httpClient(url, { method: 'POST', body: JSON.stringify(body), anonymous: true, skipAuthDialog: true });

export default function ResetPasswordPage({ screen }: { screen: CompiledScreen }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const location = useLocation();
  const token = tokenOf(location.hash, location.search);
  const [link, setLink] = useState<LinkState>({ state: 'checking' });
  const [values, setValues] = useState<Record<Field, string>>({ newPassword: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, FieldProblem>>>({});
  const [busy, setBusy] = useState(false);
  const rule = metadata.rules.password;

  useEffect(() => {
    let live = true;
    if (!token) {
      setLink({ state: 'bad', message: translate('error.resetLinkInvalid') });
      return;
    }
    post('/api/auth/reset/check', { token })
      .then(({ json }) => live && setLink({ state: 'ok', userId: (json as { data: { userId: string } }).data.userId }))
      .catch((err: Error) => live && setLink({ state: 'bad', message: err.message || translate('error.resetLinkInvalid') }));
    return () => {
      live = false;
    };
  }, [token, translate]);

  const set = (f: Field, v: string) => {
    setValues((s) => ({ ...s, [f]: v }));
    setErrors((e) => ({ ...e, [f]: undefined }));
  };

  const validate = (): Partial<Record<Field, FieldProblem>> => {
    const e: Partial<Record<Field, FieldProblem>> = {};
    if (!values.newPassword) e.newPassword = { key: 'validation.required' };
    else {
      const p = ruleProblem(rule, values.newPassword);
      if (p) e.newPassword = p;
    }
    if (!values.confirmPassword) e.confirmPassword = { key: 'validation.required' };
    else if (values.newPassword && values.newPassword !== values.confirmPassword) e.confirmPassword = { key: 'error.passwordMismatch' };
    return e;
  };

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length || link.state !== 'ok') return;
    setBusy(true);
    try {
      const { json } = await post('/api/auth/reset', { token, ...values });
      // a session of this account in this browser has just ended with all the others
      if (getUser()?.userId === link.userId) clearSession();
      notify((json as { message?: string }).message ?? 'message.passwordResetDone', { type: 'success' });
      navigate(LOGIN_PATH, { replace: true });
    } catch (err) {
      const body = (err instanceof HttpError ? err.body : undefined) as (ServerErrorBody & { fieldErrors?: Record<string, string> }) | undefined;
      if (body?.fieldErrors) {
        const fe: Partial<Record<Field, FieldProblem>> = {};
        for (const [f, key] of Object.entries(body.fieldErrors)) if (f === 'newPassword' || f === 'confirmPassword') fe[f] = { key, args: body.errorArgs?.[f] };
        setErrors(fe);
      } else if (body?.code?.startsWith('error.resetLink')) {
        setLink({ state: 'bad', message: (err as Error).message });
      } else notify((err as Error).message || 'error.generic', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const message = (p: FieldProblem | undefined) => (p ? translate(p.key, p.args) : undefined);
  const backToLogin = (
    <Link component={RouterLink} to={LOGIN_PATH} data-testid="reset-back" underline="hover">
      {translate('shell.reset.backToLogin')}
    </Link>
  );

  return (
    <AuthCard screen={screen} testId="reset-page">
      {link.state === 'checking' ? (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }} data-testid="reset-checking">
          <CircularProgress size={20} />
          <Typography>{translate('shell.reset.checking')}</Typography>
        </Stack>
      ) : link.state === 'bad' ? (
        <Stack spacing={3}>
          <Alert severity="error" data-testid="reset-link-error">
            {link.message}
          </Alert>
          <Stack direction="row" spacing={2}>
            <Button component={RouterLink} to={FORGOT_PATH} variant="contained" data-testid="reset-request-new">
              {translate('shell.reset.requestNew')}
            </Button>
            <Button component={RouterLink} to={LOGIN_PATH} variant="outlined">
              {translate('shell.reset.backToLogin')}
            </Button>
          </Stack>
        </Stack>
      ) : (
        <Box component="form" noValidate onSubmit={(e) => void submit(e)} data-testid="reset-form">
          <Typography variant="body2" sx={{ mb: 1 }} data-testid="reset-user">
            {translate('shell.reset.forUser', { userId: link.userId })}
          </Typography>
          <Alert severity="info" sx={{ mb: 2 }} data-testid="reset-rules">
            {translate('shell.reset.rules', { rule: translate(rule.messageKey, rule.params), count: metadata.app.password.historyCount })}
          </Alert>
          {/* the user ID for password managers, which file the new password under it */}
          <input type="text" name="username" autoComplete="username" value={link.userId} readOnly hidden />
          {(['newPassword', 'confirmPassword'] as const).map((f, i) => (
            <TextField
              key={f}
              label={translate(`shell.reset.${f}`)}
              name={f}
              type="password"
              value={values[f]}
              onChange={(e) => set(f, e.target.value)}
              error={!!errors[f]}
              helperText={message(errors[f]) ?? ' '}
              autoComplete="new-password"
              autoFocus={i === 0}
              fullWidth
              variant="outlined"
              required
              slotProps={{ htmlInput: { 'data-testid': `reset-${f}`, maxLength: 200 } }}
            />
          ))}
          <BusySubmitButton busy={busy} testId="reset-submit" sx={{ mt: 1, mb: 2 }}>
            {translate('shell.reset.submit')}
          </BusySubmitButton>
          {backToLogin}
        </Box>
      )}
    </AuthCard>
  );
}
