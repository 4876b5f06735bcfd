// TEMPORARY placeholder while the delivery-card PDF is being built (see the helper task); not done.
import type { ActionHandler } from '../engine/handler-types.ts';
import type { Order, OrderPrintDeliveryCardsInput } from '../generated/types.ts';
export const printDeliveryCards: ActionHandler<Order, OrderPrintDeliveryCardsInput> = (ctx) => ctx.fail(501, 'error.internal');
