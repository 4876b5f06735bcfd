/**
 * Business demo data for every business entity (file entities excepted: claim attachments,
 * hazard receipt documents and notice attachments need stored files). Deterministic: the same
 * seed gives the same rows, with dates relative to a base date derived from the seed, never the
 * clock. Volumes at scale 1 are the everyday demo and multiply by `scale` (1700 gives about a
 * million order lines for the benchmark); rows are generated with their ids, buffered and written
 * in multi-row batches of 10,000 with the tables' secondary indexes dropped, and the indexes are
 * built once at the end.
 *
 * | entity | scale 1 | module |
 * |---|---|---|
 * | order (+ orderChildDemand, 2-3 for a fifth of the lines) | 600 | orders.ts |
 * | dfsOrder (+ dfsShipment history) | 150 | dfs.ts |
 * | childPartStock, childPartMovement, stockAdjustment | 120, 400, 80 | stock.ts |
 * | claim | 100 | claims.ts |
 * | consultingFeeItem, settlementLine, settlement | 80, 120, 15 | consulting.ts |
 * | hazardReceipt | 40 | hazard.ts |
 * | interfaceMessage (+ interfaceAttempt), the interface log of the records above | 12 per declared message kind | interfaces.ts |
 */
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { RowWriter } from './writer.ts';
import { SeedContext } from './context.ts';
import { seedOrders } from './orders.ts';
import { seedDfs } from './dfs.ts';
import { childPoolOf, planStocks, seedAdjustments, seedMovements, seedStocks } from './stock.ts';
import { seedClaims } from './claims.ts';
import { seedConsulting } from './consulting.ts';
import { seedHazardReceipts } from './hazard.ts';
import { seedInterfaceMessages } from './interfaces.ts';

/** The entities this module fills. */
export const BUSINESS_ENTITIES = [
  'order',
  'orderChildDemand',
  'dfsOrder',
  'dfsShipment',
  'childPartStock',
  'childPartMovement',
  'stockAdjustment',
  'claim',
  'consultingFeeItem',
  'settlementLine',
  'settlement',
  'hazardReceipt',
] as const;

export async function seedBusiness(w: RowWriter, meta: CompiledMetadata, opts: { scale: number; seed: number }): Promise<void> {
  const ctx = new SeedContext(w, meta, opts.scale, opts.seed);
  await ctx.withoutIndexes(BUSINESS_ENTITIES, async () => {
    const stocks = planStocks(ctx);
    const orders = await seedOrders(ctx, childPoolOf(stocks));
    await seedDfs(ctx, orders.parentsPerSupplier);
    await seedStocks(ctx, stocks);
    await seedMovements(ctx, stocks, orders);
    await seedAdjustments(ctx, stocks);
    await seedClaims(ctx, orders.parentsPerSupplier);
    await seedConsulting(ctx);
    await seedHazardReceipts(ctx);
  });
  // after the rows above are written: the messages carry their payloads
  await seedInterfaceMessages(ctx);
}
