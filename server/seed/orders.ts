/**
 * Purchase order lines (orders) and their child-part demands. Lines come in orders of 1 to 8
 * items that share an order number, release date, warehouse and suppliers; the quantities always
 * agree with the status (shippedQty + unsentQty = orderQty; released: nothing confirmed or shipped;
 * confirmed: this-shipment qty set and possibly partly shipped; shipped and later: all shipped).
 */
import { DEMO_WAREHOUSES } from './base.ts';
import { childCode, childrenOf, partCode, supplierPart } from './catalog.ts';
import { allocate, codesOf, S1, S2, W1, W2, supplierUser, weighted, type SeedContext } from './context.ts';

/** Lines at scale 1; sup01 sees 510 of them in PDC01 (a full 500-row page), sup02 110. */
export const ORDER_LINES = 600;
/** Share of lines that carry child-part demands (2 or 3 each). */
const CHILD_DEMAND_SHARE = 0.2;

/** production (= purchasing) supplier, direct supplier, warehouse; weights per 600 lines */
const BUCKETS = [
  { warehouse: W1, production: S1, direct: S1, weight: 440 },
  { warehouse: W1, production: S1, direct: S2, weight: 35 },
  { warehouse: W1, production: S2, direct: S1, weight: 35 },
  { warehouse: W1, production: S2, direct: S2, weight: 40 },
  { warehouse: W2, production: S1, direct: S1, weight: 22 },
  { warehouse: W2, production: S1, direct: S2, weight: 3 },
  { warehouse: W2, production: S2, direct: S1, weight: 3 },
  { warehouse: W2, production: S2, direct: S2, weight: 22 },
] as const;

// cancelled: withdrawn by the supplier-relationship system before shipping (inbound INTF0002)
const STATUS_KEYS = ['released', 'confirmed', 'shipped', 'partlyReceived', 'receivedSettled', 'closed', 'cancelled'] as const;
const STATUS_WEIGHTS = [25, 25, 20, 10, 12, 8, 2];
/** release date window (days before the base date) per status */
const RELEASE_WINDOW: Record<(typeof STATUS_KEYS)[number], [number, number]> = {
  released: [-7, 0],
  confirmed: [-15, -2],
  shipped: [-35, -8],
  partlyReceived: [-50, -15],
  receivedSettled: [-180, -40],
  closed: [-365, -90],
  cancelled: [-20, -1],
};
const ITEM_WEIGHTS = [22, 20, 16, 14, 10, 8, 6, 4]; // 1..8 lines per order
const MIN_PACKAGES = [1, 2, 4, 5, 6, 10, 12, 20, 24, 50, 100];
const MIN_PACKAGE_WEIGHTS = [14, 10, 10, 12, 6, 18, 8, 8, 5, 6, 3];
const DELIVERY_METHOD_KEYS = ['supplierDirect', 'thirdPartyLogistics', 'milkRun', 'express', 'lessThanTruckload'] as const;
const DELIVERY_METHOD_WEIGHTS = [40, 30, 15, 5, 10];
const ZONES = ['A', 'B', 'C', 'D'];

export interface OrderRefs {
  /** a sample of orders per "supplier|warehouse" (production supplier), for receive/send details */
  orders: Map<string, { orderNo: string[]; releaseDay: number[] }>;
  /** parent parts per supplier used by order lines */
  parentsPerSupplier: number;
}

export async function seedOrders(ctx: SeedContext, childPool: (supplier: string) => number): Promise<OrderRefs> {
  const { w, meta } = ctx;
  const r = ctx.rng('order');
  const st = codesOf(meta, 'purchaseOrderStatus', STATUS_KEYS);
  const orderType = codesOf(meta, 'purchaseOrderType', ['normal', 'urgent', 'vor']);
  const packing = codesOf(meta, 'packing', ['common', 'unique', 'uniqueIntensive']);
  const orderTypes = [orderType.normal, orderType.urgent, orderType.vor];
  const packings = [packing.common, packing.unique, packing.uniqueIntensive];
  const deliveryMethod = codesOf(meta, 'logisticsDeliveryMethod', DELIVERY_METHOD_KEYS);
  const deliveryMethods = DELIVERY_METHOD_KEYS.map((k) => deliveryMethod[k]);
  const total = ctx.count(ORDER_LINES);
  const parentsPerSupplier = Math.max(40, Math.round(150 * Math.sqrt(Math.max(1, ctx.scale))));
  const refs: OrderRefs = { orders: new Map(), parentsPerSupplier };

  const lineFields = [
    'orderNo',
    'itemNo',
    'partsCode',
    'orderType',
    'orderQty',
    'minPackageQty',
    'perPackageQty',
    'thisShipmentQty',
    'shipQty',
    'shippedQty',
    'unsentQty',
    'forecastReceiveDate',
    'releaseDate',
    'receiveTime',
    'deliveryPlace',
    'packing',
    'logisticsDeliveryMethod',
    'status',
    'warehouseCode',
    'directSupplierCode',
    'productionSupplierCode',
    'purchasingSupplierCode',
    'partsItemCount',
    'confirmedAt',
    'confirmedBy',
    'lastShippedAt',
  ] as const;
  const insertLine = w.inserter('order', lineFields);
  const insertDemand = w.inserter('orderChildDemand', [
    'orderId',
    'parentPartsCode',
    'childPartsCode',
    'purchaseOrderNo',
    'orderQty',
    'unitQty',
    'demandQty',
    'unreceivedQty',
  ]);
  // one row object, refilled for every line: no allocation per line beyond the values themselves
  const row: Record<(typeof lineFields)[number], unknown> = Object.fromEntries(lineFields.map((f) => [f, null])) as never;
  const demand: Record<string, unknown> = {};
  const whName = new Map<string, string>(DEMO_WAREHOUSES.map((x) => [x.code, x.nameZh]));

  const counts = allocate(
    total,
    BUCKETS.map((b) => b.weight),
  );

  await ctx.batched(async (tick) => {
    for (const [bi, b] of BUCKETS.entries()) {
      const supplierIndex = b.production === S1 ? 0 : 1;
      const key = `${b.production}|${b.warehouse}`;
      const sample = refs.orders.get(key) ?? { orderNo: [], releaseDay: [] };
      refs.orders.set(key, sample);
      const confirmer = supplierUser(b.direct).userId;
      const pool = childPool(b.production);
      let left = counts[bi];
      let orderIndex = 0;
      while (left > 0) {
        // the first orders of every bucket walk through all statuses, the rest follow the weights
        const s = orderIndex < STATUS_KEYS.length ? orderIndex : weighted(r, STATUS_WEIGHTS);
        const status = STATUS_KEYS[s];
        orderIndex++;
        const items = Math.min(left, 1 + weighted(r, ITEM_WEIGHTS));
        left -= items;
        const [lo, hi] = RELEASE_WINDOW[status];
        const release = r.int(lo, hi);
        const orderNo = ctx.number('P', release, 5);
        if (sample.orderNo.length < 5000) {
          sample.orderNo.push(orderNo);
          sample.releaseDay.push(release);
        }
        const forecast = release + r.int(10, 30);
        const type = orderTypes[weighted(r, [80, 15, 5])];
        const place = `${whName.get(b.warehouse)} ${r.pick(ZONES)}区${r.int(1, 6)}号收货口`;
        const method = deliveryMethods[weighted(r, DELIVERY_METHOD_WEIGHTS)];
        const confirmDay = Math.min(0, release + r.int(0, 2));
        for (let item = 1; item <= items; item++) {
          const partN = r.int(0, parentsPerSupplier - 1);
          const partIdx = supplierPart(supplierIndex, partN);
          const minPkg = MIN_PACKAGES[weighted(r, MIN_PACKAGE_WEIGHTS)];
          const packs = minPkg >= 50 ? r.int(1, 10) : r.int(1, 30);
          const orderQty = minPkg * packs;
          let shipped = 0;
          let thisShipment: number | null = null;
          let shipQty: number | null = null;
          let lastShipped: string | null = null;
          let receive: string | null = null;
          let confirmedAt: string | null = null;
          if (status !== 'released' && status !== 'cancelled') {
            confirmedAt = ctx.at(confirmDay, ctx.workMinute(r), item);
            thisShipment = status === 'confirmed' && packs > 1 && r.chance(0.2) ? minPkg * r.int(1, packs - 1) : orderQty;
            const shipDay = Math.min(0, confirmDay + r.int(1, 6));
            if (status === 'confirmed') {
              if (thisShipment > minPkg && r.chance(0.4)) {
                // partly shipped: some packages are on their way, the rest still to send
                shipped = minPkg * r.int(1, thisShipment / minPkg - 1);
                shipQty = shipped;
                lastShipped = ctx.at(shipDay, ctx.workMinute(r), item);
              }
            } else {
              shipped = orderQty;
              // now and then the line went out in two shipments: the latest is the ship qty
              shipQty = packs > 1 && r.chance(0.25) ? minPkg * r.int(1, packs - 1) : orderQty;
              lastShipped = ctx.at(shipDay, ctx.workMinute(r), item);
              if (status !== 'shipped') receive = ctx.at(Math.min(0, shipDay + r.int(1, 6)), ctx.workMinute(r), item);
            }
          }
          row.orderNo = orderNo;
          row.itemNo = item;
          row.partsCode = partCode(partIdx);
          row.orderType = type;
          row.orderQty = orderQty;
          row.minPackageQty = minPkg;
          row.perPackageQty = minPkg;
          row.thisShipmentQty = thisShipment;
          row.shipQty = shipQty;
          row.shippedQty = shipped;
          row.unsentQty = orderQty - shipped;
          row.forecastReceiveDate = ctx.day(forecast);
          row.releaseDate = ctx.day(release);
          row.receiveTime = receive;
          row.deliveryPlace = place;
          row.packing = packings[weighted(r, [70, 20, 10])];
          row.logisticsDeliveryMethod = method;
          row.status = st[status];
          row.warehouseCode = b.warehouse;
          row.directSupplierCode = b.direct;
          row.productionSupplierCode = b.production;
          row.purchasingSupplierCode = b.production;
          row.partsItemCount = items;
          row.confirmedAt = confirmedAt;
          row.confirmedBy = confirmedAt ? confirmer : null;
          row.lastShippedAt = lastShipped;
          const id = insertLine(row);
          await tick();
          if (r.chance(CHILD_DEMAND_SHARE)) {
            const kids = childrenOf(supplierIndex, partN, pool, r.chance(0.5) ? 2 : 3);
            const parent = row.partsCode;
            for (const c of kids) {
              const unit = r.pick([1, 1, 2, 2, 4, 6, 8]);
              const need = orderQty * unit;
              const unreceived =
                status === 'released' || status === 'confirmed' || status === 'cancelled'
                  ? need
                  : status === 'shipped' || status === 'partlyReceived'
                    ? Math.floor(need * r.next())
                    : 0;
              demand.orderId = id;
              demand.parentPartsCode = parent;
              demand.childPartsCode = childCode(c);
              demand.purchaseOrderNo = orderNo;
              demand.orderQty = orderQty;
              demand.unitQty = unit;
              demand.demandQty = need;
              demand.unreceivedQty = unreceived;
              insertDemand(demand);
              await tick();
            }
          }
        }
      }
    }
  });
  return refs;
}
