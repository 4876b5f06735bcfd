/**
 * Child parts at the PDCs: stock per supplier, warehouse and child part; receive/send details;
 * difference (stock) adjustment applications in every status. Stock figures agree with each other:
 * total = stock + abnormal, available = stock - waiting to ship, shortage = demand - available.
 */
import { childCode, childName, mobile, partCode, supplierPart } from './catalog.ts';
import { allocate, codesOf, COMBOS, COMBO_WEIGHTS, S1, STAFF, quota, supplierName, supplierUser, weighted, type SeedContext } from './context.ts';
import type { OrderRefs } from './orders.ts';

export const CHILD_PART_STOCKS = 120;
export const CHILD_PART_MOVEMENTS = 400;
export const STOCK_ADJUSTMENTS = 80;

/** The stock rows of every supplier x warehouse combination: child part n of the supplier is row n. */
export interface StockPlan {
  counts: number[];
  /** stockQty per combo, by child part n (what adjustments may take away) */
  qty: Int32Array[];
}

export function planStocks(ctx: SeedContext): StockPlan {
  const counts = allocate(ctx.count(CHILD_PART_STOCKS), COMBO_WEIGHTS);
  return { counts, qty: counts.map((c) => new Int32Array(c)) };
}

/** Child parts of `supplier` that have a stock row in PDC01 (order child demands use these). */
export const childPoolOf = (plan: StockPlan) => (supplier: string) => Math.max(3, plan.counts[COMBOS.findIndex((c) => c.supplier === supplier)]);

const sIndex = (supplier: string) => (supplier === S1 ? 0 : 1);

export async function seedStocks(ctx: SeedContext, plan: StockPlan): Promise<void> {
  const r = ctx.rng('childPartStock');
  const insert = ctx.w.inserter('childPartStock', [
    'partsCode',
    'demandQty',
    'stockQty',
    'availableQty',
    'totalStockQty',
    'abnormalStockQty',
    'waitingShipQty',
    'shortageQty',
    'supplierCode',
    'warehouseCode',
    'partsDescription',
  ]);
  const row: Record<string, unknown> = {};
  await ctx.batched(async (tick) => {
    for (const [ci, combo] of COMBOS.entries()) {
      const si = sIndex(combo.supplier);
      for (let n = 0; n < plan.counts[ci]; n++) {
        const stock = r.chance(0.1) ? 0 : r.int(1, 200) * r.pick([1, 1, 5, 10]);
        const abnormal = r.chance(0.15) ? r.int(1, 20) : 0;
        const waiting = stock ? Math.min(stock, r.chance(0.5) ? r.int(0, 300) : 0) : 0;
        const available = stock - waiting;
        // about a quarter of the parts are short
        const demand = r.chance(0.25) ? available + r.int(1, 500) : r.int(0, available);
        plan.qty[ci][n] = stock;
        row.partsCode = childCode(supplierPart(si, n));
        row.demandQty = demand;
        row.stockQty = stock;
        row.availableQty = available;
        row.totalStockQty = stock + abnormal;
        row.abnormalStockQty = abnormal;
        row.waitingShipQty = waiting;
        row.shortageQty = demand - available;
        row.supplierCode = combo.supplier;
        row.warehouseCode = combo.warehouse;
        // the description an adjustment of this part carries (seedAdjustments): a pick in the lookup fills it in
        row.partsDescription = childName(supplierPart(si, n));
        insert(row);
        await tick();
      }
    }
  });
}

export async function seedMovements(ctx: SeedContext, plan: StockPlan, refs: OrderRefs): Promise<void> {
  const r = ctx.rng('childPartMovement');
  const cat = codesOf(ctx.meta, 'movementCategory', ['receive', 'send']);
  const insert = ctx.w.inserter('childPartMovement', [
    'category',
    'movementDate',
    'parentPartsCode',
    'partsCode',
    'purchaseOrderNo',
    'qty',
    'shipBillNo',
    'supplierCode',
    'warehouseCode',
  ]);
  const counts = allocate(ctx.count(CHILD_PART_MOVEMENTS), COMBO_WEIGHTS);
  const row: Record<string, unknown> = {};
  await ctx.batched(async (tick) => {
    for (const [ci, combo] of COMBOS.entries()) {
      const si = sIndex(combo.supplier);
      const parts = Math.max(1, plan.counts[ci]);
      const orders = refs.orders.get(`${combo.supplier}|${combo.warehouse}`) ?? { orderNo: [], releaseDay: [] };
      for (let i = 0; i < counts[ci]; i++) {
        const receive = i === 0 || (i > 1 && r.chance(0.55));
        // the movement belongs to a purchase order and happens after its release
        const o = orders.orderNo.length ? r.int(0, orders.orderNo.length - 1) : -1;
        const day = o < 0 ? r.int(-90, 0) : r.int(Math.max(-90, orders.releaseDay[o]), 0);
        row.category = receive ? cat.receive : cat.send;
        row.movementDate = ctx.day(day);
        row.parentPartsCode = receive && r.chance(0.2) ? null : partCode(supplierPart(si, r.int(0, refs.parentsPerSupplier - 1)));
        row.partsCode = childCode(supplierPart(si, r.int(0, parts - 1)));
        row.purchaseOrderNo = o < 0 ? null : orders.orderNo[o];
        row.qty = receive ? r.int(1, 200) * 10 : r.int(1, 500);
        row.shipBillNo = ctx.number(receive ? 'FH' : 'CK', day, 4);
        row.supplierCode = combo.supplier;
        row.warehouseCode = combo.warehouse;
        insert(row);
        await tick();
      }
    }
  });
}

const ADJUST_STATUS = ['unsubmitted', 'unaudited', 'claim', 'scrap', 'adjust', 'reject', 'complete'] as const;
const ADJUST_WEIGHTS = [15, 25, 10, 10, 15, 10, 15];
const REASONS = {
  adjustAccount: ['月度盘点账实差异', '入库数量与系统记录不符', '出库漏扫描导致账面偏差', '系统重复过账'],
  claim: ['来料短少，向承运商索赔', '运输途中外包装破损', '到货数量与发货单不符'],
  scrap: ['包装破损零件锈蚀', '超过保质期', '质量问题无法使用', '仓储受潮变形'],
} as const;
const REMARKS = ['已附盘点记录表', '详见邮件说明', '月度盘点发现', '已与仓库主管确认', null, null, null];
const REJECT_NOTES = ['差异原因说明不充分，请补充盘点记录', '调整数量与系统记录不符，请核实后重新申请', '缺少仓库签字确认单'];
const APPROVE_NOTES = ['同意', '情况属实，同意处理', null];

export async function seedAdjustments(ctx: SeedContext, plan: StockPlan): Promise<void> {
  const r = ctx.rng('stockAdjustment');
  const st = codesOf(ctx.meta, 'stockAdjustStatus', ADJUST_STATUS);
  const types = codesOf(ctx.meta, 'adjustType', ['adjustAccount', 'claim', 'scrap']);
  const insert = ctx.w.inserter('stockAdjustment', [
    'billNo',
    'supplierCode',
    'supplierName',
    'partsCode',
    'partsDescription',
    'adjustQty',
    'adjustType',
    'reason',
    'remarks',
    'status',
    'submittedAt',
    'submitter',
    'submitterPhone',
    'auditNote',
    'auditedAt',
    'auditor',
    'warehouseCode',
  ]);
  const counts = allocate(ctx.count(STOCK_ADJUSTMENTS), COMBO_WEIGHTS);
  await ctx.batched(async (tick) => {
    for (const [ci, combo] of COMBOS.entries()) {
      const si = sIndex(combo.supplier);
      const user = supplierUser(combo.supplier);
      const phone = mobile(r);
      const statuses = quota(r, counts[ci], ADJUST_WEIGHTS);
      for (const s of statuses) {
        const status = ADJUST_STATUS[s];
        const typeKey: keyof typeof REASONS =
          status === 'claim'
            ? 'claim'
            : status === 'scrap'
              ? 'scrap'
              : status === 'adjust'
                ? 'adjustAccount'
                : (['adjustAccount', 'claim', 'scrap'] as const)[weighted(r, [60, 25, 15])];
        const n = plan.counts[ci] ? r.int(0, plan.counts[ci] - 1) : r.int(0, 9);
        const stock = plan.counts[ci] ? plan.qty[ci][n] : 0;
        // claims and scraps take parts out; account adjustments go either way, never below the stock
        const out = typeKey !== 'adjustAccount' || r.chance(0.4);
        const qty = out && stock > 0 ? -r.int(1, Math.min(stock, 200)) : r.int(1, 200);
        const created = status === 'unsubmitted' || status === 'unaudited' ? r.int(-12, 0) : status === 'complete' ? r.int(-150, -20) : r.int(-60, -2);
        const returned = status === 'unsubmitted' && r.chance(0.3); // submitted once and sent back by the auditor
        const submitted = status === 'unsubmitted' && !returned ? null : Math.min(0, created + r.int(0, 1));
        const audited = submitted === null ? null : Math.min(0, submitted + r.int(1, 5));
        const decided = status !== 'unsubmitted' && status !== 'unaudited';
        const submitMinute = ctx.workMinute(r);
        const auditMinute = audited === submitted ? Math.min(1439, submitMinute + r.int(10, 240)) : ctx.workMinute(r);
        insert({
          billNo: ctx.number('TZ', created, 6),
          supplierCode: combo.supplier,
          supplierName: supplierName(combo.supplier),
          partsCode: childCode(supplierPart(si, n)),
          partsDescription: childName(supplierPart(si, n)),
          adjustQty: qty,
          adjustType: types[typeKey],
          reason: r.pick(REASONS[typeKey]),
          remarks: r.pick(REMARKS),
          status: st[status],
          submittedAt: submitted === null ? null : ctx.at(submitted, submitMinute),
          submitter: submitted === null ? user.name : user.userId,
          submitterPhone: phone,
          auditNote: status === 'reject' ? r.pick(REJECT_NOTES) : decided ? r.pick(APPROVE_NOTES) : returned ? '请补充差异照片后重新提交' : null,
          auditedAt: (decided || returned) && audited !== null ? ctx.at(audited, auditMinute) : null,
          auditor: decided || returned ? STAFF.userId : null,
          warehouseCode: combo.warehouse,
        });
        await tick();
      }
    }
  });
  await ctx.syncNumberSeries('stockAdjustment', 'billNo');
}
