/**
 * Consulting-fee settlement: lines (to be settled -> in progress -> settled) are grouped into a
 * numbered settlement order that an approver agrees to or rejects.
 */
import type { ActionHandler, HandlerServices } from '../engine/handler-types.ts';
import type {
  Settlement,
  SettlementAgreeInput,
  SettlementLine,
  SettlementLineInitiateInput,
  SettlementRejectInput,
  SettlementRejectRejectionInput,
} from '../generated/types.ts';
import { SettlementApprovalStatus, SettlementLineStatus } from '../generated/types.ts';
import { inOrder } from './in-order.ts';

interface LineRow {
  id: number;
  amount: number | null;
}

/**
 * The lines of a settlement in one status, locked (PostgreSQL re-checks the condition once it has
 * the lock: a line another transaction just moved elsewhere is not returned).
 */
async function linesOf(ctx: HandlerServices, settlementId: number, status: string): Promise<LineRow[]> {
  const t = ctx.meta.entities.settlementLine.table;
  return ctx.db.all<LineRow>(`SELECT l.id, l.amount FROM ${t} l WHERE l.settlement_id = ? AND l.status = ? ORDER BY l.id${ctx.db.dialect.forUpdate('l')}`, [
    settlementId,
    status,
  ]);
}

const total = (amounts: (number | null | undefined)[]): number => Math.round(amounts.reduce<number>((s, a) => s + Number(a ?? 0), 0) * 100) / 100;

/** Groups the selected to-be-settled lines of one supplier into a new settlement order. */
export const initiate: ActionHandler<SettlementLine, SettlementLineInitiateInput> = async (ctx) => {
  const suppliers = new Set(ctx.records.map((l) => l.supplierCode));
  if (suppliers.size !== 1) ctx.fail(409, 'error.settlementLinesNotSettleable');
  const settlement = await ctx.insert('settlement', {
    supplierCode: ctx.records[0].supplierCode,
    lineCount: ctx.records.length,
    totalAmount: total(ctx.records.map((l) => l.amount)),
    approvalStatus: SettlementApprovalStatus.pending,
    submittedAt: ctx.now,
    originator: ctx.principal.name,
  });
  return inOrder(ctx.records, (l) => ctx.transition(l, { settlementId: settlement.id }));
};

/** Agreed: the order's lines become settled. */
export const agree: ActionHandler<Settlement, SettlementAgreeInput> = (ctx) =>
  inOrder(ctx.records, async (s) => {
    for (const l of await linesOf(ctx, Number(s.id), SettlementLineStatus.inProgress))
      await ctx.update('settlementLine', Number(l.id), { status: SettlementLineStatus.settled });
    return ctx.transition(s);
  });

/** Rejected with an opinion: the lines go back to to-be-settled (keeping the link for a later objection). */
export const reject: ActionHandler<Settlement, SettlementRejectInput> = (ctx) =>
  inOrder(ctx.records, async (s) => {
    for (const l of await linesOf(ctx, Number(s.id), SettlementLineStatus.inProgress))
      await ctx.update('settlementLine', Number(l.id), { status: SettlementLineStatus.toBeSettled });
    return ctx.transition(s);
  });

/**
 * Objection to a rejection: the order goes back to pending approval with the lines that are still
 * free (a line initiated again elsewhere meanwhile stays there). Nothing left: refused.
 */
export const rejectRejection: ActionHandler<Settlement, SettlementRejectRejectionInput> = (ctx) =>
  inOrder(ctx.records, async (s) => {
    const lines = await linesOf(ctx, Number(s.id), SettlementLineStatus.toBeSettled);
    if (!lines.length) ctx.fail(409, 'error.settlementLinesNotSettleable');
    for (const l of lines) await ctx.update('settlementLine', Number(l.id), { status: SettlementLineStatus.inProgress });
    return ctx.transition(s, { lineCount: lines.length, totalAmount: total(lines.map((l) => l.amount)), approvedAt: null, approver: null });
  });
