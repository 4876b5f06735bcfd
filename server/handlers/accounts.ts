/** Account administration: unlocking after too many failed logins resets the failure counter. */
import type { ActionHandler } from '../engine/handler-types.ts';
import type { Account, AccountUnlockInput } from '../generated/types.ts';
import { inOrder } from './in-order.ts';

export const unlock: ActionHandler<Account, AccountUnlockInput> = (ctx) => inOrder(ctx.records, (a) => ctx.transition(a, { failedLogins: 0 }));
