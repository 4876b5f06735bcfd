/**
 * The login screen (spec 2): user ID, password, warehouse (PDC) select from the public list,
 * language, login and reset, and the way to a forgotten password. After login the user goes to the redirect parameter (the page that
 * sent them here) or home, in this page; a logged-in user opening /login goes there too.
 * With two-step verification on, a right password leads to a second step on the same card: the
 * 6-digit code of the authenticator app, or a recovery code (with the server's ticket of 5 minutes).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, Navigate, useLocation } from 'react-router-dom';
import { Box, Button, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import LocalShipping from '@mui/icons-material/LocalShipping';
import { useQueryClient } from '@tanstack/react-query';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { Locale } from '../../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import { LOCALE_NAMES } from '../i18n/shell.ts';
import { SUPPORTED } from '../providers/i18nProvider.ts';
import { SESSION_QUERY_KEY } from '../providers/hooks.ts';
import { authProvider, MfaRequiredError, type LoginError, type LoginParams } from '../providers/authProvider.ts';
import { getStoredUserId, getStoredWarehouse, getToken } from '../providers/storage.ts';
import { FORGOT_PASSWORD_SCREEN, LOGIN_SCREEN, safeTarget } from '../routing/routeTable.ts';
import { useDocumentTitle } from '../routing/useDocumentTitle.ts';
import { enterSession } from './enterSession.ts';
import { useWarehouses, warehouseLabel } from './warehouses.ts';
import { AuthFrame, BusySubmitButton } from './AuthCard.tsx';

interface Draft {
  username: string;
  password: string;
  warehouse: string;
}
type Errors = Partial<Record<keyof Draft, string>>;

// Changing the language re-mounts the whole app (react-admin re-keys its i18n context), so what
// was typed lives outside the component until the page is left.
let draft: Draft = { username: '', password: '', warehouse: '' };
const initialDraft = (): Draft => ({
  username: draft.username || getStoredUserId() || '',
  password: draft.password,
  warehouse: draft.warehouse || getStoredWarehouse() || '',
});

/** The second step in progress (the server's ticket), kept the same way across a language change. */
interface PendingMfa {
  mfaToken: string;
  username: string;
  warehouse: string;
}
let pendingMfa: PendingMfa | null = null;
/** Answers after which the ticket is of no more use: back to the password. */
const BACK_TO_PASSWORD = new Set(['error.mfaExpired', 'error.userLocked', 'error.noRight', 'error.wrongWarehouse']);

export function LoginPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const location = useLocation();
  const [locale, setLocale] = useLocaleState();
  const { warehouses, isPending: loadingWarehouses } = useWarehouses();
  const [values, setValues] = useState<Draft>(initialDraft);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [mfa, setMfa] = useState<PendingMfa | null>(() => pendingMfa);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  // decided once: the token written by a successful login must not bounce this page to '/'
  const [alreadyIn] = useState(() => !!getToken());
  useDocumentTitle(LOGIN_SCREEN?.titleKey);

  useEffect(() => {
    draft = values;
  }, [values]);

  // default warehouse: the remembered one if it still exists, else the first
  useEffect(() => {
    if (!warehouses.length) return;
    if (!warehouses.some((w) => w.code === values.warehouse)) setValues((v) => ({ ...v, warehouse: warehouses[0].code }));
  }, [warehouses, values.warehouse]);

  // '/' leads home once the session's metadata (and with it the home screen) is known
  const target = safeTarget(new URLSearchParams(location.search).get('redirect')) ?? '/';
  // also where a login in this page lands: the admin mounts anew with the session, here (auth/enterSession.ts)
  if (alreadyIn) return <Navigate to={target} replace />;

  /** The session continues in this page; a fresh page at the target when it cannot. */
  const login = async (params: LoginParams) => {
    await authProvider.login(params);
    if (!(await enterSession(target))) window.location.assign(target);
  };
  const set = (k: keyof Draft, v: string) => {
    setValues((s) => ({ ...s, [k]: v }));
    if (errors[k]) setErrors((e) => ({ ...e, [k]: undefined }));
  };

  const validate = (): Errors => {
    const e: Errors = {};
    if (!values.username.trim()) e.username = translate('validation.required');
    const min = metadata.app.password.loginMinLength;
    if (!values.password) e.password = translate('validation.required');
    else if (values.password.length < min) e.password = translate('rule.loginPassword', { min });
    if (!values.warehouse) e.warehouse = translate('validation.required');
    return e;
  };

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    const e = validate();
    setErrors(e);
    if (Object.keys(e).length) return;
    setBusy(true);
    // a failed session check of an earlier token must not stick to the new one
    queryClient.removeQueries({ queryKey: SESSION_QUERY_KEY });
    try {
      await login({ username: values.username, password: values.password, warehouse: values.warehouse, locale: locale as Locale });
      draft = { username: '', password: '', warehouse: '' };
    } catch (err) {
      if (err instanceof MfaRequiredError) {
        // the password has done its part: it is not kept while the code is asked
        pendingMfa = { mfaToken: err.mfaToken, username: values.username, warehouse: values.warehouse };
        draft = { ...values, password: '' };
        setValues((v) => ({ ...v, password: '' }));
        setCode('');
        setCodeError(undefined);
        setMfa(pendingMfa);
      } else {
        notify((err as Error).message || 'error.loginFailed', { type: 'error' });
      }
      setBusy(false);
    }
  };

  const backToPassword = () => {
    pendingMfa = null;
    setMfa(null);
    setCode('');
    setCodeError(undefined);
  };

  const submitCode = async (ev: FormEvent) => {
    ev.preventDefault();
    if (!mfa) return;
    if (!code.trim()) {
      setCodeError(translate('validation.required'));
      return;
    }
    setBusy(true);
    queryClient.removeQueries({ queryKey: SESSION_QUERY_KEY });
    try {
      await login({ username: mfa.username, password: '', warehouse: mfa.warehouse, locale: locale as Locale, mfaToken: mfa.mfaToken, code });
      pendingMfa = null;
      draft = { username: '', password: '', warehouse: '' };
    } catch (err) {
      notify((err as Error).message || 'error.mfaInvalidCode', { type: 'error' });
      setCode('');
      setBusy(false);
      if (BACK_TO_PASSWORD.has((err as LoginError).code ?? '')) backToPassword();
    }
  };

  const reset = () => {
    setValues({ username: '', password: '', warehouse: warehouses[0]?.code ?? '' });
    setErrors({});
  };

  return (
    <AuthFrame testId="login-page" maxWidth={420}>
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 0.5 }}>
        <LocalShipping color="primary" sx={{ fontSize: 36 }} />
        <Typography component="h1" variant="h5" sx={{ fontWeight: 600 }}>
          {translate(metadata.app.titleKey)}
        </Typography>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('shell.login.subtitle')}
      </Typography>
      <Box component="form" noValidate onSubmit={(e) => void (mfa ? submitCode(e) : submit(e))} data-testid="login-form" data-step={mfa ? 'code' : 'password'}>
        {mfa ? (
          <LoginCodeStep
            code={code}
            error={codeError}
            onChange={(value) => {
              setCode(value);
              setCodeError(undefined);
            }}
          />
        ) : (
          <LoginPasswordStep values={values} errors={errors} warehouses={warehouses} loadingWarehouses={loadingWarehouses} locale={locale} set={set} />
        )}
        <LanguageSelect locale={locale} setLocale={setLocale} />
        <LoginButtons codeStep={!!mfa} busy={busy} onBack={backToPassword} onReset={reset} />
      </Box>
    </AuthFrame>
  );
}

/** The second step of a login with two-step verification: a code of the authenticator app (or a recovery code). */
function LoginCodeStep({ code, error, onChange }: { code: string; error: string | undefined; onChange: (value: string) => void }) {
  const translate = useTranslate();
  return (
    <Box data-testid="login-mfa">
      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {translate('shell.totp.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('shell.login.codeHint')}
      </Typography>
      <TextField
        label={translate('shell.login.code')}
        name="code"
        value={code}
        onChange={(e) => onChange(e.target.value)}
        error={!!error}
        helperText={error ?? ' '}
        autoComplete="one-time-code"
        autoFocus
        fullWidth
        variant="outlined"
        required
        slotProps={{ htmlInput: { 'data-testid': 'login-code', maxLength: 64, spellCheck: false, autoCapitalize: 'off' } }}
      />
    </Box>
  );
}

/** The first step: user ID, password and warehouse. */
function LoginPasswordStep(props: {
  values: Draft;
  errors: Errors;
  warehouses: ReturnType<typeof useWarehouses>['warehouses'];
  loadingWarehouses: boolean;
  locale: string;
  set: (k: keyof Draft, v: string) => void;
}) {
  const { values, errors, warehouses, loadingWarehouses, locale, set } = props;
  const translate = useTranslate();
  return (
    <>
      <TextField
        label={translate('field.account.userId')}
        name="username"
        value={values.username}
        onChange={(e) => set('username', e.target.value)}
        error={!!errors.username}
        helperText={errors.username ?? ' '}
        autoComplete="username"
        autoFocus={!values.username}
        variant="outlined"
        required
        slotProps={{ htmlInput: { 'data-testid': 'login-username', maxLength: 30 } }}
      />
      <TextField
        label={translate('shell.login.password')}
        name="password"
        type="password"
        value={values.password}
        onChange={(e) => set('password', e.target.value)}
        error={!!errors.password}
        helperText={errors.password ?? ' '}
        autoComplete="current-password"
        autoFocus={!!values.username}
        variant="outlined"
        required
        slotProps={{ htmlInput: { 'data-testid': 'login-password' } }}
      />
      <TextField
        select
        label={translate('shell.login.warehouse')}
        name="warehouse"
        value={warehouses.some((w) => w.code === values.warehouse) ? values.warehouse : ''}
        onChange={(e) => set('warehouse', e.target.value)}
        error={!!errors.warehouse}
        helperText={errors.warehouse ?? ' '}
        variant="outlined"
        required
        disabled={loadingWarehouses}
        slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'login-warehouse' } as object } }}
      >
        {warehouses.map((w) => (
          <MenuItem key={w.code} value={w.code} data-testid={`login-warehouse-${w.code}`}>
            {warehouseLabel(w, locale)}
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}

/** The language of the page (and of the session it starts). */
function LanguageSelect({ locale, setLocale }: { locale: string; setLocale: (l: string) => void }) {
  const translate = useTranslate();
  return (
    <TextField
      select
      label={translate('shell.login.language')}
      name="language"
      value={locale}
      onChange={(e) => setLocale(e.target.value)}
      variant="outlined"
      helperText=" "
      slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'login-language' } as object } }}
    >
      {SUPPORTED.map((l) => (
        <MenuItem key={l} value={l} data-testid={`login-language-${l}`}>
          {LOCALE_NAMES[l]}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Submit and back (code step) or submit and reset (password step), and the way to a forgotten password. */
function LoginButtons({ codeStep, busy, onBack, onReset }: { codeStep: boolean; busy: boolean; onBack: () => void; onReset: () => void }) {
  const translate = useTranslate();
  return (
    <>
      {codeStep ? (
        <Stack direction="row" spacing={2} sx={{ mt: 1 }}>
          <BusySubmitButton busy={busy} testId="login-code-submit">
            {translate('shell.login.verify')}
          </BusySubmitButton>
          <Button type="button" variant="outlined" size="large" fullWidth onClick={onBack} data-testid="login-code-back">
            {translate('shell.login.back')}
          </Button>
        </Stack>
      ) : (
        <Stack direction="row" spacing={2} sx={{ mt: 1 }}>
          <BusySubmitButton busy={busy} testId="login-submit">
            {translate('shell.login.submit')}
          </BusySubmitButton>
          <Button type="button" variant="outlined" size="large" fullWidth onClick={onReset} data-testid="login-reset">
            {translate('shell.login.reset')}
          </Button>
        </Stack>
      )}
      {!codeStep && FORGOT_PASSWORD_SCREEN && (
        <Box sx={{ mt: 2, textAlign: 'right' }}>
          <Link component={RouterLink} to={FORGOT_PASSWORD_SCREEN.path} underline="hover" data-testid="login-forgot">
            {translate('shell.login.forgotPassword')}
          </Link>
        </Box>
      )}
    </>
  );
}
