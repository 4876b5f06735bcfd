/**
 * What anybody may know before logging in: exactly what the public pages need (the login screen,
 * forgot password, set a new password, 401/404, the redirects). Two places serve it and nothing
 * more: `GET /api/meta` to an anonymous caller, and the admin's bundle (codegen writes it to
 * admin/src/generated/metadata.public.json; a logged-in page fetches the rest from /api/meta, with
 * only its own profile's part of the permission matrix). So downloading the page's JavaScript
 * reveals no table, column, permission, lockout threshold, token lifetime or business constant.
 *
 * The password *rule* (pattern and message), the login minimum length, the history count and the
 * reset link's lifetime stay public: the sign-in pages state them to the user (ResetPasswordPage
 * shows the rule and "not one of the last 5", ForgotPasswordPage the link's minutes).
 */
import type { AppConstants, CompiledMetadata, CompiledScreen } from './model.ts';

/** Screens drawn without a session. */
export const PUBLIC_SCREEN_KINDS: ReadonlySet<CompiledScreen['kind']> = new Set(['login', 'auth', 'error', 'redirect']);
/** Rules the public pages check as the user types (e-mail on forgot password, the new password on reset). */
const PUBLIC_RULES = ['email', 'password'];
/** accountStatus: which statuses may log in (the login call checks the answer's status). */
const PUBLIC_CODE_TABLES = ['accountStatus'];

type SecretAppKeys = 'lockout' | 'token' | 'upload' | 'mfa' | 'constants' | 'password';
export type PublicAppConstants = Omit<AppConstants, SecretAppKeys> & {
  password: Pick<AppConstants['password'], 'loginMinLength' | 'historyCount' | 'resetLinkMinutes'>;
};

/** The shape of the compiled metadata (so code that runs before login reads it the same way), with empty collections. */
export interface PublicMetadata extends Omit<CompiledMetadata, 'app' | 'mail' | 'outbox'> {
  app: PublicAppConstants;
}

const pick = <T>(record: Record<string, T>, keys: readonly string[]): Record<string, T> =>
  Object.fromEntries(keys.filter((k) => record[k] !== undefined).map((k) => [k, record[k]]));

export function publicMetadata(meta: CompiledMetadata): PublicMetadata {
  const { lockout: _l, token: _t, upload: _u, mfa: _m, constants: _c, password, ...app } = meta.app;
  return {
    hash: meta.hash,
    app: { ...app, password: { loginMinLength: password.loginMinLength, historyCount: password.historyCount, resetLinkMinutes: password.resetLinkMinutes } },
    access: { profiles: {} as CompiledMetadata['access']['profiles'], buttons: {} },
    codeTables: pick(meta.codeTables, PUBLIC_CODE_TABLES),
    rules: pick(meta.rules, PUBLIC_RULES),
    entities: {},
    resources: {},
    screens: meta.screens.filter((s) => PUBLIC_SCREEN_KINDS.has(s.kind)),
  };
}

/**
 * The message bundle the admin ships (issue 25 point 7): every message but the labels of private
 * fields (the password hash, the TOTP seed and recovery codes, leases, ...), which no answer carries
 * and no screen shows, so their names stay out of what anybody downloads before logging in. The
 * server keeps every message (server/generated/messages.json).
 */
export function bundledMessages(meta: CompiledMetadata, messages: Record<string, string>): Record<string, string> {
  const hidden = new Set(
    Object.values(meta.entities).flatMap((e) =>
      Object.entries(e.fields)
        .filter(([, f]) => f.private)
        .map(([name]) => `field.${e.name}.${name}`),
    ),
  );
  return Object.fromEntries(Object.entries(messages).filter(([key]) => !hidden.has(key)));
}
