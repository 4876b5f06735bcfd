/**
 * Consulting management fees: fee items (to be confirmed, normal, void), the monthly fee lines to
 * settle and the settlement orders grouping them. A pending order's lines are in progress, an
 * agreed order's lines settled, a rejected order's lines back to be settled (still linked, as the
 * reject handler leaves them); lineCount and totalAmount always match the linked lines.
 */
import { partCode, partPrice, supplierPart } from './catalog.ts';
import { allocate, codesOf, S1, S2, STAFF, quota, round2, supplierUser, type SeedContext } from './context.ts';

export const FEE_ITEMS = 80;
export const SETTLEMENT_LINES = 120;
export const SETTLEMENTS = 15;
const SUPPLIERS = [S1, S2] as const;
const SUPPLIER_SHARE = [60, 40];

interface FeeItem {
  id: number;
  original: string;
  fee: string;
  unit: number;
}

export async function seedConsulting(ctx: SeedContext): Promise<void> {
  const items = await seedFeeItems(ctx);
  await seedSettlements(ctx, items);
}

async function seedFeeItems(ctx: SeedContext): Promise<FeeItem[][]> {
  const r = ctx.rng('consultingFeeItem');
  const st = codesOf(ctx.meta, 'consultingFeeItemState', ['toBeConfirmed', 'normal', 'void']);
  const insert = ctx.w.inserter('consultingFeeItem', [
    'originalPartsCode',
    'feePartsCode',
    'consultingFee',
    'managementRate',
    'supplierCode',
    'state',
    'effectiveDate',
    'confirmedAt',
    'confirmedBy',
    'cancelledAt',
    'importer',
    'importedAt',
    'ordinarySalesPrice',
    'urgentOrderPrice',
    'standardCost',
    'generalConsultingFee',
    'emergencyConsultingFee',
  ]);
  const { rushAirPriceParam, retailPriceParam } = ctx.meta.app.constants as Record<string, number>;
  const counts = allocate(ctx.count(FEE_ITEMS), SUPPLIER_SHARE);
  const normal: FeeItem[][] = [[], []];
  await ctx.batched(async (tick) => {
    for (const [si, supplier] of SUPPLIERS.entries()) {
      const user = supplierUser(supplier).userId;
      const states = quota(r, counts[si], [35, 45, 20]);
      for (let j = 0; j < states.length; j++) {
        const state = (['toBeConfirmed', 'normal', 'void'] as const)[states[j]];
        // one item per part of the supplier: (supplier, part, fee part, date) never repeats
        const part = supplierPart(si, j);
        const original = partCode(part);
        const fee = `ZX-${original}`;
        const price = partPrice(part);
        const urgent = round2(price * (rushAirPriceParam || 1.3));
        const rate = Math.round((0.02 + r.next() * 0.06) * 10000) / 10000;
        const general = round2(price * rate);
        const months = state === 'toBeConfirmed' ? r.int(0, 1) : state === 'normal' ? -r.int(0, 12) : -r.int(0, 10);
        const eff = ctx.monthStart(months);
        const imported = Math.min(0, eff - r.int(5, 20));
        const decided = Math.min(0, imported + r.int(1, 10));
        const id = insert({
          originalPartsCode: original,
          feePartsCode: fee,
          consultingFee: general,
          managementRate: rate,
          supplierCode: supplier,
          state: st[state],
          effectiveDate: ctx.day(eff),
          confirmedAt: state === 'normal' ? ctx.at(decided, ctx.workMinute(r)) : null,
          confirmedBy: state === 'toBeConfirmed' ? null : user,
          cancelledAt: state === 'void' ? ctx.at(decided, ctx.workMinute(r)) : null,
          importer: STAFF.userId,
          importedAt: ctx.at(imported, ctx.workMinute(r)),
          ordinarySalesPrice: price,
          urgentOrderPrice: urgent,
          standardCost: round2(price * (retailPriceParam || 0.7)),
          generalConsultingFee: general,
          emergencyConsultingFee: round2(urgent * rate),
        });
        if (state === 'normal') normal[si].push({ id, original, fee, unit: general });
        await tick();
      }
    }
  });
  return normal;
}

const APPROVAL = ['pending', 'agreed', 'rejected'] as const;
const REJECT_OPINIONS = ['费用明细与合同约定不符，请核对后重新提交', '管理费率有误，请按最新协议调整', '数量与系统出库记录不一致'];

async function seedSettlements(ctx: SeedContext, normal: FeeItem[][]): Promise<void> {
  const r = ctx.rng('settlement');
  const ap = codesOf(ctx.meta, 'settlementApprovalStatus', APPROVAL);
  const ls = codesOf(ctx.meta, 'settlementLineStatus', ['toBeSettled', 'inProgress', 'settled']);
  const insertSettlement = ctx.w.inserter('settlement', [
    'settlementNo',
    'supplierCode',
    'lineCount',
    'totalAmount',
    'approvalStatus',
    'submittedAt',
    'originator',
    'approvedAt',
    'approver',
    'opinion',
  ]);
  const insertLine = ctx.w.inserter('settlementLine', [
    'period',
    'supplierCode',
    'originalPartsCode',
    'feePartsCode',
    'consultingFeeItemId',
    'qty',
    'unitFee',
    'amount',
    'status',
    'settlementId',
  ]);
  const lineCounts = allocate(ctx.count(SETTLEMENT_LINES), SUPPLIER_SHARE);
  const orderCounts = allocate(ctx.count(SETTLEMENTS), SUPPLIER_SHARE);
  await ctx.batched(async (tick) => {
    for (const [si, supplier] of SUPPLIERS.entries()) {
      const originator = supplierUser(supplier).name;
      const pool = normal[si];
      const line = (period: string) => {
        const it = pool.length ? r.pick(pool) : null;
        const code = it ? it.original : partCode(supplierPart(si, r.int(0, 99)));
        const unit = it ? it.unit : round2(partPrice(supplierPart(si, 0)) * 0.05);
        const qty = r.int(5, 300);
        return {
          period,
          originalPartsCode: code,
          feePartsCode: it ? it.fee : `ZX-${code}`,
          consultingFeeItemId: it ? it.id : null,
          qty,
          unitFee: unit,
          amount: round2(qty * unit),
        };
      };
      // about two thirds of the lines sit in settlement orders, the rest wait to be settled
      let budget = Math.floor(lineCounts[si] * 0.65);
      let free = lineCounts[si];
      // pending, agreed, rejected: at least three rejected orders for the larger supplier, so a flow
      // that objects to a rejection in each language (tests/e2e/dialogs.spec.ts) leaves one for the
      // generated browser suite to open its dialog on
      const approvals = quota(r, orderCounts[si], [30, 40, 30]);
      for (let k = 0; k < approvals.length; k++) {
        const a = APPROVAL[approvals[k]];
        if (free <= 0) break;
        const size = Math.max(1, Math.min(r.int(3, 7), budget, free));
        budget -= size;
        free -= size;
        const submitted = a === 'pending' ? r.int(-20, 0) : a === 'rejected' ? r.int(-90, -5) : r.int(-150, -10);
        const approved = Math.min(0, submitted + r.int(1, 10));
        const period = ctx.day(submitted - 20).slice(0, 7);
        const lines = Array.from({ length: size }, () => line(period));
        const total = round2(lines.reduce((s, l) => s + l.amount, 0));
        const submitMinute = ctx.workMinute(r);
        const id = insertSettlement({
          settlementNo: ctx.number('JS', submitted, 6),
          supplierCode: supplier,
          lineCount: size,
          totalAmount: total,
          approvalStatus: ap[a],
          submittedAt: ctx.at(submitted, submitMinute),
          originator,
          approvedAt: a === 'pending' ? null : ctx.at(approved, approved === submitted ? Math.min(1439, submitMinute + r.int(30, 240)) : ctx.workMinute(r)),
          approver: a === 'pending' ? null : STAFF.userId,
          opinion: a === 'rejected' ? r.pick(REJECT_OPINIONS) : a === 'agreed' && r.chance(0.5) ? '同意结算' : null,
        });
        await tick();
        const status = a === 'pending' ? ls.inProgress : a === 'agreed' ? ls.settled : ls.toBeSettled;
        for (const l of lines) {
          insertLine({ ...l, supplierCode: supplier, status, settlementId: id });
          await tick();
        }
      }
      for (; free > 0; free--) {
        insertLine({ ...line(ctx.day(-r.int(5, 95)).slice(0, 7)), supplierCode: supplier, status: ls.toBeSettled, settlementId: null });
        await tick();
      }
    }
  });
  await ctx.syncNumberSeries('settlement', 'settlementNo');
}
