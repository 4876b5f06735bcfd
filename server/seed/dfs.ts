/**
 * DFS orders (dealer-ordered service parts the supplier ships directly) and their shipment
 * history. A dealer order has 1 to 3 part lines; sentQty is the sum of the line's dfsShipment rows,
 * unsentQty = orderQty - sentQty, and the ship status follows (wait: nothing sent, partial, finished).
 */
import { makeDealers, partCode, partPrice, supplierPart, type Dealer } from './catalog.ts';
import { allocate, codesOf, COMBOS, COMBO_WEIGHTS, S1, S2, round2, supplierUser, weighted, type SeedContext } from './context.ts';
import type { Rng } from './writer.ts';

export const DFS_ORDERS = 150;

const SHIP_KEYS = ['wait', 'partial', 'finished'] as const;
const SHIP_WEIGHTS = [40, 30, 30];
const ORDER_DATE_WINDOW: Record<(typeof SHIP_KEYS)[number], [number, number]> = { wait: [-20, 0], partial: [-30, -3], finished: [-120, -5] };
const MIN_PACKAGES = [1, 1, 1, 1, 2, 2, 4, 5, 10];

/** Splits `total` into `k` positive shares, multiples of `unit` where the total allows. */
export function split(r: Rng, total: number, k: number, unit: number): number[] {
  const packs = Math.floor(total / unit);
  const n = Math.max(1, Math.min(k, packs));
  const out: number[] = [];
  let left = packs;
  for (let i = n; i > 1; i--) {
    const take = r.int(1, left - (i - 1));
    out.push(take * unit);
    left -= take;
  }
  out.push(total - out.reduce((a, b) => a + b, 0));
  return out;
}

export async function seedDfs(ctx: SeedContext, parentsPerSupplier: number): Promise<void> {
  const { w, meta } = ctx;
  const r = ctx.rng('dfsOrder');
  const ship = codesOf(meta, 'dfsShipStatus', SHIP_KEYS);
  const os = codesOf(meta, 'dealerOrderStatus', ['shortOrPostponed', 'canRelease', 'released', 'picked', 'boxed', 'financialSettled', 'finished']);
  const area = codesOf(meta, 'dealerArea', ['east', 'south', 'west', 'north', 'centre']);
  const orderStatusOf: Record<(typeof SHIP_KEYS)[number], [string[], number[]]> = {
    wait: [
      [os.released, os.canRelease, os.shortOrPostponed],
      [60, 25, 15],
    ],
    partial: [
      [os.picked, os.released],
      [50, 50],
    ],
    finished: [
      [os.boxed, os.financialSettled, os.finished],
      [40, 30, 30],
    ],
  };
  const dealers: Dealer[] = makeDealers(ctx.rng('dealer'), 60);
  const byArea = new Map<string, Dealer[]>();
  for (const d of dealers) byArea.set(d.area, [...(byArea.get(d.area) ?? []), d]);
  const insertOrder = w.inserter('dfsOrder', [
    'dealerCode',
    'dealerName',
    'directShipDealer',
    'dealerArea',
    'dealerOrderNo',
    'purchaseOrderNo',
    'partsCode',
    'orderDate',
    'releaseDate',
    'orderQty',
    'sentQty',
    'unsentQty',
    'currentShipQty',
    'minPackageQty',
    'orderStatus',
    'shipStatus',
    'totalAmount',
    'totalPartsCount',
    'receivingWarehouse',
    'contact',
    'phone',
    'address',
    'originalSupplierCode',
    'purchaseSupplierCode',
    'warehouseCode',
  ]);
  const insertShipment = w.inserter('dfsShipment', ['dfsOrderId', 'dealerOrderNo', 'purchaseOrderNo', 'partsCode', 'shipQty', 'shipTime', 'shipper']);
  const counts = allocate(ctx.count(DFS_ORDERS), COMBO_WEIGHTS);

  await ctx.batched(async (tick) => {
    for (const [ci, combo] of COMBOS.entries()) {
      const supplierIndex = combo.supplier === S1 ? 0 : 1;
      const shipper = supplierUser(combo.supplier).name;
      let left = counts[ci];
      let n = 0;
      while (left > 0) {
        const s = SHIP_KEYS[n < SHIP_KEYS.length ? n : weighted(r, SHIP_WEIGHTS)];
        n++;
        const lines = Math.min(left, 1 + weighted(r, [70, 20, 10]));
        left -= lines;
        const dealer = r.pick(dealers);
        // now and then the parts go straight to another dealer of the same area
        const direct = r.chance(0.85) ? dealer : r.pick(byArea.get(dealer.area)!);
        const [lo, hi] = ORDER_DATE_WINDOW[s];
        const orderDay = r.int(lo, hi);
        const releaseDay = Math.min(0, orderDay + r.int(0, 2));
        const dealerOrderNo = ctx.number('SA', orderDay, 5);
        const purchaseOrderNo = ctx.number('P', releaseDay, 5);
        // sometimes the purchasing supplier is the other demo supplier (the original one makes the part)
        const purchaseSupplier = r.chance(0.1) ? (combo.supplier === S1 ? S2 : S1) : combo.supplier;
        const [statuses, weights] = orderStatusOf[s];
        const orderStatus = statuses[weighted(r, weights)];
        const items: { part: number; qty: number; minPkg: number; price: number }[] = [];
        const seen = new Set<number>();
        while (items.length < lines) {
          const part = supplierPart(supplierIndex, r.int(0, parentsPerSupplier - 1));
          if (seen.has(part)) continue;
          seen.add(part);
          const minPkg = r.pick(MIN_PACKAGES);
          // a partly shipped line needs at least two packages
          const qty = minPkg * (s === 'partial' ? r.int(2, 8) : r.int(1, 8));
          items.push({ part, qty, minPkg, price: partPrice(part) });
        }
        const totalAmount = round2(items.reduce((a, it) => a + it.qty * it.price, 0));
        const totalParts = items.reduce((a, it) => a + it.qty, 0);
        for (const it of items) {
          const sent = s === 'wait' ? 0 : s === 'finished' ? it.qty : it.minPkg * r.int(1, it.qty / it.minPkg - 1);
          const shipments = sent ? split(r, sent, s === 'finished' ? r.int(1, 3) : r.int(1, 2), it.minPkg) : [];
          const code = partCode(it.part);
          const id = insertOrder({
            dealerCode: dealer.code,
            dealerName: dealer.name,
            directShipDealer: direct.name,
            dealerArea: area[dealer.area as keyof typeof area],
            dealerOrderNo,
            purchaseOrderNo,
            partsCode: code,
            orderDate: ctx.day(orderDay),
            releaseDate: ctx.day(releaseDay),
            orderQty: it.qty,
            sentQty: sent,
            unsentQty: it.qty - sent,
            currentShipQty: shipments.length ? shipments[shipments.length - 1] : null,
            minPackageQty: it.minPkg,
            orderStatus,
            shipStatus: ship[s],
            totalAmount,
            totalPartsCount: totalParts,
            receivingWarehouse: direct.warehouse,
            contact: direct.contact,
            phone: direct.phone,
            address: direct.address,
            originalSupplierCode: combo.supplier,
            purchaseSupplierCode: purchaseSupplier,
            warehouseCode: combo.warehouse,
          });
          await tick();
          // shipments in time order: a later one on the same day comes later that day
          let day = releaseDay;
          let minute = -1;
          for (const q of shipments) {
            const next = Math.min(0, day + r.int(0, 4));
            minute = next === day && minute >= 0 ? Math.min(1439, minute + r.int(30, 180)) : ctx.workMinute(r);
            day = next;
            insertShipment({
              dfsOrderId: id,
              dealerOrderNo,
              purchaseOrderNo,
              partsCode: code,
              shipQty: q,
              shipTime: ctx.at(day, minute, r.int(0, 59)),
              shipper,
            });
            await tick();
          }
        }
      }
    }
  });
}
