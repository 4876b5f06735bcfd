/**
 * childPartMovement.afterWrite: a receipt adds its quantity to the supplier's child-part stock at
 * the PDC, an issue ("send") takes it away (server/handlers/stock.ts: refused when the stock would
 * go negative), in the transaction that records the movement. Movements come from the warehouse
 * system through inbound interface INTF0012; no screen creates them.
 */
import type { ChildPartMovement } from '../generated/types.ts';
import type { AfterWriteHook } from '../engine/hook-types.ts';
import { moveStock } from '../handlers/stock.ts';

export const applyMovementToStock: AfterWriteHook<ChildPartMovement> = async (ctx) => {
  if (ctx.operation !== 'create' || !ctx.after) return;
  const m = ctx.after;
  const send = ctx.meta.codeTables.movementCategory.values.find((v) => v.key === 'send')!.code;
  const qty = Number(m.qty ?? 0);
  await moveStock(ctx, m, m.category === send ? -qty : qty);
};
