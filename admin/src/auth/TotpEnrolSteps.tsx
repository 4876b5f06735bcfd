/**
 * The three steps of the enrolment dialog (TotpEnrolDialog in TwoStepVerification.tsx), drawn from
 * what it holds: the password that starts the set-up, the QR code and key to scan with a code to
 * confirm, and the recovery codes shown once.
 */
import type { FormEvent } from 'react';
import { Alert, Box, Stack, TextField, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { groupSecret } from './mfa.ts';

export interface Enrolment {
  secret: string;
  uri: string;
  qrCode: string;
}

export const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' } as const;

interface StepInput {
  error: string | undefined;
  onChange: (value: string) => void;
  onSubmit: (e: FormEvent) => void;
}

/** Step 1: the password again (a stolen session must not put its own authenticator on the account). */
export function TotpPasswordStep({ password, error, onChange, onSubmit }: StepInput & { password: string }) {
  const translate = useTranslate();
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {translate('shell.totp.passwordStep')}
      </Typography>
      <TextField
        label={translate('shell.login.password')}
        type="password"
        value={password}
        onChange={(e) => onChange(e.target.value)}
        error={!!error}
        helperText={error ? translate(error, { _: error }) : ' '}
        autoComplete="current-password"
        autoFocus
        fullWidth
        margin="dense"
        slotProps={{ htmlInput: { 'data-testid': 'totp-password', maxLength: 200 } }}
      />
    </Box>
  );
}

/** Step 2: the QR code, the key and its URI to type instead, and the first code of the app. */
export function TotpScanStep({ enrolment, code, error, onChange, onSubmit }: StepInput & { enrolment: Enrolment; code: string }) {
  const translate = useTranslate();
  return (
    <Box component="form" noValidate onSubmit={onSubmit}>
      <Typography variant="body2" sx={{ mb: 1.5 }}>
        {translate('shell.totp.scan')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { xs: 'center', sm: 'flex-start' } }}>
        <Box
          component="img"
          src={enrolment.qrCode}
          alt={translate('shell.totp.qrAlt')}
          data-testid="totp-qr"
          sx={{ width: 180, height: 180, flex: 'none', border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff' }}
        />
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Typography variant="caption" color="text.secondary">
            {translate('shell.totp.secret')}
          </Typography>
          <Typography data-testid="totp-secret" sx={{ ...mono, fontSize: 15, fontWeight: 600, wordBreak: 'break-all', userSelect: 'all', mb: 1 }}>
            {groupSecret(enrolment.secret)}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {translate('shell.totp.uri')}
          </Typography>
          <Typography data-testid="totp-uri" sx={{ ...mono, fontSize: 12, wordBreak: 'break-all', userSelect: 'all' }}>
            {enrolment.uri}
          </Typography>
        </Box>
      </Stack>
      <TextField
        label={translate('shell.totp.code')}
        value={code}
        onChange={(e) => onChange(e.target.value)}
        error={!!error}
        helperText={error ? translate(error, { _: error }) : ' '}
        autoComplete="one-time-code"
        autoFocus
        margin="dense"
        sx={{ mt: 2, width: 220 }}
        slotProps={{ htmlInput: { 'data-testid': 'totp-code', inputMode: 'numeric', maxLength: 7, style: { ...mono, letterSpacing: 2 } } }}
      />
    </Box>
  );
}

/** Step 3: the recovery codes, shown this once. */
export function TotpRecoveryCodes({ codes }: { codes: string[] }) {
  const translate = useTranslate();
  return (
    <Box>
      <Typography variant="subtitle2">{translate('shell.totp.recoveryTitle')}</Typography>
      <Alert severity="info" sx={{ my: 1 }}>
        {translate('shell.totp.recoveryHint')}
      </Alert>
      <Box
        component="ol"
        data-testid="totp-recovery-codes"
        sx={{
          ...mono,
          fontSize: 13,
          lineHeight: 1.9,
          whiteSpace: 'nowrap',
          columns: { xs: 1, sm: 2 },
          m: 0,
          pl: 4.5,
          py: 1,
          bgcolor: 'action.hover',
          borderRadius: 1,
        }}
      >
        {codes.map((c) => (
          <li key={c} data-testid="totp-recovery-code">
            {c}
          </li>
        ))}
      </Box>
    </Box>
  );
}
