/**
 * The charts' sums under real concurrency: TWO server processes over ONE database (SQLite file or
 * PostgreSQL), two suppliers shipping ten lines each at once, every line shipped in two parts, the
 * calls alternating between the processes. Every ship inserts its delta rows in its own
 * transaction (no sums row is updated, so none is waited for); afterwards the sums equal the rows
 * recounted, each supplier's chart says so, and a fold by one process while the other ships loses
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import type { Db } from '../../server/db/types.ts';
import type { ChartData } from '../../codegen/runtime/charts.ts';
import { TEST_PARAMS } from '../../server/engine/passwords.ts';
import { loginOver, startServeProcess, type ServeProcess } from '../support/serve-process.ts';
import { BACKEND, TEST_SECRET, cleanUp, code, preparedDatabase } from './helpers.ts';
import { confirmedOrderLine, numbering, writeRow } from './rows.ts';
import { chartSumsMismatches } from './chart-sums-oracle.ts';

let dir = '';
let drop: () => Promise<void> = async () => undefined;
let db: Db | undefined;
const procs: ServeProcess[] = [];
const tokens: Record<string, string> = {};

async function call(which: number, method: string, path: string, token: string, payload?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${procs[which % procs.length].base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  const database = await preparedDatabase('portal-chart-sums-');
  ({ dir, db, drop } = database);
  const common = {
    ...database.options,
    jwtSecret: TEST_SECRET,
    hashParams: TEST_PARAMS,
    loginRateLimit: 1e6,
    writesPerMinute: 1e6,
    accountAttemptsPerMinute: 1e6,
  };
  for (const p of await Promise.all([startServeProcess({ ...common, migrate: true }), startServeProcess({ ...common, migrate: false })])) procs.push(p);
  tokens.sup01 = await loginOver(procs[0], 'sup01');
  tokens.sup02 = await loginOver(procs[1], 'sup02');
}, 120_000);

afterAll(async () => {
  await cleanUp([
    () => Promise.all(procs.map((p) => p.stop())),
    async () => db?.close(),
    () => drop(),
    async () => dir && rmSync(dir, { recursive: true, force: true }),
  ]);
});

const charts = async (which: number, who: string): Promise<ChartData[]> =>
  (await call(which, 'GET', '/api/home/charts', tokens[who])).body.charts as ChartData[];
const todayOf = (cs: ChartData[]) => cs.find((c) => c.key === 'shippedPerDay')!.points.at(-1)!.value;
const openOf = (cs: ChartData[]) => cs.find((c) => c.key === 'openQtyByStatus')!.points.find((p) => p.key === code('purchaseOrderStatus', 'confirmed'))!.value;

describe(`the charts' sums, two server processes over one ${BACKEND} database`, () => {
  it('two suppliers ship ten lines each in two parts at once, across both processes: the sums equal the rows recounted', async () => {
    const orderNo = numbering('CSP');
    const lines: Record<string, number[]> = { sup01: [], sup02: [] };
    // fixtures written while the servers are idle (RowWriter builds the sums of what it wrote)
    for (const [who, supplier] of [
      ['sup01', 'S001'],
      ['sup02', 'S002'],
    ])
      for (let i = 0; i < 10; i++)
        lines[who].push(
          await writeRow(
            db!,
            'order',
            confirmedOrderLine(orderNo(), {
              directSupplierCode: supplier,
              productionSupplierCode: supplier,
              purchasingSupplierCode: supplier,
              lastShippedAt: null,
            }),
          ),
        );
    expect(await chartSumsMismatches(db!)).toEqual([]);
    const before = { sup01: await charts(0, 'sup01'), sup02: await charts(1, 'sup02') };
    // 40 ships in flight at once: every line twice (4 then 6 of its 10), the two parts on different processes
    const ships = (['sup01', 'sup02'] as const).flatMap((who) => lines[who].flatMap((id) => [4, 6].map((qty) => ({ who, id, qty }))));
    const answers = await Promise.all(ships.map((s, k) => call(k, 'POST', `/api/orders/${s.id}/actions/ship`, tokens[s.who], { shipQty: s.qty })));
    expect(answers.map((a) => a.status)).toEqual(ships.map(() => 200));
    expect(await chartSumsMismatches(db!)).toEqual([]);
    // each supplier's chart, from either process: ten more lines shipped today, 100 fewer open on confirmed lines
    for (const [which, who] of [
      [1, 'sup01'],
      [0, 'sup02'],
    ] as const) {
      const after = await charts(which, who);
      expect(todayOf(after) - todayOf(before[who])).toBe(10);
      expect(openOf(before[who]) - openOf(after)).toBe(100);
    }
  });

  it('a fold by one process while the other ships loses nothing', async () => {
    const orderNo = numbering('CSF');
    const ids: number[] = [];
    for (let i = 0; i < 30; i++)
      ids.push(await writeRow(db!, 'order', confirmedOrderLine(orderNo(), { orderQty: 60, unsentQty: 60, thisShipmentQty: 60, lastShippedAt: null })));
    // 60 ships of 1 grow S001's keys past the fold's slack; charts read on both processes meanwhile fold them
    const work = [
      ...ids.flatMap((id) => [0, 1].map((k) => call(k, 'POST', `/api/orders/${id}/actions/ship`, tokens.sup01, { shipQty: 1 }))),
      ...Array.from({ length: 6 }, (_, k) => call(k, 'GET', '/api/home/charts', tokens.sup01)),
    ];
    expect((await Promise.all(work)).map((a) => a.status)).toEqual(work.map(() => 200));
    await charts(0, 'sup01');
    expect(await chartSumsMismatches(db!)).toEqual([]);
  });
});
