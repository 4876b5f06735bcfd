/**
 * The charts' sums the engine keeps (server/home/chart-sums.ts, docs/home-and-notifications.md
 * "Charts' sums kept by every write"): after every kind of write of an order line they equal the
 * rows recounted (chart-sums-oracle.ts: every warehouse, supplier and bucket), the chart is read
 * from them, a grown key is folded without changing the answer, and a database that had data
 * before the sums existed gets them built from its rows at start. Two server processes shipping at
 * once: chart-sums-processes.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChartData } from '../../codegen/runtime/charts.ts';
import { windowDays } from '../../codegen/runtime/charts.ts';
import { metadata } from '../../server/generated/index.ts';
import type { Principal } from '../../server/engine/principal.ts';
import type { Engine } from '../../server/engine/engine.ts';
import type { Queryable } from '../../server/db/types.ts';
import { allSummedCharts, ensureChartSums, rebuildChartSums, sumsDefinition } from '../../server/home/chart-sums-build.ts';
import { FOLD_SLACK, foldChartSums, sumsScope } from '../../server/home/chart-sums-read.ts';
import { principalOf } from '../bench/list-cases.ts';
import { bearer, build, code, login, type TestApp } from './helpers.ts';
import { chartSumRows, chartSumsMismatches } from './chart-sums-oracle.ts';

let t: TestApp;
let sup01: string;
let staff: string;
const e = metadata.entities.order;
const internal = principalOf('internal');
const CHARTS = allSummedCharts(metadata);

beforeAll(async () => {
  t = await build();
  sup01 = await login(t.app, 'sup01');
  staff = await login(t.app, 'staff01');
}, 60_000);
afterAll(async () => t?.close());

const charts = async (token = sup01): Promise<ChartData[]> => {
  const r = await t.app.inject({ method: 'GET', url: '/api/home/charts', headers: { ...bearer(token), 'accept-language': 'en-US' } });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().charts;
};
const post = async (url: string, payload: unknown, token = sup01) => {
  const r = await t.app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as Record<string, unknown> });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};
const now = () => new Date().toISOString();
const write = <T>(fn: (q: Queryable, engine: Engine) => Promise<T>) => t.app.engine.tx((q) => fn(q, t.app.engine));
const lineOf = async (where: string, params: unknown[]) =>
  (await t.app.db.get<{ id: number }>(`SELECT id FROM "order" WHERE ${where} ORDER BY id LIMIT 1`, params))!.id;

/** a machine client of the purchase-order interface, registered by internal staff as docs/inbound-interfaces.md says */
async function ordersClient(): Promise<string> {
  const reg = await post('/api/machine-clients/actions/register', { clientId: 'sums', name: 'System sums', interfaces: 'INTF0002' }, staff);
  const r = await t.app.inject({
    method: 'POST',
    url: '/connect/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'sums', client_secret: String(reg.result.secret) }).toString(),
  });
  expect(r.statusCode, r.body).toBe(200);
  return String(r.json().access_token);
}

describe("the charts' sums", () => {
  it('are derived for both declared charts, and the demo data gets them built from its rows', async () => {
    expect(CHARTS.map((c) => c.summary.key).sort()).toEqual(['dashboard/openQtyByStatus', 'dashboard/shippedPerDay']);
    expect(CHARTS.find((c) => c.chart.key === 'openQtyByStatus')!.summary.where).toEqual({
      status: ['released', 'confirmed'].map((s) => code('purchaseOrderStatus', s)),
    });
    expect(await chartSumRows(t.app.db)).toBeGreaterThan(0);
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
    // built: one row per key and bucket
    expect(
      await t.app.db.all(`SELECT chart, warehouse, supplier, bucket FROM _chart_sums GROUP BY chart, warehouse, supplier, bucket HAVING COUNT(*) > 1`),
    ).toEqual([]);
  });

  it("are what the chart reads: a row added to the supplier's key shows in its chart", async () => {
    const before = (await charts()).find((c) => c.key === 'openQtyByStatus')!;
    const released = code('purchaseOrderStatus', 'released');
    await t.app.db.run(`INSERT INTO _chart_sums (chart, warehouse, supplier, bucket, n, total) VALUES (?, ?, ?, ?, ?, ?)`, [
      'dashboard/openQtyByStatus',
      'PDC01',
      'S001',
      released,
      0,
      1000,
    ]);
    const after = (await charts()).find((c) => c.key === 'openQtyByStatus')!;
    expect(after.points.find((p) => p.key === released)!.value).toBe(before.points.find((p) => p.key === released)!.value + 1000);
    await t.app.db.run(`DELETE FROM _chart_sums WHERE total = 1000 AND n = 0`);
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
  });

  it('follow confirms and ships through the API: partial, whole, the line leaving the open statuses', async () => {
    const confirmed = code('purchaseOrderStatus', 'confirmed');
    const released = code('purchaseOrderStatus', 'released');
    const open = await lineOf(`status = ? AND direct_supplier_code = ? AND warehouse_code = ? AND unsent_qty > 2`, [released, 'S001', 'PDC01']);
    const row = await t.app.db.get<{ unsent: number }>(`SELECT unsent_qty AS unsent FROM "order" WHERE id = ?`, [open]);
    await post(`/api/orders/${open}/actions/confirm`, { thisShipmentQty: Number(row!.unsent) });
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
    await post(`/api/orders/${open}/actions/ship`, { shipQty: 1 });
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
    await post(`/api/orders/${open}/actions/ship`, { shipQty: Number(row!.unsent) - 1 });
    expect((await t.app.db.get<{ status: string }>(`SELECT status FROM "order" WHERE id = ?`, [open]))!.status).not.toBe(confirmed);
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
    // today's bar counts the line once, whichever of its suppliers looks
    const today = windowDays(1)[0];
    const shipped = (await charts()).find((c) => c.key === 'shippedPerDay')!;
    const sql = `SELECT COUNT(*) AS n FROM "order" WHERE warehouse_code = 'PDC01' AND (direct_supplier_code = 'S001' OR production_supplier_code = 'S001' OR purchasing_supplier_code = 'S001') AND last_shipped_at >= ? AND last_shipped_at < ?`;
    expect(shipped.points.at(-1)).toMatchObject({
      key: today,
      value: Number(
        (await t.app.db.get<{ n: number }>(sql, [`${today}T00:00:00.000Z`, `${windowDays(1, new Date(Date.now() + 86_400_000))[0]}T00:00:00.000Z`]))!.n,
      ),
    });
  });

  it("follow the engine's updates that move a line to other suppliers, warehouses and days, and deletes", async () => {
    const id = await lineOf(`last_shipped_at IS NOT NULL AND unsent_qty > 0 AND direct_supplier_code = ?`, ['S001']);
    await write((q, engine) => engine.updateRow(q, e, id, { directSupplierCode: 'S002', productionSupplierCode: 'S002' }, internal, now(), 'update'));
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
    await write((q, engine) =>
      engine.updateRow(q, e, id, { warehouseCode: 'PDC02', lastShippedAt: '2026-01-02T03:04:05.000Z', unsentQty: 7 }, internal, now(), 'update'),
    );
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
    await write((q, engine) => engine.updateRow(q, e, id, { lastShippedAt: null, status: code('purchaseOrderStatus', 'released') }, internal, now(), 'update'));
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
    // no screen deletes an order line; the engine's delete (as a child of a deleted parent would be) is what any entity's delete runs
    const cascade = (t.app.engine as unknown as { deleteCascade(q: Queryable, p: Principal, e: unknown, id: number, now: string): Promise<string[]> })
      .deleteCascade;
    await write((q, engine) => cascade.call(engine, q, internal, e, id, now()));
    expect(await t.app.db.get(`SELECT id FROM "order" WHERE id = ?`, [id])).toBeUndefined();
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
  });

  it('follow an inbound batch: new lines (several suppliers in one line), an update of the quantity, a cancel', async () => {
    const token = await ordersClient();
    const line = (n: number, over: Record<string, unknown> = {}) => ({
      orderNo: `PSUM${String(n).padStart(6, '0')}`,
      itemNo: 1,
      partsCode: `SUM-${n}`,
      orderQty: 10 + n,
      warehouseCode: 'PDC01',
      directSupplierCode: 'S001',
      releaseDate: '2026-11-20',
      ...over,
    });
    const send = async (key: string, messages: Record<string, unknown>[]) => {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/interfaces/INTF0002',
        headers: bearer(token),
        payload: { messages: messages.map((m, i) => ({ idempotencyKey: `${key}-${i}`, ...m })) },
      });
      expect(r.statusCode, r.body).toBe(200);
      for (const x of r.json().results) expect(x.result, JSON.stringify(x)).toBe('accepted');
    };
    const lines = [line(1), line(2, { productionSupplierCode: 'S002', purchasingSupplierCode: 'S001' }), line(3, { directSupplierCode: 'S002' })];
    await send(
      'new',
      lines.map((payload) => ({ payload })),
    );
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
    await send('upd', [{ payload: { ...lines[0], orderQty: 99 } }]);
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
    await send('cancel', [{ action: 'cancel', payload: { orderNo: lines[1].orderNo, itemNo: 1 } }]);
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
  });

  it('are folded by a reader once a key has grown: the answer is unchanged, the key has one row per bucket', async () => {
    const id = await lineOf(
      `status = ? AND direct_supplier_code = ? AND production_supplier_code = ? AND purchasing_supplier_code = ? AND warehouse_code = ?`,
      [code('purchaseOrderStatus', 'released'), 'S001', 'S001', 'S001', 'PDC01'],
    );
    const keyRows = () =>
      t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM _chart_sums WHERE chart = ? AND warehouse = 'PDC01' AND supplier = 'S001'`, [
        'dashboard/openQtyByStatus',
      ]);
    const base = Number((await t.app.db.get<{ u: number }>(`SELECT unsent_qty AS u FROM "order" WHERE id = ?`, [id]))!.u);
    for (let i = 1; i <= FOLD_SLACK + 5; i++) await write((q, engine) => engine.updateRow(q, e, id, { unsentQty: base + (i % 7) }, internal, now(), 'update'));
    await write((q, engine) => engine.updateRow(q, e, id, { unsentQty: base + 3 }, internal, now(), 'update'));
    const grown = Number((await keyRows())!.n);
    expect(grown).toBeGreaterThan(FOLD_SLACK + 2);
    const expected = await chartSumsMismatches(t.app.db);
    expect(expected).toEqual([]);
    const first = (await charts()).find((c) => c.key === 'openQtyByStatus')!;
    // the read above found the key grown and folded it: one row per open status
    expect(Number((await keyRows())!.n)).toBeLessThanOrEqual(2);
    expect((await charts()).find((c) => c.key === 'openQtyByStatus')).toEqual(first);
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
  });

  it('are read for the key that is exactly the caller scope: its supplier, or every supplier for a caller not limited to one', () => {
    const summary = CHARTS[0].summary;
    expect(sumsScope(metadata, e, summary, principalOf('supplier', { supplierCode: 'S001' }))).toEqual({ warehouse: 'PDC01', supplier: 'S001' });
    expect(sumsScope(metadata, e, summary, { ...principalOf('supplier', { supplierCode: 'S001' }), role: 'admin' })).toEqual({
      warehouse: 'PDC01',
      supplier: '',
    });
    expect(sumsScope(metadata, e, summary, principalOf('internal'))).toEqual({ warehouse: 'PDC01', supplier: '' });
    // a supplier account without a supplier code sees no row: its chart is counted from the rows (none)
    expect(sumsScope(metadata, e, summary, principalOf('supplier'))).toBeNull();
  });
});

describe("the charts' sums and the writes outside the engine", () => {
  /** `server/` files that write rows without the engine, knowingly: the engine itself, the seed writer (it builds the sums when it closes), the drivers */
  const KEEPERS = [/^server\/engine\/engine\.ts$/, /^server\/seed\//, /^server\/db\//, /^server\/generated\//];
  const rawWrite = (table: string) => new RegExp(`(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+\\\\?"?${table}\\\\?"?[\\s(]`, 'i');

  it('no other module of server/ writes the table of an entity with a summed chart by its name', () => {
    const tables = [...new Set(CHARTS.map((c) => metadata.entities[c.summary.entity].table))];
    expect(rawWrite('order').test('UPDATE "order" SET status = ?')).toBe(true);
    expect(rawWrite('order').test('INSERT INTO \\"order\\" (id) VALUES (?)')).toBe(true);
    expect(rawWrite('order').test('ON CONFLICT (name) DO UPDATE SET n = 1 ORDER BY x')).toBe(false);
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const files = readdirSync(join(root, 'server'), { recursive: true, encoding: 'utf8' })
      .map((f) => `server/${f.split(sep).join('/')}`)
      .filter((f) => f.endsWith('.ts') && !KEEPERS.some((k) => k.test(f)));
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.flatMap((f) => tables.filter((t) => rawWrite(t).test(readFileSync(join(root, f), 'utf8'))).map((t) => `${f} writes ${t}`));
    expect(offenders).toEqual([]);
  });
});

describe("the charts' sums of a database that had data before them", () => {
  it('are built at start when missing, when their definition changed, and when a migration changed the table', async () => {
    const other = CHARTS.find((c) => c.chart.key === 'shippedPerDay')!;
    await t.app.db.run(`DELETE FROM _chart_sums`);
    await t.app.db.run(`DELETE FROM _chart_sum_builds`);
    expect((await chartSumsMismatches(t.app.db)).length).toBeGreaterThan(0);
    const built = await ensureChartSums(t.app.db, metadata);
    expect(built.map((l) => l.split('"')[1]).sort()).toEqual(['dashboard/openQtyByStatus', 'dashboard/shippedPerDay']);
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
    // nothing to do the next time
    expect(await ensureChartSums(t.app.db, metadata)).toEqual([]);
    // a changed definition builds that chart again, and only it
    await t.app.db.run(`UPDATE _chart_sum_builds SET definition = ? WHERE chart = ?`, ['{"before":true}', other.summary.key]);
    await t.app.db.run(`DELETE FROM _chart_sums WHERE chart = ?`, [other.summary.key]);
    expect((await ensureChartSums(t.app.db, metadata)).map((l) => l.split('"')[1])).toEqual([other.summary.key]);
    expect((await t.app.db.get<{ d: string }>(`SELECT definition AS d FROM _chart_sum_builds WHERE chart = ?`, [other.summary.key]))!.d).toBe(
      sumsDefinition(e, other),
    );
    // a migration step on the table (it may have rewritten stored values) builds every chart over it
    expect((await ensureChartSums(t.app.db, metadata, new Set([e.table]))).length).toBe(2);
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
  });

  it('two builds and a fold at once (two processes starting, a reader folding) leave one row per key and bucket, right', async () => {
    const open = CHARTS.find((c) => c.chart.key === 'openQtyByStatus')!;
    await Promise.all([
      rebuildChartSums(t.app.db, metadata, CHARTS),
      rebuildChartSums(t.app.db, metadata, CHARTS),
      foldChartSums(t.app.db, e, open.chart, { warehouse: 'PDC01', supplier: 'S001' }),
    ]);
    expect(
      await t.app.db.all(`SELECT chart, warehouse, supplier, bucket FROM _chart_sums GROUP BY chart, warehouse, supplier, bucket HAVING COUNT(*) > 1`),
    ).toEqual([]);
    expect(await chartSumsMismatches(t.app.db)).toEqual([]);
  });

  it('a server started over a database without the sums tables (the version before) builds them from its rows', async () => {
    await t.app.db.run(`DROP TABLE _chart_sums`);
    await t.app.db.run(`DROP TABLE _chart_sum_builds`);
    const again = await build({ same: t, seed: false });
    try {
      expect(again.app.migration!.steps.filter((s) => s.startsWith('chart sums of')).length).toBe(2);
      expect(await chartSumsMismatches(again.app.db)).toEqual([]);
      const chart = (await (async () => {
        const token = await login(again.app, 'sup01');
        const r = await again.app.inject({ method: 'GET', url: '/api/home/charts', headers: bearer(token) });
        return r.json().charts as ChartData[];
      })())!.find((c) => c.key === 'shippedPerDay')!;
      expect(chart.points).toHaveLength(30);
    } finally {
      await again.close();
    }
  });
});
