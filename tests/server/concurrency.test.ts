/**
 * Correctness under real concurrency across TWO server processes over ONE database (the
 * backend the project selects: SQLite file or PostgreSQL database). In-process tests
 * (business-actions.test.ts) only prove the in-process lock; here two processes (forked
 * tests/support/serve-process.ts, talked to over real HTTP on 127.0.0.1) race each other, so only
 * the database's own locks (SQLite's write lock, PostgreSQL's row locks, version conditions,
 * number series) can keep the data right.
 *
 * Every burst sends all its requests at once (Promise.all), alternating between the processes.
 * Fixture rows are written by this process with RowWriter while the servers are idle (RowWriter
 * assumes nobody else inserts into its tables meanwhile).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../server/db/types.ts';
import { metadata } from '../../server/generated/index.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { hashPassword, TEST_PARAMS } from '../../server/engine/passwords.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';
import { loginOver, startServeProcess, type ServeProcess } from '../support/serve-process.ts';
import { BACKEND, PDF as PDF_BYTES, TEST_SECRET, code, preparedDatabase, cleanUp } from './helpers.ts';
import { numbering, orderLine, writeRow, type Values } from './rows.ts';

let dir = '';
let drop: () => Promise<void> = async () => undefined;
let db: Db | undefined;
const procs: ServeProcess[] = [];
/** a second pair with the default per-account login limit (the first pair lifts every limit) */
const limitedProcs: ServeProcess[] = [];
let serveOptions: Parameters<typeof startServeProcess>[0];
const tokens: Record<string, string> = {};

interface Answer {
  status: number;
  body: Record<string, unknown> & { code?: string };
}

/** One HTTP call to server process `which` (0 or 1). */
async function call(which: number, method: string, path: string, token: string | null, payload?: unknown): Promise<Answer> {
  const r = await fetch(`${procs[which % procs.length].base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      'accept-language': 'en-US',
    },
    ...(payload !== undefined ? { body: JSON.stringify(payload) } : {}),
  });
  const text = await r.text();
  let body: Answer['body'];
  try {
    body = text ? (JSON.parse(text) as Answer['body']) : {};
  } catch {
    body = { raw: text };
  }
  return { status: r.status, body };
}

/** `n` calls made by `make(k)`, all in flight at once, call k on process k % 2. */
function burst(n: number, make: (k: number) => [method: string, path: string, token: string, payload?: unknown]): Promise<Answer[]> {
  return Promise.all(Array.from({ length: n }, (_, k) => call(k, ...make(k))));
}

/** Starts server processes at once into `into`; one that did start is kept there (for afterAll) even when another fails. */
async function startAll(into: ServeProcess[], options: Parameters<typeof startServeProcess>[0][]): Promise<void> {
  const started = await Promise.allSettled(options.map((o) => startServeProcess(o)));
  for (const s of started) if (s.status === 'fulfilled') into.push(s.value);
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}

const insert = (entity: string, values: Values) => writeRow(db!, entity, values);
const row = async (table: string, id: number) => (await db!.get<Record<string, unknown>>(`SELECT * FROM ${table} WHERE id = ?`, [id]))!;
const count = async (sql: string, params: unknown[]) => Number((await db!.get<{ n: number }>(sql, params))!.n);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const statuses = (answers: Answer[]) => answers.map((a) => a.status);
const tally = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;

beforeAll(async () => {
  const database = await preparedDatabase('portal-concurrency-');
  ({ dir, db, drop } = database);
  const common = (serveOptions = {
    ...database.options,
    jwtSecret: TEST_SECRET,
    hashParams: TEST_PARAMS,
    // the limits are not under test here: thousands of writes per user must not meet a 429
    loginRateLimit: 1e6,
    writesPerMinute: 1e6,
    accountAttemptsPerMinute: 1e6,
  });
  // the first may migrate (a no-op on a migrated database); the second leaves it, as cluster workers do
  await startAll(procs, [
    { ...common, migrate: true },
    { ...common, migrate: false },
  ]);
  // tokens are made by one process and used on both (the secret and revocations are shared)
  tokens.sup = await loginOver(procs[0], 'sup01');
  tokens.staff = await loginOver(procs[1], 'staff01');
  tokens.admin = await loginOver(procs[0], 'supadmin');
});

afterAll(async () => {
  await cleanUp([
    () => Promise.all([...procs, ...limitedProcs].map((p) => p.stop())),
    async () => db?.close(),
    () => drop(),
    async () => dir && rmSync(dir, { recursive: true, force: true }),
  ]);
});

describe(`two server processes over one ${BACKEND} database`, () => {
  it('both processes serve, and a token one process issued works on the other', async () => {
    expect(procs).toHaveLength(2);
    expect(procs[0].pid).not.toBe(procs[1].pid);
    for (const which of [0, 1]) {
      const r = await call(which, 'GET', '/api/orders?range=[0,0]', tokens.sup);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  });

  const orderNo = numbering('CC');
  const order = (values: Values) => insert('order', orderLine(orderNo(), values));

  it('100 parallel ships of 1 on a line with 60 unsent: exactly 60 ship, 40 are refused, nothing is lost or doubled', async () => {
    const id = await order({ status: code('purchaseOrderStatus', 'confirmed'), orderQty: 60, unsentQty: 60, thisShipmentQty: 60 });
    const res = await burst(100, () => ['POST', `/api/orders/${id}/actions/ship`, tokens.sup, { shipQty: 1 }]);
    expect(tally(res, 200), JSON.stringify(statuses(res))).toBe(60);
    expect(tally(res, 409)).toBe(40);
    // refused either on the quantity (line still confirmed) or on the state (line already shipped)
    for (const r of res.filter((x) => x.status === 409)) expect(['error.shipQtyExceeded', 'error.illegalTransition']).toContain(r.body.code);
    // the successful answers saw every quantity from 1 to 60 exactly once: each ship saw the one before it
    expect(
      res
        .filter((r) => r.status === 200)
        .map((r) => Number(r.body.shippedQty))
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(await row('"order"', id)).toMatchObject({ shipped_qty: 60, unsent_qty: 0, status: code('purchaseOrderStatus', 'shipped'), version: 61 });
    expect(await count(`SELECT COUNT(*) AS n FROM audit_entry WHERE resource = 'orders' AND record_id = ? AND operation = 'action:ship'`, [id])).toBe(60);
  });

  it('10 parallel confirms of one released line: exactly one confirms, the others answer orderAlreadyConfirmed', async () => {
    const id = await order({ orderQty: 10, unsentQty: 10 });
    const res = await burst(10, (k) => ['POST', `/api/orders/${id}/actions/confirm`, tokens.sup, { thisShipmentQty: k + 1 }]);
    expect(tally(res, 200), JSON.stringify(statuses(res))).toBe(1);
    for (const r of res.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('error.orderAlreadyConfirmed');
    }
    const winner = res.find((r) => r.status === 200)!;
    // the stored quantity is the winner's, not a later loser's
    expect(await row('"order"', id)).toMatchObject({
      status: code('purchaseOrderStatus', 'confirmed'),
      this_shipment_qty: winner.body.thisShipmentQty,
      version: 2,
    });
    expect(await count(`SELECT COUNT(*) AS n FROM audit_entry WHERE resource = 'orders' AND record_id = ? AND operation = 'action:confirm'`, [id])).toBe(1);
  });

  it('30 parallel DFS ships of 1 on a line with 20 unsent: exactly 20 ship, with 20 history rows', async () => {
    const id = await insert('dfsOrder', {
      dealerCode: 'D100',
      dealerName: '上海一号店',
      dealerOrderNo: 'CC-SA-0001',
      purchaseOrderNo: 'CC-P-0001',
      partsCode: '1K0-199-262',
      orderQty: 20,
      sentQty: 0,
      unsentQty: 20,
      shipStatus: code('dfsShipStatus', 'wait'),
      originalSupplierCode: 'S001',
      purchaseSupplierCode: 'S001',
      warehouseCode: 'PDC01',
    });
    const res = await burst(30, () => ['POST', `/api/dfs-orders/${id}/actions/ship`, tokens.sup, { shipQty: 1 }]);
    expect(tally(res, 200), JSON.stringify(statuses(res))).toBe(20);
    expect(tally(res, 409)).toBe(10);
    for (const r of res.filter((x) => x.status === 409)) expect(['error.dfsShipQtyExceeded', 'error.illegalTransition']).toContain(r.body.code);
    expect(await row('dfs_order', id)).toMatchObject({ sent_qty: 20, unsent_qty: 0, ship_status: code('dfsShipStatus', 'finished') });
    expect(await count(`SELECT COUNT(*) AS n FROM dfs_shipment WHERE dfs_order_id = ?`, [id])).toBe(20);
    expect(await count(`SELECT SUM(ship_qty) AS n FROM dfs_shipment WHERE dfs_order_id = ?`, [id])).toBe(20);
  });

  it('20 parallel settlement initiations over overlapping lines: every line ends in exactly one settlement', async () => {
    const before = await count(`SELECT COALESCE(MAX(id), 0) AS n FROM settlement`, []);
    const ids: number[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push(
        await insert('settlementLine', {
          period: '2026-10',
          supplierCode: 'S001',
          originalPartsCode: `CC-OP-${i}`,
          feePartsCode: 'FP-1',
          qty: 1,
          unitFee: 10 + i,
          amount: 10 + i,
          status: code('settlementLineStatus', 'toBeSettled'),
        }),
      );
    }
    // every fifth call takes all ten lines, the others overlapping windows of four
    const subsets = Array.from({ length: 20 }, (_, k) => (k % 5 === 0 ? ids : ids.slice(k % 7, (k % 7) + 4)));
    const res = await burst(20, (k) => ['POST', '/api/settlement-lines/actions/initiate', tokens.sup, { ids: subsets[k] }]);
    const ok = res.map((r, k) => ({ r, k })).filter(({ r }) => r.status === 200);
    expect(ok.length, JSON.stringify(statuses(res))).toBeGreaterThan(0);
    for (const r of res.filter((x) => x.status !== 200)) {
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body.code).toBe('error.illegalTransition');
    }
    // each success put exactly its own lines into one new settlement, different from every other success
    const settlementIds = ok.map(({ r, k }) => {
      const data = r.body.data as { id: number; settlementId: number; status: string }[];
      expect(data.map((l) => l.id).sort((a, b) => a - b)).toEqual([...subsets[k]].sort((a, b) => a - b));
      expect(new Set(data.map((l) => l.settlementId)).size).toBe(1);
      return data[0].settlementId;
    });
    expect(new Set(settlementIds).size).toBe(settlementIds.length);
    // no line is in two successful calls (the winners' subsets are disjoint) and together they cover what was claimed
    const claimed = ok.flatMap(({ k }) => subsets[k]);
    expect(new Set(claimed).size).toBe(claimed.length);

    const lines = await db!.all<{ id: number; status: string; settlement_id: number | null }>(
      `SELECT id, status, settlement_id FROM settlement_line WHERE id IN (${ids.map(() => '?').join(', ')}) ORDER BY id`,
      ids,
    );
    for (const l of lines) {
      if (claimed.includes(Number(l.id))) {
        expect(l.status).toBe(code('settlementLineStatus', 'inProgress'));
        expect(settlementIds).toContain(Number(l.settlement_id));
      } else {
        // a line no successful call asked for stays free (a failed call rolled back entirely)
        expect(l).toMatchObject({ status: code('settlementLineStatus', 'toBeSettled'), settlement_id: null });
      }
    }
    // the settlements created are exactly the successful calls' ones, each with its lines' count and total
    const created = await db!.all<{ id: number; line_count: number; total_amount: number }>(
      `SELECT id, line_count, total_amount FROM settlement WHERE id > ? ORDER BY id`,
      [before],
    );
    expect(created.map((s) => Number(s.id)).sort((a, b) => a - b)).toEqual([...settlementIds].sort((a, b) => a - b));
    for (const s of created) {
      const mine = lines.filter((l) => Number(l.settlement_id) === Number(s.id));
      expect(Number(s.line_count)).toBe(mine.length);
      const amounts = await db!.all<{ amount: number }>(`SELECT amount FROM settlement_line WHERE settlement_id = ?`, [s.id]);
      expect(Number(s.total_amount)).toBeCloseTo(
        amounts.reduce((x, a) => x + Number(a.amount), 0),
        2,
      );
    }
  });

  it('settlement decisions racing each other: one wins per settlement, and the lines follow the winner', async () => {
    const line = (i: number) =>
      insert('settlementLine', {
        period: '2026-09',
        supplierCode: 'S001',
        originalPartsCode: `CC-RJ-${i}`,
        feePartsCode: 'FP-2',
        qty: 1,
        unitFee: 5,
        amount: 5,
        status: code('settlementLineStatus', 'toBeSettled'),
      });
    const initiate = async (ids: number[]) => {
      const r = await call(0, 'POST', '/api/settlement-lines/actions/initiate', tokens.sup, { ids });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return Number((r.body.data as { settlementId: number }[])[0].settlementId);
    };
    const linesOf = (ids: number[]) =>
      db!.all<{ id: number; status: string; settlement_id: number }>(
        `SELECT id, status, settlement_id FROM settlement_line WHERE id IN (${ids.map(() => '?').join(', ')}) ORDER BY id`,
        ids,
      );
    const groups: { ids: number[]; sid: number }[] = [];
    for (let g = 0; g < 6; g++) {
      const ids = [await line(g * 2), await line(g * 2 + 1)];
      groups.push({ ids, sid: await initiate(ids) });
    }

    // agree (process 0) against reject (process 1) on each pending settlement
    const decisions = await Promise.all(
      groups.flatMap(({ sid }) => [
        call(0, 'POST', `/api/settlements/${sid}/actions/agree`, tokens.staff, { opinion: '同意' }),
        call(1, 'POST', `/api/settlements/${sid}/actions/reject`, tokens.staff, { opinion: '驳回' }),
      ]),
    );
    const rejected: typeof groups = [];
    for (const [g, { ids, sid }] of groups.entries()) {
      const [agree, reject] = [decisions[2 * g], decisions[2 * g + 1]];
      expect([agree.status, reject.status].sort(), JSON.stringify([agree.body, reject.body])).toEqual([200, 409]);
      expect((agree.status === 409 ? agree : reject).body.code).toBe('error.illegalTransition');
      const s = await row('settlement', sid);
      const lines = await linesOf(ids);
      if (agree.status === 200) {
        expect(s.approval_status).toBe(code('settlementApprovalStatus', 'agreed'));
        for (const l of lines) expect(l.status).toBe(code('settlementLineStatus', 'settled'));
      } else {
        expect(s.approval_status).toBe(code('settlementApprovalStatus', 'rejected'));
        for (const l of lines) expect(l.status).toBe(code('settlementLineStatus', 'toBeSettled'));
        rejected.push(groups[g]);
      }
    }

    // on the rejected ones: the objection (process 0) against initiating the same lines anew (process 1)
    if (!rejected.length) return;
    const races = await Promise.all(
      rejected.flatMap(({ ids, sid }) => [
        call(0, 'POST', `/api/settlements/${sid}/actions/rejectRejection`, tokens.sup, { objection: '金额已核对' }),
        call(1, 'POST', '/api/settlement-lines/actions/initiate', tokens.sup, { ids }),
      ]),
    );
    for (const [g, { ids, sid }] of rejected.entries()) {
      const [objection, again] = [races[2 * g], races[2 * g + 1]];
      expect([objection.status, again.status].sort(), JSON.stringify([objection.body, again.body])).toEqual([200, 409]);
      const lines = await linesOf(ids);
      for (const l of lines) expect(l.status).toBe(code('settlementLineStatus', 'inProgress'));
      if (objection.status === 200) {
        expect(again.body.code).toBe('error.illegalTransition');
        for (const l of lines) expect(Number(l.settlement_id)).toBe(sid);
        expect(await row('settlement', sid)).toMatchObject({ approval_status: code('settlementApprovalStatus', 'pending'), line_count: 2 });
      } else {
        // the lines went to the new settlement first; the objection found nothing left to take back
        expect(objection.body.code).toBe('error.settlementLinesNotSettleable');
        const newId = Number((again.body.data as { settlementId: number }[])[0].settlementId);
        expect(newId).not.toBe(sid);
        for (const l of lines) expect(Number(l.settlement_id)).toBe(newId);
        expect(await row('settlement', newId)).toMatchObject({ approval_status: code('settlementApprovalStatus', 'pending'), line_count: 2 });
        expect((await row('settlement', sid)).approval_status).toBe(code('settlementApprovalStatus', 'rejected'));
      }
    }
  });

  it('60 parallel creates of stock adjustments get 60 different bill numbers', async () => {
    // an adjustment names a part of the supplier's child-part stock (metadata lookup)
    await insert('childPartStock', {
      partsCode: 'CC-BILLS',
      supplierCode: 'S001',
      warehouseCode: 'PDC01',
      stockQty: 0,
      availableQty: 0,
      totalStockQty: 0,
      demandQty: 0,
      abnormalStockQty: 0,
      waitingShipQty: 0,
      shortageQty: 0,
    });
    const res = await burst(60, (k) => ['POST', '/api/stock-adjustments', tokens.sup, { partsCode: 'CC-BILLS', adjustQty: k + 1, reason: '并发测试' }]);
    expect(
      statuses(res).filter((s) => s !== 201),
      JSON.stringify(res.find((r) => r.status !== 201)?.body),
    ).toEqual([]);
    const billNos = res.map((r) => String(r.body.billNo));
    for (const b of billNos) expect(b).toMatch(/^TZ\d{14}$/);
    expect(new Set(billNos).size).toBe(60);
    // and they were stored as answered
    const stored = await db!.all<{ bill_no: string }>(
      `SELECT bill_no FROM stock_adjustment WHERE id IN (${res.map(() => '?').join(', ')})`,
      res.map((r) => r.body.id),
    );
    expect(stored.map((s) => s.bill_no).sort()).toEqual([...billNos].sort());
  });

  it('20 parallel edits of one notice with the same version: exactly one wins, the rest are stale', async () => {
    const created = await call(0, 'POST', '/api/notices', tokens.admin, { title: '并发编辑测试', content: 'v1' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const n = created.body;
    const res = await burst(20, (k) => ['PUT', `/api/notices/${n.id}`, tokens.admin, { ...n, content: `writer ${k}` }]);
    expect(tally(res, 200), JSON.stringify(statuses(res))).toBe(1);
    for (const r of res.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('error.staleVersion');
    }
    const winner = res.find((r) => r.status === 200)!;
    expect(await row('notice', Number(n.id))).toMatchObject({ content: winner.body.content, version: 2 });
  });

  it('read-modify-write loops on both processes lose no update', async () => {
    const created = await call(1, 'POST', '/api/notices', tokens.admin, { title: '计数器', content: 'count=0' });
    expect(created.status).toBe(201);
    const id = Number(created.body.id);
    const ROUNDS = 10;
    let successes = 0;
    // four clients, two per process: each GETs the notice, adds one to its counter and PUTs it
    // back with the version it read, retrying on a stale version until it has made ROUNDS increments
    const client = async (which: number) => {
      let done = 0;
      for (let attempt = 0; done < ROUNDS; attempt++) {
        if (attempt > 40 * ROUNDS) throw new Error(`client ${which} made no progress`);
        const got = await call(which, 'GET', `/api/notices/${id}`, tokens.admin);
        expect(got.status).toBe(200);
        const n = Number(/^count=(\d+)$/.exec(String(got.body.content))![1]);
        const put = await call(which, 'PUT', `/api/notices/${id}`, tokens.admin, { ...got.body, content: `count=${n + 1}` });
        if (put.status === 200) {
          done++;
          successes++;
        } else {
          expect(put.status, JSON.stringify(put.body)).toBe(409);
          expect(put.body.code).toBe('error.staleVersion');
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(client));
    expect(successes).toBe(4 * ROUNDS);
    expect(await row('notice', id)).toMatchObject({ content: `count=${4 * ROUNDS}`, version: 1 + 4 * ROUNDS });
  });

  it('20 parallel creates of notices with one title: exactly one is stored, the rest are duplicates', async () => {
    const res = await burst(20, (k) => ['POST', '/api/notices', tokens.admin, { title: '同名并发公告', content: `creator ${k}` }]);
    expect(tally(res, 201), JSON.stringify(statuses(res))).toBe(1);
    for (const r of res.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('error.duplicate');
    }
    const stored = await db!.all<{ id: number; content: string }>(`SELECT id, content FROM notice WHERE title = ?`, ['同名并发公告']);
    expect(stored).toHaveLength(1);
    expect(stored[0].content).toBe(res.find((r) => r.status === 201)!.body.content);
  });

  /** The storage names the file store holds: files beside SQLite, rows of _files on PostgreSQL. */
  async function storedFiles(): Promise<string[]> {
    if (db!.kind === 'sqlite') return existsSync(join(dir, 'files')) ? readdirSync(join(dir, 'files')) : [];
    return (await db!.all<{ name: string }>(`SELECT name FROM _files`)).map((r) => r.name);
  }
  function upload(which: number, noticeId: number, name: string, data: Buffer, overwrite: boolean): Promise<Answer> {
    const form = new FormData();
    form.set('noticeId', String(noticeId));
    form.set('file', new Blob([new Uint8Array(data)], { type: 'application/pdf' }), name);
    return fetch(`${procs[which % 2].base}/api/notice-attachments/upload${overwrite ? '?overwrite=true' : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.admin}` },
      body: form,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Answer['body'] }));
  }
  const pdf = (k: number) => Buffer.concat([PDF_BYTES, Buffer.from(`% upload ${k}${' '.repeat(k)}\n`)]);

  it('parallel uploads of one file name to one notice: one row, one stored file, no orphans', async () => {
    const n = await call(0, 'POST', '/api/notices', tokens.admin, { title: '并发附件', content: 'c' });
    expect(n.status).toBe(201);
    const noticeId = Number(n.body.id);
    const filesBefore = (await storedFiles()).length;

    // without overwrite: the first wins, the others are asked to overwrite and their bytes are removed
    const plain = await Promise.all(Array.from({ length: 10 }, (_, k) => upload(k, noticeId, 'same.pdf', pdf(k), false)));
    expect(tally(plain, 201), JSON.stringify(plain.map((r) => [r.status, r.body.code]))).toBe(1);
    for (const r of plain.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.code).toBe('error.fileExists');
    }
    expect((await storedFiles()).length).toBe(filesBefore + 1);

    // with overwrite: every upload replaces the one before it; exactly the last one's bytes are kept
    const over = await Promise.all(Array.from({ length: 10 }, (_, k) => upload(k, noticeId, 'same.pdf', pdf(20 + k), true)));
    expect(statuses(over), JSON.stringify(over.find((r) => r.status !== 201)?.body)).toEqual(over.map(() => 201));
    const rows = await db!.all<{ id: number; storage_name: string; file_size: number }>(
      `SELECT id, storage_name, file_size FROM notice_attachment WHERE notice_id = ?`,
      [noticeId],
    );
    expect(rows).toHaveLength(1);
    const files = await storedFiles();
    expect(files.length).toBe(filesBefore + 1);
    expect(files).toContain(rows[0].storage_name);
    // the row and the bytes it names belong to the same upload (one of the overwriting ones)
    const k = over.findIndex((r) => Number(r.body.fileSize) === Number(rows[0].file_size));
    expect(k).toBeGreaterThanOrEqual(0);
    for (const which of [0, 1]) {
      const dl = await fetch(`${procs[which].base}/api/notice-attachments/${rows[0].id}/download`, { headers: { authorization: `Bearer ${tokens.admin}` } });
      expect(dl.status).toBe(200);
      expect(Buffer.from(await dl.arrayBuffer()).equals(pdf(20 + k))).toBe(true);
    }
  });

  async function submittedAdjustment(partsCode: string, adjustQty: number, which: number): Promise<number> {
    const c = await call(which, 'POST', '/api/stock-adjustments', tokens.sup, { partsCode, adjustQty, reason: '并发审核' });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const s = await call(which, 'POST', `/api/stock-adjustments/${c.body.id}/actions/submit`, tokens.sup, {});
    expect(s.status, JSON.stringify(s.body)).toBe(200);
    return Number(c.body.id);
  }
  const stockOf = (partsCode: string) =>
    db!.get<{ stock_qty: number; available_qty: number; total_stock_qty: number }>(
      `SELECT stock_qty, available_qty, total_stock_qty FROM child_part_stock WHERE supplier_code = 'S001' AND warehouse_code = 'PDC01' AND parts_code = ?`,
      [partsCode],
    );

  it('adjustments of the same part audited at once from both processes all reach the stock (no lost update)', async () => {
    const part = 'CC-RACE-1';
    await insert('childPartStock', {
      partsCode: part,
      supplierCode: 'S001',
      warehouseCode: 'PDC01',
      stockQty: 100,
      availableQty: 100,
      totalStockQty: 100,
      demandQty: 0,
      abnormalStockQty: 0,
      waitingShipQty: 0,
      shortageQty: 0,
    });
    const qtys = [7, 11, -5, 3, 13, -2, 17, 1, 19, -4];
    const ids: number[] = [];
    for (const [i, q] of qtys.entries()) ids.push(await submittedAdjustment(part, q, i));
    const res = await burst(ids.length, (k) => ['POST', `/api/stock-adjustments/${ids[k]}/actions/adjust`, tokens.staff, { auditNote: `审核 ${k}` }]);
    expect(statuses(res), JSON.stringify(res.find((r) => r.status !== 200)?.body)).toEqual(ids.map(() => 200));
    const sum = qtys.reduce((a, b) => a + b, 0);
    expect(await stockOf(part)).toEqual({ stock_qty: 100 + sum, available_qty: 100 + sum, total_stock_qty: 100 + sum });
    for (const id of ids) expect((await row('stock_adjustment', id)).status).toBe(code('stockAdjustStatus', 'adjust'));
  });

  it('first adjustments of a part without a stock row: a loser answers duplicate and succeeds when audited again', async () => {
    const part = 'CC-RACE-NEW';
    const qtys = [5, 8, 12, 20];
    const ids: number[] = [];
    // adjustments name a part in stock (metadata lookup); the warehouse system then drops its row
    await insert('childPartStock', {
      partsCode: part,
      supplierCode: 'S001',
      warehouseCode: 'PDC01',
      stockQty: 0,
      availableQty: 0,
      totalStockQty: 0,
      demandQty: 0,
      abnormalStockQty: 0,
      waitingShipQty: 0,
      shortageQty: 0,
    });
    for (const [i, q] of qtys.entries()) ids.push(await submittedAdjustment(part, q, i));
    await db!.run(`DELETE FROM child_part_stock WHERE supplier_code = 'S001' AND warehouse_code = 'PDC01' AND parts_code = ?`, [part]);
    let pending = ids.map((id, k) => ({ id, k }));
    // documented (handlers/adjustments.ts): concurrent first adjustments meet at the unique index;
    // the second answers 409 error.duplicate and simply is audited again
    for (let round = 0; pending.length && round < 10; round++) {
      const res = await Promise.all(pending.map(({ id, k }) => call(k + round, 'POST', `/api/stock-adjustments/${id}/actions/adjust`, tokens.staff, {})));
      for (const r of res.filter((x) => x.status !== 200)) {
        expect(r.status, JSON.stringify(r.body)).toBe(409);
        expect(r.body.code).toBe('error.duplicate');
      }
      pending = pending.filter((_, i) => res[i].status !== 200);
    }
    expect(pending).toEqual([]);
    const sum = qtys.reduce((a, b) => a + b, 0);
    expect(await stockOf(part)).toEqual({ stock_qty: sum, available_qty: sum, total_stock_qty: sum });
    expect(await count(`SELECT COUNT(*) AS n FROM child_part_stock WHERE supplier_code = 'S001' AND warehouse_code = 'PDC01' AND parts_code = ?`, [part])).toBe(
      1,
    );
  });

  /** Login over HTTP: the status and the error code ('ok' for a token). */
  async function tryLogin(base: string, username: string, password: string): Promise<string> {
    const r = await fetch(`${base}/connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username, password, warehouse: 'PDC01' }).toString(),
    });
    const body = (await r.json()) as { code?: string; access_token?: string };
    return `${r.status} ${r.status === 200 && body.access_token ? 'ok' : body.code}`;
  }

  /**
   * Fresh supplier accounts with the demo password, hashed at the test cost (an unknown user ID is
   * checked against a production-cost hash, which would make a burst of attempts take seconds).
   */
  async function supplierAccounts(prefix: string, n: number): Promise<string[]> {
    const hash = await hashPassword(DEMO_PASSWORD, TEST_PARAMS);
    const users = Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
    await RowWriter.write(db!, metadata, (w) => {
      for (const userId of users) {
        w.insert('account', {
          userId,
          name: userId,
          accountType: code('accountType', 'supplier'),
          departmentId: 'S001',
          departmentName: '华东汽车零部件有限公司',
          status: code('accountStatus', 'normal'),
          failedLogins: 0,
          passwordHash: hash,
          passwordChangedAt: w.now,
        });
      }
    });
    return users;
  }

  it('parallel guesses through both processes cannot pass the delay: only the free attempts are checked, nothing locks', async () => {
    const FREE = metadata.app.lockout.freeAttempts;
    const users = await supplierAccounts('cc-guess', 6);
    const outcomes = await Promise.all(
      users.map(async (user) => {
        const answers = await Promise.all(
          Array.from({ length: 2 * metadata.app.lockout.maxFailures + 1 }, (_, k) => tryLogin(procs[k % 2].base, user, 'wrongPass1')),
        );
        const acc = (await db!.get<{ failed_logins: number; status: string }>(`SELECT failed_logins, status FROM account WHERE user_id = ?`, [user]))!;
        return {
          tally: answers.reduce<Record<string, number>>((m, a) => ({ ...m, [a]: (m[a] ?? 0) + 1 }), {}),
          failed: Number(acc.failed_logins),
          status: acc.status,
        };
      }),
    );
    for (const [i, o] of outcomes.entries()) {
      expect(o, users[i]).toEqual({
        tally: { '400 error.loginFailed': FREE, '429 error.loginThrottled': 2 * metadata.app.lockout.maxFailures + 1 - FREE },
        failed: FREE,
        status: code('accountStatus', 'normal'),
      });
    }
  });

  it('a right password whose check is slow is refused when the account was locked meanwhile (by staff, through the other process)', async () => {
    const [user] = await supplierAccounts('cc-slow', 1);
    // accounts hashed at a higher cost: their attempts keep the password-hashing threads of
    // process 0 busy for a while (as a loaded server would be); one each, so none is throttled
    const slowHash = await hashPassword('slowPass1', { N: 2 ** 14, r: 8, p: 1 });
    const slow = Array.from({ length: 12 }, (_, i) => `cc-slow-hash-${i}`);
    await RowWriter.write(db!, metadata, (w) => {
      for (const userId of slow)
        w.insert('account', {
          userId,
          name: userId,
          accountType: code('accountType', 'supplier'),
          departmentId: 'S001',
          status: code('accountStatus', 'normal'),
          failedLogins: 0,
          passwordHash: slowHash,
          passwordChangedAt: w.now,
        });
    });
    const id = Number((await db!.get<{ id: number }>(`SELECT id FROM account WHERE user_id = ?`, [user]))!.id);
    const busy = slow.map((u) => tryLogin(procs[0].base, u, 'wrongPass1'));
    await sleep(50);
    // process 0 reads the account (not locked yet) and waits for a hashing thread ...
    const right = fetch(`${procs[0].base}/connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: user, password: DEMO_PASSWORD, warehouse: 'PDC01' }).toString(),
    });
    await sleep(50);
    // ... while process 1 locks it
    const lock = await call(1, 'POST', `/api/accounts/${id}/actions/lock`, tokens.staff, {});
    expect(lock.status, JSON.stringify(lock.body)).toBe(200);
    const answer = await right;
    const body = (await answer.json()) as { code?: string; access_token?: string };
    await Promise.all(busy);
    expect((await db!.get<{ status: string }>(`SELECT status FROM account WHERE id = ?`, [id]))!.status).toBe(code('accountStatus', 'locked'));
    // one after the other in either order: logged in before the lock (whose end of sessions then
    // stops the token) or refused as locked; never a token that works after the lock
    if (answer.status === 200) expect((await call(1, 'POST', '/supplierApi/accountInfo/info', body.access_token!)).status).toBe(401);
    else expect(`${answer.status} ${body.code}`).toBe('400 error.userLocked');
  });

  describe('with the default per-account login limit', () => {
    beforeAll(async () => {
      const { accountAttemptsPerMinute: _lifted, ...rest } = serveOptions;
      await startAll(limitedProcs, [
        { ...rest, migrate: false },
        { ...rest, migrate: false },
      ]);
    });

    it('parallel attempts on one account from both processes: exactly the limit is let through, and of those only the free attempts are checked', async () => {
      const LIMIT = 10; // connect.ts: accountAttemptsPerMinute defaults to 10
      const FREE = metadata.app.lockout.freeAttempts;
      const users = await supplierAccounts('cc-limit', 4);
      const results = await Promise.all(
        users.map((user) => Promise.all(Array.from({ length: 3 * LIMIT }, (_, k) => tryLogin(limitedProcs[k % 2].base, user, 'wrongPass1')))),
      );
      for (const [i, answers] of results.entries()) {
        const tally = answers.reduce<Record<string, number>>((m, a) => ({ ...m, [a]: (m[a] ?? 0) + 1 }), {});
        expect(tally, users[i]).toEqual({ '400 error.loginFailed': FREE, '429 error.loginThrottled': LIMIT - FREE, '429 error.rateLimited': 2 * LIMIT });
      }
    });
  });
});
