/**
 * Hazardous chemicals receipts: pending (no document yet), uploaded (documentName set) and
 * confirmed (document and confirmation). The receipt documents themselves are files and are not
 * seeded (no hazardReceiptDocument rows).
 */
import { HAZARD_PARTS } from './catalog.ts';
import { allocate, codesOf, S1, S2, quota, supplierUser, type SeedContext } from './context.ts';

export const HAZARD_RECEIPTS = 40;

export async function seedHazardReceipts(ctx: SeedContext): Promise<void> {
  const r = ctx.rng('hazardReceipt');
  const st = codesOf(ctx.meta, 'hazardReceiptStatus', ['pending', 'uploaded', 'confirmed']);
  const insert = ctx.w.inserter('hazardReceipt', [
    'receiptNo',
    'supplierCode',
    'partsCode',
    'partsName',
    'qty',
    'shipmentDate',
    'status',
    'documentName',
    'confirmedAt',
    'confirmedBy',
  ]);
  const counts = allocate(ctx.count(HAZARD_RECEIPTS), [60, 40]);
  await ctx.batched(async (tick) => {
    for (const [si, supplier] of [S1, S2].entries()) {
      const user = supplierUser(supplier).userId;
      for (const s of quota(r, counts[si], [40, 30, 30])) {
        const status = (['pending', 'uploaded', 'confirmed'] as const)[s];
        const part = r.pick(HAZARD_PARTS);
        const shipped = status === 'pending' ? r.int(-10, 0) : status === 'uploaded' ? r.int(-20, -1) : r.int(-120, -3);
        const receiptNo = ctx.number('HC', shipped, 4);
        insert({
          receiptNo,
          supplierCode: supplier,
          partsCode: part.code,
          partsName: part.name,
          qty: r.int(1, 40) * r.pick([1, 6, 12]),
          shipmentDate: ctx.day(shipped),
          status: st[status],
          documentName: status === 'pending' ? null : `危化品签收单_${receiptNo}.${r.chance(0.7) ? 'pdf' : 'jpg'}`,
          confirmedAt: status === 'confirmed' ? ctx.at(Math.min(0, shipped + r.int(2, 7)), ctx.workMinute(r)) : null,
          confirmedBy: status === 'confirmed' ? user : null,
        });
        await tick();
      }
    }
  });
}
