/**
 * The lifecycle hooks entities declare in metadata ("hooks"): rules beyond one field and beyond a
 * state change, run by the engine inside create, update and delete (server/engine/hook-types.ts).
 * The type EntityHooks is generated from metadata, so a declared hook that is not implemented here
 * is a compile error, and so is a hook nobody declared.
 */
import type { EntityHooks } from '../generated/hooks.ts';
import { validatePrices } from './consulting-fee-items.ts';
import { validateGrants } from './machine-clients.ts';
import { applyMovementToStock } from './child-part-movements.ts';

export const hooks: EntityHooks = {
  consultingFeeItem: { validate: validatePrices },
  machineClient: { validate: validateGrants },
  childPartMovement: { afterWrite: applyMovementToStock },
};
