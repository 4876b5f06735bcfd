/**
 * The dashboard's charts (GET /api/home/charts): a supplier's charts aggregate exactly its own rows
 * of the list they name (checked against the database), one point per day of the window or per
 * code, labels in the caller's language; a profile the charts are not declared for gets none, and
 * the refusals of the home routes (no token, unknown screen).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChartData } from '../../codegen/runtime/charts.ts';
import { windowDays } from '../../codegen/runtime/charts.ts';
import { bearer, build, code, login, type TestApp } from './helpers.ts';

let t: TestApp;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await build();
  tokens.sup01 = await login(t.app, 'sup01');
  tokens.sup02 = await login(t.app, 'sup02');
  tokens.staff01 = await login(t.app, 'staff01');
});
afterAll(() => t.close());

const charts = async (token: string, lang = 'en-US'): Promise<ChartData[]> => {
  const r = await t.app.inject({ method: 'GET', url: '/api/home/charts', headers: { ...bearer(token), 'accept-language': lang } });
  expect(r.statusCode).toBe(200);
  return r.json().charts;
};
const SUPPLIERS = [
  ['sup01', 'S001'],
  ['sup02', 'S002'],
] as const;
const SCOPE = 'warehouse_code = ? AND (direct_supplier_code = ? OR production_supplier_code = ? OR purchasing_supplier_code = ?)';
const scope = (supplier: string) => ['PDC01', supplier, supplier, supplier];

/** the day (yyyy-MM-dd, UTC) of a datetime as either backend returns it */
const dayOf = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v)).slice(0, 10);

async function shippedPerDayInDb(supplier: string): Promise<Map<string, number>> {
  const rows = await t.app.db.all<{ at: unknown }>(`SELECT last_shipped_at AS at FROM "order" WHERE last_shipped_at IS NOT NULL AND ${SCOPE}`, scope(supplier));
  const byDay = new Map<string, number>();
  for (const r of rows) byDay.set(dayOf(r.at), (byDay.get(dayOf(r.at)) ?? 0) + 1);
  return byDay;
}

describe('home charts', () => {
  it("a supplier's lines shipped per day: 30 days ending today, each count the database's for its scope", async () => {
    for (const [who, supplier] of SUPPLIERS) {
      const chart = (await charts(tokens[who])).find((c) => c.key === 'shippedPerDay')!;
      expect(chart.bucket).toBe('day');
      expect(chart.points.map((p) => p.key)).toEqual(windowDays(30));
      const db = await shippedPerDayInDb(supplier);
      expect(chart.points.map((p) => [p.key, p.value])).toEqual(windowDays(30).map((d) => [d, db.get(d) ?? 0]));
      expect(chart.points.reduce((n, p) => n + p.value, 0)).toBeGreaterThan(0);
    }
  });

  it("a supplier's open quantity by status: one bar per open status, each the database's sum for its scope", async () => {
    // the chart's filter keeps the open statuses: a bar for each of them only
    const statuses = ['released', 'confirmed'];
    for (const [who, supplier] of SUPPLIERS) {
      const chart = (await charts(tokens[who])).find((c) => c.key === 'openQtyByStatus')!;
      expect(chart.bucket).toBe('code');
      expect(chart.points.map((p) => p.key)).toEqual(statuses.map((s) => code('purchaseOrderStatus', s)));
      for (const p of chart.points) {
        const row = await t.app.db.get<{ n: number | null }>(`SELECT SUM(unsent_qty) AS n FROM "order" WHERE status = ? AND ${SCOPE}`, [
          p.key,
          ...scope(supplier),
        ]);
        expect([p.key, p.value]).toEqual([p.key, Number(row!.n ?? 0)]);
      }
    }
    const open = (await charts(tokens.sup01)).find((c) => c.key === 'openQtyByStatus')!;
    expect(open.points.find((p) => p.key === code('purchaseOrderStatus', 'confirmed'))!.value).toBeGreaterThan(0);
  });

  it("labels, axes and legends in the caller's language", async () => {
    const [en, zh] = [await charts(tokens.sup01, 'en-US'), await charts(tokens.sup01, 'zh-CN')];
    const open = (cs: ChartData[]) => cs.find((c) => c.key === 'openQtyByStatus')!;
    expect([open(en).title, open(en).valueLabel, open(en).points[0].label]).toEqual(['Open quantity by order status', 'Open quantity', 'Released']);
    expect(open(zh).title).toBe('按订单状态的未发数量');
    expect(open(zh).valueLabel).toBe('未发数量');
    expect(open(zh).points[0].label).not.toBe('Released');
    expect(open(zh).points.map((p) => p.value)).toEqual(open(en).points.map((p) => p.value));
  });

  it("shipping a line today adds it to today's bar", async () => {
    const today = windowDays(1)[0];
    const before = (await charts(tokens.sup01)).find((c) => c.key === 'shippedPerDay')!.points.at(-1)!;
    expect(before.key).toBe(today);
    // a line of its own never shipped yet, so no other day loses it
    const line = await t.app.db.get<{ id: number }>(
      `SELECT id FROM "order" WHERE status = ? AND last_shipped_at IS NULL AND direct_supplier_code = ? AND production_supplier_code = ? AND warehouse_code = ? ORDER BY id LIMIT 1`,
      [code('purchaseOrderStatus', 'confirmed'), 'S001', 'S001', 'PDC01'],
    );
    const r = await t.app.inject({ method: 'POST', url: `/api/orders/${line!.id}/actions/ship`, headers: bearer(tokens.sup01), payload: { shipQty: 1 } });
    expect(r.statusCode, r.body).toBe(200);
    const after = (await charts(tokens.sup01)).find((c) => c.key === 'shippedPerDay')!.points.at(-1)!;
    expect(after.value).toBe(before.value + 1);
  });

  it('internal staff get no supplier chart; no token is a 401, an unknown screen a 404', async () => {
    expect(await charts(tokens.staff01)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/home/charts' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/home/charts?screen=nothing', headers: bearer(tokens.sup01) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/home/charts?screen=orderSearch', headers: bearer(tokens.sup01) })).statusCode).toBe(404);
  });
});
