/**
 * The home page's stamped cache (server/home/stamped-cache.ts): a tile count or chart sum read
 * again with no write in between comes from memory, and a write committed through another server
 * over the same database (another connection: another process's, as far as the database can tell)
 * shows at the next call of the first server, on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TileCount } from '../../codegen/runtime/tiles.ts';
import type { ChartData } from '../../codegen/runtime/charts.ts';
import type { Queryable } from '../../server/db/types.ts';
import { changeStamp, stampedAll } from '../../server/home/stamped-cache.ts';
import { bearer, build, code, listUrl, login, type TestApp } from './helpers.ts';

let a: TestApp;
let b: TestApp;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  a = await build();
  b = await build({ same: a, seed: false });
  tokenA = await login(a.app, 'sup01');
  tokenB = await login(b.app, 'sup01');
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const tileCount = async (key: string): Promise<number> => {
  const r = await a.app.inject({ method: 'GET', url: '/api/home/tiles', headers: bearer(tokenA) });
  expect(r.statusCode).toBe(200);
  return (r.json().tiles as TileCount[]).find((x) => x.key === key)!.count;
};
const openQty = async (): Promise<Record<string, number>> => {
  const r = await a.app.inject({ method: 'GET', url: '/api/home/charts', headers: bearer(tokenA) });
  expect(r.statusCode).toBe(200);
  const chart = (r.json().charts as ChartData[]).find((c) => c.key === 'openQtyByStatus')!;
  return Object.fromEntries(chart.points.map((p) => [p.key, p.value]));
};

/** confirms one released line of sup01 through the second server */
async function confirmThroughB(): Promise<{ unsentQty: number }> {
  const list = await b.app.inject({
    method: 'GET',
    url: listUrl('orders', { filter: { status: code('purchaseOrderStatus', 'released') }, range: [0, 0] }),
    headers: bearer(tokenB),
  });
  const line = list.json()[0];
  const r = await b.app.inject({
    method: 'POST',
    url: `/api/orders/${line.id}/actions/confirm`,
    headers: bearer(tokenB),
    payload: { thisShipmentQty: line.orderQty },
  });
  expect(r.statusCode).toBe(200);
  const after = await a.app.db.get<{ unsent_qty: number }>('SELECT unsent_qty FROM "order" WHERE id = ?', [line.id]);
  return { unsentQty: Number(after!.unsent_qty) };
}

describe('home stamped cache', () => {
  it("a write committed through another server shows in the first server's tiles and charts at the next call", async () => {
    const released = code('purchaseOrderStatus', 'released');
    const confirmed = code('purchaseOrderStatus', 'confirmed');
    // read twice: the second read is the one a stale cache would answer from
    await tileCount('linesToConfirm');
    const before = await tileCount('linesToConfirm');
    await openQty();
    const qtyBefore = await openQty();
    const { unsentQty } = await confirmThroughB();
    expect(await tileCount('linesToConfirm')).toBe(before - 1);
    const qtyAfter = await openQty();
    expect(qtyAfter[confirmed]).toBe(qtyBefore[confirmed] + unsentQty);
    expect(qtyAfter[released]).toBeLessThan(qtyBefore[released]);
  });

  // a real change: an UPDATE that leaves the row as it was writes nothing, and the stamp rightly stays
  it('the stamp moves when another connection commits a write', async () => {
    const s1 = await changeStamp(a.app.db);
    await b.app.db.transaction((tx) => tx.run('UPDATE "order" SET order_qty = order_qty + 1 WHERE id = (SELECT MIN(id) FROM "order")', []));
    expect(await changeStamp(a.app.db)).not.toBe(s1);
  });

  it('the stamp moves when this connection commits a write', async () => {
    const s1 = await changeStamp(a.app.db);
    await a.app.db.run('UPDATE "order" SET order_qty = order_qty + 1 WHERE id = (SELECT MIN(id) FROM "order")', []);
    expect(await changeStamp(a.app.db)).not.toBe(s1);
  });

  it('the same statement under the same stamp reads the database once; a new stamp or other parameters read it again', async () => {
    let reads = 0;
    const db: Queryable = { ...a.app.db, dialect: a.app.db.dialect, all: (sql, params) => (reads++, a.app.db.all(sql, params)) } as Queryable;
    const sql = 'SELECT COUNT(*) AS n FROM "order" WHERE warehouse_code = ?';
    const first = await stampedAll(db, 'stamp-1', sql, ['PDC01']);
    expect(await stampedAll(db, 'stamp-1', sql, ['PDC01'])).toEqual(first);
    expect(reads).toBe(1);
    await stampedAll(db, 'stamp-1', sql, ['PDC02']);
    expect(reads).toBe(2);
    await stampedAll(db, 'stamp-2', sql, ['PDC01']);
    expect(reads).toBe(3);
  });
});
