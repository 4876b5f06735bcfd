/**
 * Why an action may not run on a record in a given state, one rule for the server's 409 and the
 * screens' disabled buttons. An action's own message (illegalTransitionKey, e.g. "upload the receipt
 * document first") is the reason only in the states it is true of (illegalTransitionIn, default
 * all): a confirmed receipt is not told to upload its document. In any other state the code stays
 * error.illegalTransition and the message names the record's status (error.statusChanged).
 */
import type { CompiledAction } from './model.ts';

export const GENERIC_TRANSITION_REFUSAL = 'error.illegalTransition';

export interface TransitionRefusal {
  /** the error code clients test */
  code: string;
  /** the message to show when it is not the code's own: then its arguments name the record, its status and the action */
  messageKey?: 'error.statusChanged';
}

export function transitionRefusal(a: CompiledAction, status: string): TransitionRefusal {
  const own = a.illegalTransitionKey !== GENERIC_TRANSITION_REFUSAL && (!a.illegalTransitionIn || a.illegalTransitionIn.includes(status));
  return own ? { code: a.illegalTransitionKey } : { code: GENERIC_TRANSITION_REFUSAL, messageKey: 'error.statusChanged' };
}
