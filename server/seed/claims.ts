/**
 * Dealers' claims on the suppliers' parts, in every claim status and logistics confirmation
 * status, with claimQty <= shipQty and totalAmount = price x claimQty. Claims are handled in the
 * claim warehouse PDC01 (claimWarehouse); most were shipped from PDC01, some from PDC02.
 */
import { makeDealers, mobile, partCode, partPrice, personName, supplierPart } from './catalog.ts';
import { allocate, codesOf, COMBOS, S1, S2, STAFF, W1, quota, round2, supplierUser, weighted, type SeedContext } from './context.ts';

export const CLAIMS = 100;
const COMBO_SHARE = [50, 35, 8, 7];

const STATUS = ['unsubmitted', 'unaudited', 'reparation', 'change', 'sentBack', 'remodify', 'complete'] as const;
const STATUS_WEIGHTS = [8, 30, 12, 12, 10, 8, 20];
const LOGISTICS = ['wait', 'confirmed', 'appealing', 'recalled'] as const;
const LOGISTICS_WEIGHTS = [50, 25, 15, 10];
const REASONS = {
  damaged: ['外包装破损，零件表面划伤', '运输途中挤压变形', '灯罩碎裂'],
  reparation: ['安装后异响，需返修', '使用一周后漏油', '装车后功能异常'],
  partsError: ['实物与订购零件号不符', '左右件发错', '颜色代码不符'],
  numberError: ['到货数量少于发货单数量', '箱内实际数量与标签不符'],
  callBack: ['厂家召回批次零件', '质量通知要求退回'],
  others: ['标签模糊无法识别', '其他原因，详见附件'],
} as const;
const REASON_KEYS = Object.keys(REASONS) as (keyof typeof REASONS)[];
const REASON_WEIGHTS = [35, 15, 15, 15, 8, 12];
const REJECT_BASIS = ['发货前检验记录完好，破损属经销商卸货造成', '零件号与订单一致，不属于错发', '已超过索赔期限'];
const APPROVE_BASIS = ['经核实属实，同意更换', '同意返修处理', '质检报告确认质量问题', null];
const RETURN_REASONS = ['请补充破损照片', '请提供装箱单扫描件', '索赔数量与照片不符，请修改'];
const APPEAL_REASONS = ['承运商签收时未注明破损，物流责任不成立', '出库复核记录显示数量正确', '包装符合运输标准，非物流原因'];

export async function seedClaims(ctx: SeedContext, parentsPerSupplier: number): Promise<void> {
  const { w, meta } = ctx;
  const r = ctx.rng('claim');
  const st = codesOf(meta, 'claimStatus', STATUS);
  const lg = codesOf(meta, 'logisticsConfirmStatus', LOGISTICS);
  const reason = codesOf(meta, 'claimReason', REASON_KEYS);
  const ot = codesOf(meta, 'dealerOrderType', ['normal', 'urgent', 'vor', 'dfs']);
  const tt = codesOf(meta, 'transportType', ['air', 'sea']);
  const dealers = makeDealers(ctx.rng('dealer'), 60);
  const insert = w.inserter('claim', [
    'claimNo',
    'status',
    'dealerCode',
    'dealerName',
    'dealerOrderNo',
    'shipBillNo',
    'partsCode',
    'shipQty',
    'claimQty',
    'price',
    'totalAmount',
    'reasonCode',
    'reason',
    'submitter',
    'submitterPhone',
    'submittedAt',
    'warehouseCode',
    'claimWarehouse',
    'supplierCode',
    'purchaseSupplierCode',
    'orderType',
    'transportType',
    'logisticsStatus',
    'appealReason',
    'judgmentBasis',
    'returnReason',
    'auditedAt',
    'auditor',
    'logisticsConfirmedAt',
    'logisticsConfirmedBy',
  ]);
  const counts = allocate(ctx.count(CLAIMS), COMBO_SHARE);
  await ctx.batched(async (tick) => {
    for (const [ci, combo] of COMBOS.entries()) {
      const si = combo.supplier === S1 ? 0 : 1;
      const user = supplierUser(combo.supplier).userId;
      const statuses = quota(r, counts[ci], STATUS_WEIGHTS);
      const logistics = quota(r, counts[ci], LOGISTICS_WEIGHTS);
      for (let i = 0; i < statuses.length; i++) {
        const status = STATUS[statuses[i]];
        // a claim not yet submitted has had no logistics decision either
        const lgs = status === 'unsubmitted' ? 'wait' : LOGISTICS[logistics[i]];
        const fresh = status === 'unsubmitted' || status === 'unaudited';
        const shipDay = fresh ? r.int(-20, -2) : r.int(-100, -8);
        const orderDay = shipDay - r.int(1, 5);
        const createdDay = Math.min(0, shipDay + r.int(1, 6));
        const submitDay = Math.min(0, createdDay + r.int(0, 1));
        const auditDay = Math.min(0, submitDay + r.int(1, 7));
        const logisticsDay = Math.min(0, auditDay + r.int(0, 5));
        const submitMinute = ctx.workMinute(r);
        const auditMinute = auditDay === submitDay ? Math.min(1439, submitMinute + r.int(30, 300)) : ctx.workMinute(r);
        const logisticsMinute = logisticsDay === auditDay ? Math.min(1439, auditMinute + r.int(10, 240)) : ctx.workMinute(r);
        const part = supplierPart(si, r.int(0, parentsPerSupplier - 1));
        const price = partPrice(part);
        const claimQty = r.chance(0.7) ? r.int(1, 3) : r.int(4, 20);
        const rk = REASON_KEYS[weighted(r, REASON_WEIGHTS)];
        const dealer = r.pick(dealers);
        const audited = !fresh;
        // an appeal is decided by the parts centre (confirmed or recalled); without one the supplier confirmed itself
        const appealed = lgs === 'appealing' || lgs === 'recalled' || (lgs === 'confirmed' && r.chance(0.3));
        insert({
          claimNo: ctx.number('CB', createdDay, 4),
          status: st[status],
          dealerCode: dealer.code,
          dealerName: dealer.name,
          dealerOrderNo: ctx.number('SA', orderDay, 5),
          shipBillNo: ctx.number('FH', shipDay, 4),
          partsCode: partCode(part),
          shipQty: claimQty + (r.chance(0.4) ? 0 : r.int(1, 30)),
          claimQty,
          price,
          totalAmount: round2(price * claimQty),
          reasonCode: reason[rk],
          reason: r.pick(REASONS[rk]),
          submitter: personName(r),
          submitterPhone: mobile(r),
          submittedAt: status === 'unsubmitted' ? null : ctx.at(submitDay, submitMinute),
          warehouseCode: combo.warehouse,
          claimWarehouse: W1,
          supplierCode: combo.supplier,
          purchaseSupplierCode: r.chance(0.1) ? (combo.supplier === S1 ? S2 : S1) : combo.supplier,
          orderType: [ot.normal, ot.urgent, ot.vor, ot.dfs][weighted(r, [60, 25, 10, 5])],
          transportType: r.chance(0.7) ? tt.sea : tt.air,
          logisticsStatus: lg[lgs],
          appealReason: appealed ? r.pick(APPEAL_REASONS) : null,
          judgmentBasis:
            status === 'sentBack'
              ? r.pick(REJECT_BASIS)
              : status === 'reparation' || status === 'change' || status === 'complete'
                ? r.pick(APPROVE_BASIS)
                : null,
          returnReason: status === 'remodify' ? r.pick(RETURN_REASONS) : null,
          auditedAt: audited ? ctx.at(auditDay, auditMinute) : null,
          auditor: audited ? user : null,
          logisticsConfirmedAt: lgs === 'confirmed' || lgs === 'recalled' ? ctx.at(logisticsDay, logisticsMinute) : null,
          logisticsConfirmedBy: lgs === 'confirmed' || lgs === 'recalled' ? (appealed ? STAFF.userId : user) : null,
        });
        await tick();
      }
    }
  });
}
