/**
 * The route table of spec point 2, read from metadata.screens (no per-screen code): which screens
 * render inside the layout, which are public pages, the default child of each business path, and
 * which screen a URL belongs to (title, tab, breadcrumb, highlighted menu entry).
 *
 * The table follows the installed metadata: a login installs the session's screens in the open page
 * (auth/enterSession.ts), so the bindings below are `let` and rebuilt on each installation (an ES
 * module's importers read the current value of a `let` export).
 */
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import { onMetadataInstalled } from '../providers/sessionMetadata.ts';

/** Kinds rendered by the screens' generic renderer inside the layout. */
const PAGE_KINDS = new Set<CompiledScreen['kind']>(['list', 'edit', 'show', 'dashboard', 'custom']);

export let SCREENS: readonly CompiledScreen[] = [];
export let PAGE_SCREENS: readonly CompiledScreen[] = [];
export let ERROR_SCREENS: readonly CompiledScreen[] = [];
/** The sign-in flow's public pages (forgot password, set a new password), drawn by the component they name. */
export let AUTH_SCREENS: readonly CompiledScreen[] = [];
export let FORGOT_PASSWORD_SCREEN: CompiledScreen | undefined;
export let LOGIN_SCREEN: CompiledScreen | undefined;
/** '/redirect/*' refreshes a tab; '/auth-redirect' forwards to its redirect parameter. */
export let REFRESH_SCREEN: CompiledScreen | undefined;
export let AUTH_REDIRECT_SCREEN: CompiledScreen | undefined;
export let DASHBOARD: CompiledScreen | undefined;
export let HOME_PATH = '/dashboard';
export let LOGIN_PATH = '/login';
export let NOT_FOUND_PATH = '/404';
export let UNAUTHORIZED_PATH = '/401';
export let REFRESH_PREFIX = '/redirect';
/**
 * Each business path's default child is its list (spec 2): '/orderShip' -> '/orderShip/list'.
 * A prefix with several list screens (/consulting/list, /consulting/fee-items) goes to '<prefix>/list'.
 */
export let DEFAULT_CHILDREN: { from: string; to: string }[] = [];

function defaultChildren(): { from: string; to: string }[] {
  const out = new Map<string, string>();
  for (const s of PAGE_SCREENS) {
    const m = /^(\/[^/]+)\/[^/]+$/.exec(s.path);
    if (!m || s.kind !== 'list') continue;
    if (!out.has(m[1]) || s.path.endsWith('/list')) out.set(m[1], s.path);
  }
  return [...out].map(([from, to]) => ({ from, to }));
}

function build(): void {
  SCREENS = metadata.screens;
  PAGE_SCREENS = SCREENS.filter((s) => PAGE_KINDS.has(s.kind));
  ERROR_SCREENS = SCREENS.filter((s) => s.kind === 'error');
  AUTH_SCREENS = SCREENS.filter((s) => s.kind === 'auth');
  FORGOT_PASSWORD_SCREEN = AUTH_SCREENS.find((s) => s.component === 'ForgotPassword');
  LOGIN_SCREEN = SCREENS.find((s) => s.kind === 'login');
  REFRESH_SCREEN = SCREENS.find((s) => s.kind === 'redirect' && s.path.endsWith('/*'));
  AUTH_REDIRECT_SCREEN = SCREENS.find((s) => s.kind === 'redirect' && !s.path.endsWith('/*'));
  DASHBOARD = SCREENS.find((s) => s.kind === 'dashboard');
  HOME_PATH = DASHBOARD?.path ?? '/dashboard';
  LOGIN_PATH = LOGIN_SCREEN?.path ?? '/login';
  NOT_FOUND_PATH = ERROR_SCREENS.find((s) => s.path.endsWith('404'))?.path ?? '/404';
  UNAUTHORIZED_PATH = ERROR_SCREENS.find((s) => s.path.endsWith('401'))?.path ?? '/401';
  REFRESH_PREFIX = REFRESH_SCREEN ? REFRESH_SCREEN.path.replace(/\/\*$/, '') : '/redirect';
  DEFAULT_CHILDREN = defaultChildren();
}
build();
onMetadataInstalled(build);

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
