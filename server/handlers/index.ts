/**
 * The hand-written business logic behind actions marked "handler": true in metadata. The type
 * ActionHandlers is generated from metadata, so a new handler action that is not implemented here
 * is a compile error, and a handler for an action that no longer exists is one too.
 */
import type { ActionHandlers } from '../generated/handlers.ts';
import * as orders from './orders.ts';
import * as dfs from './dfs.ts';
import * as adjustments from './adjustments.ts';
import * as settlement from './settlement.ts';
import * as interfaces from './interfaces.ts';
import { accountHandlers } from './accounts.ts';
import * as machineClients from './machine-clients.ts';
import type { ScryptParams } from '../engine/passwords.ts';
import { printDeliveryCards } from './delivery-cards.ts';
import { importFeeItems } from './fee-import.ts';

export interface HandlerOptions {
  /** the cost of the password hashes handlers make (initial passwords); production by default */
  hashParams?: ScryptParams;
}

export function createHandlers(opts: HandlerOptions = {}): ActionHandlers {
  const accounts = accountHandlers(opts.hashParams);
  return {
    'account.disable': accounts.disable,
    'account.enable': accounts.enable,
    'account.lock': accounts.lock,
    'account.register': accounts.register,
    'account.resetPassword': accounts.resetPassword,
    'account.unlock': accounts.unlock,
    'consultingFeeItem.import': importFeeItems,
    'dfsOrder.ship': dfs.ship,
    'interfaceMessage.resendFailed': interfaces.resendFailed,
    'machineClient.register': machineClients.register,
    'machineClient.rotateSecret': machineClients.rotateSecret,
    'order.confirm': orders.confirm,
    'order.printDeliveryCards': printDeliveryCards,
    'order.ship': orders.ship,
    'settlement.agree': settlement.agree,
    'settlement.reject': settlement.reject,
    'settlement.rejectRejection': settlement.rejectRejection,
    'settlementLine.initiate': settlement.initiate,
    'stockAdjustment.adjust': adjustments.adjust,
  };
}

export const handlers: ActionHandlers = createHandlers();
