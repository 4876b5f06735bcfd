/**
 * The portal's own addresses that mails carry (login page, forgot-password page, a reset link).
 * The base is configuration (PORTAL_PUBLIC_URL), never the Host header of a request: a forged
 * Host would otherwise put an attacker's site into a real reset mail. The page paths come from
 * metadata (the login screen and the sign-in flow's "auth" screens), like every route.
 */
import { metadata } from '../generated/index.ts';

export interface PortalLinks {
  /** the configured base, without a trailing slash */
  base: string;
  login: string;
  forgotPassword: string;
}

const screenPath = (what: string, pick: (s: (typeof metadata.screens)[number]) => boolean): string => {
  const s = metadata.screens.find(pick);
  if (!s) throw new Error(`metadata has no ${what} screen (the mails link to it)`);
  return s.path;
};

/** Checks and normalises a public base URL: http(s), no query or fragment, no trailing slash. */
export function normalisePublicUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`PORTAL_PUBLIC_URL must be an absolute http(s) URL, not "${raw}"`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`PORTAL_PUBLIC_URL must be http or https, not "${raw}"`);
  if (u.search || u.hash || u.username || u.password) throw new Error(`PORTAL_PUBLIC_URL must be a plain base address (no query, fragment or credentials), not "${raw}"`);
  return `${u.origin}${u.pathname}`.replace(/\/+$/, '');
}

/**
 * The reset page with the token in the fragment (never sent to a server, never in a log or a
 * Referer), as a path: code that queues a mail passes portal
 * paths (a `...Link` placeholder whose value starts with "/") and the sender puts the configured
 * base before them, so a transaction needs no configuration to queue a link.
 */
export const resetPasswordPath = (token: string): string =>
  `${screenPath('reset-password', (s) => s.kind === 'auth' && s.component === 'ResetPassword')}#token=${encodeURIComponent(token)}`;

/** A `...Link` placeholder's value as the mail shows it: a portal path becomes an absolute URL. */
export const isLinkVar = (name: string): boolean => name.endsWith('Link');
export const absoluteLink = (base: string, value: string): string => (value.startsWith('/') && !value.startsWith('//') ? base + value : value);

export function portalLinks(publicUrl: string): PortalLinks {
  const base = normalisePublicUrl(publicUrl);
  const login = screenPath('login', (s) => s.kind === 'login');
  const forgot = screenPath('forgot-password', (s) => s.kind === 'auth' && s.component === 'ForgotPassword');
  return {
    base,
    login: base + login,
    forgotPassword: base + forgot,
  };
}
