/**
 * Session events raised by the HTTP layer and answered by dialogs in the layout. A module-level
 * store (read with useSyncExternalStore) rather than React context, because the httpClient runs
 * outside React. The 401 dialog opens once however many calls fail together: react-admin's own
 * debounce in useLogoutIfAccessDenied covers one tick only.
 */

export interface AuthEventState {
  /** the login-timeout dialog (HTTP 401) */
  relogin: { open: boolean; message?: string };
  /** the forced change-password dialog (account status 602, or a 403 error.passwordMustChange) */
  mustChangePassword: boolean;
}

let state: AuthEventState = { relogin: { open: false }, mustChangePassword: false };
const listeners = new Set<() => void>();
const set = (next: AuthEventState) => {
  state = next;
  listeners.forEach((l) => l());
};

export const authEvents = {
  subscribe(l: () => void): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  get: (): AuthEventState => state,
  /** Returns true when this call opened the dialog, false when it was already open. */
  requestRelogin(message?: string): boolean {
    if (state.relogin.open) return false;
    set({ ...state, relogin: { open: true, message } });
    return true;
  },
  closeRelogin(): void {
    if (state.relogin.open) set({ ...state, relogin: { open: false } });
  },
  requirePasswordChange(): void {
    if (!state.mustChangePassword) set({ ...state, mustChangePassword: true });
  },
  passwordChanged(): void {
    if (state.mustChangePassword) set({ ...state, mustChangePassword: false });
  },
  /** tests */
  reset(): void {
    set({ relogin: { open: false }, mustChangePassword: false });
  },
};
