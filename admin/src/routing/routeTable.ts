/**
 * The route table of spec point 2, read from metadata.screens (no per-screen code): which screens
 * render inside the layout, which are public pages, the default child of each business path, and
 * which screen a URL belongs to (title, tab, breadcrumb, highlighted menu entry).
 */
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';

export const SCREENS: readonly CompiledScreen[] = metadata.screens;

/** Kinds rendered by the screens' generic renderer inside the layout. */
const PAGE_KINDS = new Set<CompiledScreen['kind']>(['list', 'edit', 'show', 'dashboard', 'custom']);
export const PAGE_SCREENS = SCREENS.filter((s) => PAGE_KINDS.has(s.kind));
export const ERROR_SCREENS = SCREENS.filter((s) => s.kind === 'error');
/** The sign-in flow's public pages (forgot password, set a new password), drawn by the component they name. */
export const AUTH_SCREENS = SCREENS.filter((s) => s.kind === 'auth');
export const FORGOT_PASSWORD_SCREEN = AUTH_SCREENS.find((s) => s.component === 'ForgotPassword');
export const LOGIN_SCREEN = SCREENS.find((s) => s.kind === 'login');
/** '/redirect/*' refreshes a tab; '/auth-redirect' forwards to its redirect parameter. */
export const REFRESH_SCREEN = SCREENS.find((s) => s.kind === 'redirect' && s.path.endsWith('/*'));
export const AUTH_REDIRECT_SCREEN = SCREENS.find((s) => s.kind === 'redirect' && !s.path.endsWith('/*'));

export const DASHBOARD = SCREENS.find((s) => s.kind === 'dashboard');
export const HOME_PATH = DASHBOARD?.path ?? '/dashboard';
export const LOGIN_PATH = LOGIN_SCREEN?.path ?? '/login';
export const NOT_FOUND_PATH = ERROR_SCREENS.find((s) => s.path.endsWith('404'))?.path ?? '/404';
export const UNAUTHORIZED_PATH = ERROR_SCREENS.find((s) => s.path.endsWith('401'))?.path ?? '/401';
export const REFRESH_PREFIX = REFRESH_SCREEN ? REFRESH_SCREEN.path.replace(/\/\*$/, '') : '/redirect';

/**
 * Each business path's default child is its list (spec 2): '/orderShip' -> '/orderShip/list'.
 * A prefix with several list screens (/consulting/list, /consulting/fee-items) goes to '<prefix>/list'.
 */
export const DEFAULT_CHILDREN: { from: string; to: string }[] = (() => {
  const out = new Map<string, string>();
  for (const s of PAGE_SCREENS) {
    const m = /^(\/[^/]+)\/[^/]+$/.exec(s.path);
    if (!m || s.kind !== 'list') continue;
    if (!out.has(m[1]) || s.path.endsWith('/list')) out.set(m[1], s.path);
  }
  return [...out].map(([from, to]) => ({ from, to }));
})();

/** The layout screen a pathname belongs to: exact path, or a sub-path of it (/notice/edit/12). */
export function screenForPath(pathname: string): CompiledScreen | undefined {
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PAGE_SCREENS.find((s) => s.path === p) ?? PAGE_SCREENS.find((s) => p.startsWith(`${s.path}/`));
}

export const screenByPath = (path: string): CompiledScreen | undefined => SCREENS.find((s) => s.path === path);

/** The menu entry highlighted for a screen: hidden screens name theirs in activeMenu. */
export const menuPathOf = (s: CompiledScreen): string => s.activeMenu ?? s.path;

/** A redirect target from a query parameter: same-origin paths only (no '//host', no scheme). */
export function safeTarget(raw: string | null | undefined): string | null {
  if (!raw) return null;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  if (raw === LOGIN_PATH || raw.startsWith(`${LOGIN_PATH}?`)) return null;
  return raw;
}
