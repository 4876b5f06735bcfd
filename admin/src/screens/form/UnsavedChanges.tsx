/**
 * A form with unsaved changes is never lost or mistaken for the saved record (issue 20 point 1):
 * - leaving it (menu, tab, breadcrumb, back button, any in-app navigation) asks first; closing or
 *   reloading the browser tab asks through the browser's own question (beforeunload);
 * - a record action (Submit, Activate ...) runs on the record as the server holds it, so while the
 *   form is dirty its buttons are disabled and say why: save (or undo) first.
 * Both read react-hook-form's dirty state, so they must be rendered inside the form.
 */
import { useContext, useEffect, type ReactElement, type ReactNode } from 'react';
import { Tooltip, Typography } from '@mui/material';
import { useFormState } from 'react-hook-form';
import { useTranslate } from 'react-admin';
import { UNSAFE_NavigationContext, type Navigator } from 'react-router-dom';

/**
 * While mounted and `active`, in-app navigation asks `message` first and the browser asks before
 * the tab closes or reloads. The app runs under a BrowserRouter (not a data router, so react-router's
 * useBlocker is unavailable): the navigator every Link and navigate() goes through is wrapped
 * instead, and restored when the form is saved, undone or unmounted.
 */
export function useLeaveGuard(active: boolean, message: string): void {
  const { navigator } = useContext(UNSAFE_NavigationContext);
  useEffect(() => {
    if (!active) return;
    const onBeforeUnload = (ev: BeforeUnloadEvent) => {
      ev.preventDefault();
      ev.returnValue = message;
    };
    const restore = askBeforeNavigating(navigator, message);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      restore();
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [active, message, navigator]);
}

/** set while the page itself moves on from a form it has just saved (create -> ?id=) */
let movingOnAfterSave = false;

/** Runs `go` (a navigation) without asking: the form's changes were just saved, its dirty state not reset yet. */
export function navigateAfterSave(go: () => void): void {
  movingOnAfterSave = true;
  try {
    go();
  } finally {
    movingOnAfterSave = false;
  }
}

/** Makes the router's push and replace ask `message` first; returns the undo. */
function askBeforeNavigating(navigator: Navigator, message: string): () => void {
  const { push, replace } = navigator;
  const guarded =
    <A extends unknown[]>(go: (...args: A) => void) =>
    (...args: A) => {
      if (movingOnAfterSave || window.confirm(message)) go(...args);
    };
  navigator.push = guarded(push);
  navigator.replace = guarded(replace);
  return () => {
    navigator.push = push;
    navigator.replace = replace;
  };
}

/** Asks before leaving the surrounding form while it has unsaved changes. */
export function LeaveGuard(): null {
  const translate = useTranslate();
  const { isDirty } = useFormState();
  useLeaveGuard(isDirty, translate('ui.unsaved.leave'));
  return null;
}

/**
 * The record action buttons of an edit form: enabled as given while the form is clean, disabled
 * with the reason in their tooltip and beside them while it holds unsaved changes.
 */
export function RecordActionButtons({ children }: { children: (blockedReason: (label: string) => string | null) => ReactNode }): ReactElement {
  const translate = useTranslate();
  const { isDirty } = useFormState();
  const reason = (label: string) => (isDirty ? translate('ui.unsaved.actionBlocked', { action: label }) : null);
  return (
    <>
      {children(reason)}
      {isDirty && (
        <Typography variant="caption" color="warning.dark" data-testid="unsaved-hint" role="status">
          {translate('ui.unsaved.hint')}
        </Typography>
      )}
    </>
  );
}

/** A disabled button keeps its reason as a tooltip (a disabled button fires no events: the tooltip listens on a wrapper, as in the list toolbar). */
export function WithReason({ reason, testId, children }: { reason: string | null; testId: string; children: ReactElement }): ReactElement {
  if (!reason) return children;
  return (
    <Tooltip title={reason} arrow describeChild>
      <span data-testid={testId}>{children}</span>
    </Tooltip>
  );
}
