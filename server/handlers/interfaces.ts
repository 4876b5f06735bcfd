/**
 * The interface log's bulk resend: every failed message (of one interface, when chosen) goes back
 * to the queue as a manual resend. One UPDATE however many there are (after an outage of a
 * receiver that can be thousands), and one audit entry saying how many and which interface.
 * The dispatcher then sends them as it sends any due message; each attempt records mode manual.
 */
import { quote } from '../../codegen/runtime/dialect.ts';
import type { CollectionHandler } from '../engine/handler-types.ts';
import type { InterfaceMessageResendFailedInput } from '../generated/types.ts';
import { InterfaceMessageStatus, InterfaceSendMode } from '../generated/types.ts';

export const resendFailed: CollectionHandler<InterfaceMessageResendFailedInput> = async (ctx) => {
  const e = ctx.entity;
  const c = (f: string) => quote(e.fields[f].column);
  const only = ctx.input.interfaceCode ?? null;
  const r = await ctx.db.run(
    `UPDATE ${quote(e.table)} SET ${c('status')} = ?, ${c('nextAttemptAt')} = ?, ${c('nextSendMode')} = ?, ${c('updatedAt')} = ?, ${c('updatedBy')} = ? WHERE ${c('status')} = ?${only ? ` AND ${c('interfaceCode')} = ?` : ''}`,
    [InterfaceMessageStatus.pending, ctx.now, InterfaceSendMode.manual, ctx.now, ctx.principal.userId, InterfaceMessageStatus.failed, ...(only ? [only] : [])],
  );
  await ctx.insert('auditEntry', {
    at: ctx.now,
    userId: ctx.principal.userId,
    warehouseCode: ctx.principal.warehouse,
    resource: e.resource,
    operation: `action:${ctx.action.name}`,
    changes: JSON.stringify({ interfaceCode: only, resent: r.changes }),
  });
  return { resent: r.changes };
};
