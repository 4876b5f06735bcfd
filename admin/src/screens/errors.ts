/**
 * Server errors in the screens. The HTTP layer (providers/httpClient.ts) rejects with an HttpError
 * whose body keeps the server's { code, message, errors, errorArgs }: `message` is already in the
 * user's language, `errors` is already in react-admin's form shape (set on the inputs).
 */
import { useCallback } from 'react';
import { useNotify, useRefresh } from 'react-admin';

export interface ServerError {
  message?: string;
  status?: number;
  body?: { code?: string; message?: string; errors?: Record<string, unknown>; [k: string]: unknown };
}

export const errorCode = (e: unknown): string | undefined => (e as ServerError | undefined)?.body?.code;
export const formErrorsOf = (e: unknown): Record<string, unknown> | undefined => {
  const errs = (e as ServerError | undefined)?.body?.errors;
  return errs && typeof errs === 'object' && Object.keys(errs).length ? errs : undefined;
};

/**
 * Shows a failure as the server worded it (or a translated fallback key). After a concurrent-edit
 * refusal (409 error.staleVersion) or an action the record's new state refuses (409
 * error.illegalTransition) the page's data is fetched again, lists and forms alike: the user sees
 * what the other user changed and can operate again on the current version.
 */
export function useNotifyError(): (e: unknown) => void {
  const notify = useNotify();
  const refresh = useRefresh();
  return useCallback(
    (e: unknown) => {
      const err = e as ServerError | undefined;
      const msg = err?.body?.message || err?.message || 'error.generic';
      notify(msg, { type: 'error', messageArgs: { _: msg } });
      if (REFETCH_AFTER.has(errorCode(e) ?? '')) refresh();
    },
    [notify, refresh],
  );
}

export const STALE_VERSION = 'error.staleVersion';
/** refusals that mean the page shows outdated data: a concurrent edit, a state another user changed */
const REFETCH_AFTER = new Set([STALE_VERSION, 'error.illegalTransition']);
