/**
 * The session against the legacy calls (spec points 4 and 7, server/README.md):
 *   login   POST /connect/token (form-encoded, with warehouse and language), then the user info;
 *           only account statuses of the code group accountStatus.mayLogIn (0 and 602) get in;
 *           with two-step verification on, the password step rejects with MfaRequiredError (its
 *           ticket) and the login page calls login again with the ticket and the code;
 *   logout  POST /connect/logout, then user data, token, tabs, warehouse and user ID are cleared;
 *   identity POST /supplierApi/accountInfo/info;
 *   canAccess answered synchronously from the stored identity and the metadata matrix.
 * 401s are answered by the login-timeout dialog (httpClient raises it), not by logging out; a
 * server that cannot be reached (restarting: 502/503/504, connection refused) never logs out.
 */
import type { AuthProvider } from 'react-admin';
import type { Locale } from '../../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import { authEvents } from './authEvents.ts';
import { fetchRaw, legacyPost, type ServerErrorBody } from './httpClient.ts';
import { isServerUnavailable, SERVER_UNAVAILABLE } from './connection.ts';
import { currentLocale, saveLocale, translate } from './i18nProvider.ts';
import { canAccessSync } from './permissions.ts';
import { MFA_ENROLMENT_REQUIRED, mfaEvents } from '../auth/mfa.ts';
import {
  clearSession,
  getToken,
  getUser,
  rememberLogin,
  resetToken,
  setAccountStatus,
  setPasswordNotice,
  setToken,
  setUser,
  type PasswordNotice,
  type PortalUser,
} from './storage.ts';

export interface LoginParams {
  username: string;
  password: string;
  warehouse: string;
  locale?: Locale;
  /** the second step of two-step verification: the ticket of the password step, and the code */
  mfaToken?: string;
  code?: string;
}

/** The password was right and the account has two-step verification: the code is asked next. */
export class MfaRequiredError extends Error {
  constructor(
    message: string,
    readonly mfaToken: string,
    /** seconds the ticket is valid */
    readonly expiresIn: number,
  ) {
    super(message);
    this.name = 'MfaRequiredError';
  }
}

/** A refused login: the server's translated message, and its code (error.mfaInvalidCode ...). */
export type LoginError = Error & { code?: string };

export interface SessionInfo {
  user: PortalUser;
  serverTime: string;
  receivedAt: number;
}

/** Account statuses that may log in (0 normal, 602 must change the password). */
export const MAY_LOG_IN: readonly number[] = (metadata.codeTables.accountStatus?.groups.mayLogIn ?? ['0', '602']).map(Number);
export const MUST_CHANGE_PASSWORD = 602;

let lastSession: SessionInfo | null = null;
/** The session fetched moments ago (by login), so the layout's check does not repeat the call. */
export function recentSession(maxAgeMs = 5000): SessionInfo | null {
  return lastSession && Date.now() - lastSession.receivedAt < maxAgeMs ? lastSession : null;
}

/**
 * Stores and returns the user info; rejects with 'Verification failed, please Login again.' when
 * the token is refused. It only reads, so it waits for a server that is restarting (httpClient);
 * if the server stays away it rejects with error.serverUnavailable, which ends no session.
 */
export async function fetchSession(opts: { skipAuthDialog?: boolean } = {}): Promise<SessionInfo> {
  let json: { data?: { user?: PortalUser; serverTime?: string } };
  try {
    json = await legacyPost('/supplierApi/accountInfo/info', undefined, { skipAuthDialog: opts.skipAuthDialog, retryWhileUnavailable: true });
  } catch (e) {
    const status = (e as { status?: number }).status;
    if (isServerUnavailable(e)) throw Object.assign(new Error(translate(SERVER_UNAVAILABLE)), { status, body: { code: SERVER_UNAVAILABLE } });
    // a refused token is a session problem; anything else is the guard's 'Has Error'
    throw Object.assign(new Error(status === 401 ? translate('error.verificationFailed') : (e as Error).message || translate('error.hasError')), { status });
  }
  const user = json?.data?.user;
  if (!user || !user.userId) throw new Error(translate('error.verificationFailed'));
  setUser(user);
  setAccountStatus(user.accountStatus ?? 0);
  if (user.accountStatus === MUST_CHANGE_PASSWORD) authEvents.requirePasswordChange();
  // an account whose type requires two-step verification and has none must enrol first
  mfaEvents.fromUser(user);
  lastSession = { user, serverTime: json.data?.serverTime ?? new Date().toISOString(), receivedAt: Date.now() };
  return lastSession;
}

/** Resolves nothing: the login page navigates to its redirect target itself (useLogin's pathName). */
async function login(params: LoginParams): Promise<void> {
  const locale = params.locale ?? currentLocale();
  if (params.locale) saveLocale(params.locale);
  const form = params.mfaToken
    ? new URLSearchParams({ grant_type: 'mfa', mfa_token: params.mfaToken, code: (params.code ?? '').trim(), lang: locale })
    : new URLSearchParams({
        grant_type: 'password',
        username: params.username.trim(),
        password: params.password,
        warehouse: params.warehouse,
        lang: locale,
      });
  let res: Response;
  try {
    res = await fetchRaw('/connect/token', {
      method: 'POST',
      body: form,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      anonymous: true,
      skipAuthDialog: true,
    });
  } catch (e) {
    const body = (e as { body?: ServerErrorBody }).body;
    if (body?.error === 'mfa_required' && typeof body.mfa_token === 'string') {
      throw new MfaRequiredError(body.message || translate('error.mfaRequired'), body.mfa_token, Number(body.expires_in) || 300);
    }
    throw Object.assign(new Error(body?.message || (e as Error).message || translate('error.loginFailed')), { code: body?.code }) as LoginError;
  }
  const json = (await res.json()) as { access_token?: string; account_status?: number; password_notice?: PasswordNotice };
  const status = Number(json.account_status ?? 0);
  if (!json.access_token) throw new Error(translate('error.loginFailed'));
  if (!MAY_LOG_IN.includes(status)) throw new Error(translate('error.noRight'));
  setToken(json.access_token);
  setAccountStatus(status);
  rememberLogin(params.username.trim(), params.warehouse);
  try {
    await fetchSession({ skipAuthDialog: true });
  } catch (e) {
    resetToken();
    throw e;
  }
  authEvents.closeRelogin();
  if (status === MUST_CHANGE_PASSWORD) authEvents.requirePasswordChange();
  else authEvents.passwordChanged();
  // an initial or expired password forces the dialog; one expiring soon is only announced
  setPasswordNotice(status !== MUST_CHANGE_PASSWORD && json.password_notice ? json.password_notice : null);
}

async function logout(): Promise<string> {
  if (getToken()) {
    try {
      await legacyPost('/connect/logout', undefined, { skipAuthDialog: true });
    } catch {
      /* the token is dropped either way */
    }
  }
  clearSession();
  lastSession = null;
  authEvents.reset();
  mfaEvents.reset();
  return '/login';
}

/** Where an unauthenticated visitor goes: the login page, carrying the target (spec 2). */
export function loginPathFor(target: string): string {
  const t = target && target !== '/' && !target.startsWith('/login') ? target : '';
  return t ? `/login?redirect=${encodeURIComponent(t)}` : '/login';
}

const currentTarget = () => (typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search);

export const authProvider: AuthProvider = {
  login: (params: LoginParams) => login(params),
  logout: () => logout(),
  checkAuth: async () => {
    if (!getToken()) throw { redirectTo: loginPathFor(currentTarget()), message: false };
  },
  /**
   * Called by react-admin for data-call failures. The 401 dialog and the forced password dialog
   * are already up (httpClient), as is the forced two-step enrolment: stay, and say nothing more
   * (message false, no logout).
   */
  checkError: async (error: { status?: number; body?: ServerErrorBody }) => {
    const status = error?.status;
    // a server that is restarting ends no session (the calls that read have waited for it already)
    if (isServerUnavailable(error)) return;
    if (status === 401) throw { logoutUser: false, message: false };
    if (status === 403 && error.body?.code === 'error.passwordMustChange') throw { logoutUser: false, message: false };
    // the forced enrolment dialog is up instead
    if (status === 403 && error.body?.code === MFA_ENROLMENT_REQUIRED) {
      mfaEvents.requireEnrolment();
      throw { logoutUser: false, message: false };
    }
  },
  getIdentity: async () => {
    const user = getUser() ?? (getToken() ? (await fetchSession()).user : null);
    if (!user) throw new Error(translate('error.verificationFailed'));
    return { id: user.userId, fullName: user.name, ...user };
  },
  getPermissions: async () => getUser()?.roleId ?? null,
  canAccess: async (params) => canAccessSync(params as never),
};
