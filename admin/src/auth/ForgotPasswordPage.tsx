/**
 * "Forgot password?": the user ID (and, optionally, the account's e-mail address) -> the server
 * mails a one-time link to the account's address (server/auth/password-reset.ts). The answer is
 * the same whether or not the account exists, so the page shows the server's message as it is.
 */
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Link, Stack, TextField, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import { httpClient } from '../providers/httpClient.ts';
import { getStoredUserId } from '../providers/storage.ts';
import { LOGIN_PATH } from '../routing/routeTable.ts';
import { AuthCard, BusySubmitButton } from './AuthCard.tsx';
import { ruleProblem } from './profileRules.ts';

export default function ForgotPasswordPage({ screen }: { screen: CompiledScreen }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [userId, setUserId] = useState(() => getStoredUserId() ?? '');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<{ userId?: string; email?: string }>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const e: typeof errors = {};
    if (!userId.trim()) e.userId = translate('validation.required');
    const emailProblem = ruleProblem(metadata.rules.email, email.trim());
    if (emailProblem) e.email = translate(emailProblem.key, emailProblem.args);
    setErrors(e);
    if (Object.keys(e).length) return;
    setBusy(true);
    try {
      const { json } = await httpClient('/api/auth/forgot', {
        method: 'POST',
        body: JSON.stringify({ userId: userId.trim(), ...(email.trim() ? { email: email.trim() } : {}) }),
        anonymous: true,
        skipAuthDialog: true,
      });
      setDone((json as { message?: string }).message ?? translate('message.resetRequested', { minutes: metadata.app.password.resetLinkMinutes ?? 30 }));
    } catch (err) {
      notify((err as Error).message || 'error.generic', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const back = (
    <Link component={RouterLink} to={LOGIN_PATH} data-testid="forgot-back" underline="hover">
      {translate('shell.forgot.backToLogin')}
    </Link>
  );

  return (
    <AuthCard screen={screen} testId="forgot-page">
      {done ? (
        <Stack spacing={3}>
          <Alert severity="success" data-testid="forgot-done">
            {done}
          </Alert>
          <Box>{back}</Box>
        </Stack>
      ) : (
        <Box component="form" noValidate onSubmit={(e) => void submit(e)} data-testid="forgot-form">
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('shell.forgot.hint')}
          </Typography>
          <TextField
            label={translate('field.account.userId')}
            name="username"
            value={userId}
            onChange={(e) => {
              setUserId(e.target.value);
              setErrors((x) => ({ ...x, userId: undefined }));
            }}
            error={!!errors.userId}
            helperText={errors.userId ?? ' '}
            autoComplete="username"
            autoFocus
            fullWidth
            variant="outlined"
            required
            slotProps={{ htmlInput: { 'data-testid': 'forgot-userId', maxLength: 30 } }}
          />
          <TextField
            label={translate('shell.forgot.email')}
            name="email"
            type="email"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setErrors((x) => ({ ...x, email: undefined }));
            }}
            error={!!errors.email}
            helperText={errors.email ?? ' '}
            autoComplete="email"
            fullWidth
            variant="outlined"
            slotProps={{ htmlInput: { 'data-testid': 'forgot-email', maxLength: 100 } }}
          />
          <BusySubmitButton busy={busy} testId="forgot-submit" sx={{ mt: 1, mb: 2 }}>
            {translate('shell.forgot.submit')}
          </BusySubmitButton>
          {back}
        </Box>
      )}
    </AuthCard>
  );
}
