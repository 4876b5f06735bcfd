/**
 * Everything the admin keeps in the browser, under names of our own. react-admin's Store
 * (localStorage "RaStore.*") is wiped on logout by design (react-admin #8805), so what must
 * survive a logout (language, settings panel) or must be cleared on our terms (token, account
 * status, user, warehouse, user ID, visited tabs) lives here instead.
 */
import type { Locale, Profile, Role } from '../../../codegen/runtime/model.ts';

export const KEYS = {
  /** the bearer token (spec 9: token and account status under two separate names) */
  token: 'portal.token',
  accountStatus: 'portal.accountStatus',
  /** the user info of the last accountInfo/info call, read synchronously by canAccess */
  user: 'portal.user',
  warehouse: 'portal.warehouse',
  userId: 'portal.userId',
  /** our own language preference: survives logout */
  locale: 'portal.locale',
  /** settings panel: survives logout */
  settings: 'portal.settings',
  sidebarCollapsed: 'portal.sidebarCollapsed',
  /** password notice from the last login (expiring soon), shown once by the layout */
  passwordNotice: 'portal.passwordNotice',
  /** visited tabs: per browser tab, cleared on logout */
  tabs: 'portal.tabs',
} as const;

/** The user as accountInfo/info describes it (server/routes/connect.ts). */
export interface PortalUser {
  userId: string;
  name: string;
  departmentName?: string | null;
  departmentId?: string | null;
  accountType: string;
  roleId: Role;
  roles: Role[];
  admin: boolean;
  profile: Profile;
  accountStatus: number;
  warehouseCode: string;
  warehouseName?: string | null;
  isClaimWarehouse: boolean;
  email?: string | null;
  mobile?: string | null;
  telephone?: string | null;
}

export interface PasswordNotice {
  code: string;
  message: string;
  days?: number;
}

// localStorage may be unavailable (private mode, tests): fall back to memory so nothing throws.
const memory = new Map<string, string>();
function area(kind: 'local' | 'session'): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}
export function read(key: string, kind: 'local' | 'session' = 'local'): string | null {
  const s = area(kind);
  return s ? s.getItem(key) : (memory.get(`${kind}:${key}`) ?? null);
}
export function write(key: string, value: string | null, kind: 'local' | 'session' = 'local'): void {
  const s = area(kind);
  if (!s) {
    if (value === null) memory.delete(`${kind}:${key}`);
    else memory.set(`${kind}:${key}`, value);
    return;
  }
  if (value === null) s.removeItem(key);
  else s.setItem(key, value);
}
export function readJson<T>(key: string, kind: 'local' | 'session' = 'local'): T | null {
  const raw = read(key, kind);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}
export const writeJson = (key: string, value: unknown, kind: 'local' | 'session' = 'local'): void =>
  write(key, value === null || value === undefined ? null : JSON.stringify(value), kind);

// ---- session ---------------------------------------------------------------------------------

type Listener = () => void;
const listeners = new Set<Listener>();
/** Components re-render on token / user / status changes through this (useSyncExternalStore). */
export function subscribeSession(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
const emit = () => listeners.forEach((l) => l());

export const getToken = (): string | null => read(KEYS.token);
export function setToken(token: string | null): void {
  if (token === getToken()) return;
  write(KEYS.token, token);
  emit();
}
export function getAccountStatus(): number | null {
  const v = read(KEYS.accountStatus);
  return v === null || v === '' ? null : Number(v);
}
export function setAccountStatus(status: number | null): void {
  write(KEYS.accountStatus, status === null ? null : String(status));
  emit();
}
export const getUser = (): PortalUser | null => readJson<PortalUser>(KEYS.user);
export function setUser(user: PortalUser | null): void {
  writeJson(KEYS.user, user);
  emit();
}
export const getStoredWarehouse = (): string | null => read(KEYS.warehouse);
export const getStoredUserId = (): string | null => read(KEYS.userId);
export function rememberLogin(userId: string, warehouse: string): void {
  write(KEYS.userId, userId);
  write(KEYS.warehouse, warehouse);
}
export const setStoredWarehouse = (warehouse: string): void => write(KEYS.warehouse, warehouse);

export const getPasswordNotice = (): PasswordNotice | null => readJson<PasswordNotice>(KEYS.passwordNotice, 'session');
export const setPasswordNotice = (n: PasswordNotice | null): void => writeJson(KEYS.passwordNotice, n, 'session');

/** Only the token goes (the 401 dialog's re-login): user ID and warehouse stay to prefill the login form. */
export function resetToken(): void {
  write(KEYS.token, null);
  write(KEYS.accountStatus, null);
  write(KEYS.user, null);
  emit();
}

/** Logout (spec 4): user data, token, visited tabs, stored warehouse and user ID. Language and settings stay. */
export function clearSession(): void {
  for (const k of [KEYS.token, KEYS.accountStatus, KEYS.user, KEYS.warehouse, KEYS.userId]) write(k, null);
  write(KEYS.tabs, null, 'session');
  write(KEYS.passwordNotice, null, 'session');
  emit();
}

export const getStoredLocale = (): Locale | null => {
  const v = read(KEYS.locale);
  return v === 'zh-CN' || v === 'en-US' ? v : null;
};
export const setStoredLocale = (l: Locale): void => write(KEYS.locale, l);
