/**
 * The dashboard's work tiles (GET /api/home/tiles): per profile the tiles it may open and no other,
 * each count equal to the total of the list it opens (same filter, same scope), counts that follow
 * the data, the bound of a list's count, and refusals (no token, unknown or non-dashboard screen).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadata } from '../../server/generated/index.ts';
import { tileListFilter, type TileCount } from '../../codegen/runtime/tiles.ts';
import { bearer, build, code, listUrl, login, type TestApp } from './helpers.ts';

let t: TestApp;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await build();
  tokens.sup01 = await login(t.app, 'sup01');
  tokens.sup01NotClaim = await login(t.app, 'sup01', 'PDC02');
  tokens.sup02 = await login(t.app, 'sup02');
  tokens.staff01 = await login(t.app, 'staff01');
  tokens.supadmin = await login(t.app, 'supadmin');
});
afterAll(() => t.close());

type Tile = TileCount;
const tiles = async (token: string): Promise<Tile[]> => {
  const r = await t.app.inject({ method: 'GET', url: '/api/home/tiles', headers: bearer(token) });
  expect(r.statusCode).toBe(200);
  return r.json().tiles;
};
const dashboard = metadata.screens.find((s) => s.name === 'dashboard')!;
const screenOf = (name: string) => metadata.screens.find((s) => s.name === name)!;

/** the total the list answers for the filter a click on the tile opens it with */
async function listTotal(token: string, tile: Tile): Promise<number> {
  const screen = screenOf(tile.screen);
  const declared = dashboard.tiles!.find((x) => x.key === tile.key)!;
  const filter = { ...tileListFilter(declared, screen), ...tile.search };
  const r = await t.app.inject({ method: 'GET', url: listUrl(screen.resource!, { filter, range: [0, 0] }), headers: bearer(token) });
  expect(r.statusCode).toBe(200);
  return Number(/\/(\d+)/.exec(String(r.headers['content-range']))![1]);
}

describe('home tiles', () => {
  it('a supplier at a claim warehouse sees its work tiles, each count the total of the list it opens', async () => {
    const got = await tiles(tokens.sup01);
    expect(got.map((x) => x.key)).toEqual(['linesToConfirm', 'linesDueSoon', 'linesOverdue', 'dfsUnsent', 'claimsToAnswer', 'feesToSettle', 'hazardToConfirm']);
    for (const tile of got) expect([tile.key, tile.count]).toEqual([tile.key, await listTotal(tokens.sup01, tile)]);
    expect(got.find((x) => x.key === 'linesToConfirm')!.count).toBeGreaterThan(0);
    const due = got.find((x) => x.key === 'linesDueSoon')!;
    expect(Object.keys(due.search).sort()).toEqual(['forecastReceiveDate_gte', 'forecastReceiveDate_lte']);
    expect(due.path).toBe('/orderShip/list');
  });

  it('counts are scoped: each supplier counts its own rows, checked against the database', async () => {
    for (const [who, supplier] of [
      ['sup01', 'S001'],
      ['sup02', 'S002'],
    ] as const) {
      const tile = (await tiles(tokens[who])).find((x) => x.key === 'linesToConfirm')!;
      const released = code('purchaseOrderStatus', 'released');
      const row = await t.app.db.get<{ n: number }>(
        'SELECT COUNT(*) AS n FROM "order" WHERE status = ? AND warehouse_code = ? AND (direct_supplier_code = ? OR production_supplier_code = ? OR purchasing_supplier_code = ?)',
        [released, 'PDC01', supplier, supplier, supplier],
      );
      expect(tile.count).toBe(Number(row!.n));
    }
  });

  it('a count follows the data: confirming a line takes it off "lines to confirm"', async () => {
    const before = (await tiles(tokens.sup01)).find((x) => x.key === 'linesToConfirm')!.count;
    const list = await t.app.inject({
      method: 'GET',
      url: listUrl('orders', { filter: { status: code('purchaseOrderStatus', 'released') }, range: [0, 0] }),
      headers: bearer(tokens.sup01),
    });
    const line = list.json()[0];
    const r = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${line.id}/actions/confirm`,
      headers: bearer(tokens.sup01),
      payload: { thisShipmentQty: line.orderQty },
    });
    expect(r.statusCode).toBe(200);
    expect((await tiles(tokens.sup01)).find((x) => x.key === 'linesToConfirm')!.count).toBe(before - 1);
  });

  it('a supplier away from a claim warehouse gets no claim tile; internal staff get theirs; the supplier administrator none of the business ones', async () => {
    expect((await tiles(tokens.sup01NotClaim)).map((x) => x.key)).not.toContain('claimsToAnswer');
    const staff = await tiles(tokens.staff01);
    expect(staff.map((x) => x.key)).toEqual(['adjustmentsToAudit', 'failedMessages', 'lockedAccounts']);
    for (const tile of staff) expect(tile.count).toBe(await listTotal(tokens.staff01, tile));
    const locked = staff.find((x) => x.key === 'lockedAccounts')!;
    expect(locked.count).toBeGreaterThan(0);
    expect(locked.severity).toBe('warning');
    expect((await tiles(tokens.supadmin)).map((x) => x.key)).toEqual([]);
  });

  it('severity follows the declared thresholds', async () => {
    for (const tile of await tiles(tokens.sup01)) {
      const sev = dashboard.tiles!.find((x) => x.key === tile.key)!.severity;
      const expected =
        sev.error !== undefined && tile.count >= sev.error ? 'error' : sev.warning !== undefined && tile.count >= sev.warning ? 'warning' : 'info';
      expect([tile.key, tile.severity]).toEqual([tile.key, expected]);
    }
  });

  it('refuses: no token 401, an unknown or non-dashboard screen 404', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/home/tiles' })).statusCode).toBe(401);
    for (const screen of ['nothing', 'orderShip'])
      expect((await t.app.inject({ method: 'GET', url: `/api/home/tiles?screen=${screen}`, headers: bearer(tokens.sup01) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/home/tiles?screen=x%27%3B', headers: bearer(tokens.sup01) })).statusCode).toBe(400);
  });
});
