/**
 * Two-step verification in the browser: what the user info says about it, and the one piece of
 * session state it adds: "this account must enrol before anything else" (its account type
 * requires it, and it has none). Raised by the user info (login, page load) and by a 403
 * `error.mfaEnrolmentRequired` of any call; answered by the forced enrolment dialog
 * (MfaEnrolmentGate in PersonalInfoDialog.tsx). A module-level store, as authEvents is, because
 * the providers run outside React.
 */
import { useSyncExternalStore } from 'react';
import type { PortalUser } from '../providers/storage.ts';

/** `user.mfa` of POST /supplierApi/accountInfo/info (server/routes/connect.ts) */
export interface UserMfa {
  enabled: boolean;
  required: boolean;
  enrolledAt: string | null;
  recoveryCodesLeft: number;
}

export const mfaOf = (user: PortalUser | null | undefined): UserMfa | null => (user as (PortalUser & { mfa?: UserMfa }) | null | undefined)?.mfa ?? null;

/** The error code of every business call while an account that must enrol has not. */
export const MFA_ENROLMENT_REQUIRED = 'error.mfaEnrolmentRequired';

let enrolmentRequired = false;
const listeners = new Set<() => void>();
const set = (v: boolean) => {
  if (v === enrolmentRequired) return;
  enrolmentRequired = v;
  listeners.forEach((l) => l());
};

export const mfaEvents = {
  subscribe(l: () => void): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  get: (): boolean => enrolmentRequired,
  requireEnrolment: (): void => set(true),
  enrolled: (): void => set(false),
  /** from the user info: required and not on */
  fromUser(user: PortalUser | null | undefined): void {
    const m = mfaOf(user);
    set(!!m && m.required && !m.enabled);
  },
  reset: (): void => set(false),
};

export const useMfaEnrolmentRequired = (): boolean => useSyncExternalStore(mfaEvents.subscribe, mfaEvents.get);

/** The secret as the dialog shows it: groups of four, as authenticator apps take it by hand. */
export const groupSecret = (secret: string): string => secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
