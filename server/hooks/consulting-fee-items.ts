/**
 * consultingFeeItem.validate: an urgent order costs at least an ordinary one, so a fee item whose
 * urgent order price is below its ordinary sales price is refused, on create, on update (whichever
 * of the two prices changes) and in an import (fee-import.ts asks the same hook for every row).
 */
import type { ConsultingFeeItem } from '../generated/types.ts';
import type { MessageKey } from '../generated/hooks.ts';
import type { ValidateHook } from '../engine/hook-types.ts';

export const validatePrices: ValidateHook<ConsultingFeeItem, MessageKey> = (ctx) => {
  const r = ctx.after;
  if (!r) return;
  const ordinary = r.ordinarySalesPrice;
  const urgent = r.urgentOrderPrice;
  if (typeof ordinary === 'number' && typeof urgent === 'number' && urgent < ordinary) {
    ctx.fieldError('urgentOrderPrice', 'validation.urgentPriceBelowOrdinary', { min: ordinary });
  }
};
