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

/** publicMessages is not secret, but only codegen reads it (the split of the message bundles below). */
type SecretAppKeys = 'lockout' | 'token' | 'upload' | 'mfa' | 'constants' | 'password' | 'publicMessages';
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
  const { lockout: _l, token: _t, upload: _u, mfa: _m, constants: _c, publicMessages: _p, password, ...app } = meta.app;
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

/** `shell.login` names `shell.login` itself and every key below it (`shell.login.submit`), not `shell.loginx`. */
export const isKeyOrBelow = (key: string, prefix: string): boolean => key === prefix || key.startsWith(`${prefix}.`);

/** Every string of a JSON value (the public metadata: titles, labels, rules' message keys ...). */
function* stringsOf(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const v of value) yield* stringsOf(v);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) yield* stringsOf(v);
}

/**
 * The admin's messages in two bundles (issue 21): `public`, what a page without a session can show,
 * which the sign-in page loads before its first render, and `session`, the rest, which it fetches
 * once idle (a logged-in page loads both at once). Public are the messages the public metadata
 * names (the app's title, the public screens' titles, the public rules' messages: what the public
 * pages translate from metadata) and those app.json's `publicMessages` declares for the public
 * pages' own code (tests/e2e/sign-in-path.spec.ts checks that their scripts name no other).
 */
export const MESSAGE_PARTS = ['public', 'session'] as const;
export type MessagePart = (typeof MESSAGE_PARTS)[number];

export function splitMessages(meta: CompiledMetadata, messages: Record<string, string>): Record<MessagePart, Record<string, string>> {
  const named = new Set(stringsOf(publicMetadata(meta)));
  const declared = meta.app.publicMessages ?? [];
  const isPublic = (key: string) => named.has(key) || declared.some((prefix) => isKeyOrBelow(key, prefix));
  const out: Record<MessagePart, Record<string, string>> = { public: {}, session: {} };
  for (const [key, text] of Object.entries(messages)) out[isPublic(key) ? 'public' : 'session'][key] = text;
  return out;
}
