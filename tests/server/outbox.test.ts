/**
 * The outbox of the external exchange, against a real HTTP receiver (tests/support/receiver.ts)
 * on 127.0.0.1: shipping, DFS shipping, agreeing a settlement and answering a claim write their
 * messages in the action's transaction (none for a refused action); batches never exceed the
 * interface's limit; a receiver that fails twice and then accepts takes each message once and the
 * log shows every attempt with the spec's codes; a hanging receiver costs a timeout and a retry;
 * without an endpoint messages wait visibly; after the last automatic attempt a message is failed
 * and a manual resend (single or bulk) sends it again in mode manual; access is internal staff only.
 *
 * The dispatcher runs one pass at a time (runOnce) on a clock the test moves forward, so a backoff
 * is passed by moving the clock, never by waiting. Rows are made here, so expectations are exact.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metadata } from '../../server/generated/index.ts';
import { OutboxDispatcher, type DispatcherOptions } from '../../server/outbox/dispatcher.ts';
import { emitMessages } from '../../server/outbox/emit.ts';
import { principalOf } from '../bench/list-cases.ts';
import { accept, startReceiver, type Receiver } from '../support/receiver.ts';
import { bearer, build, code, listUrl, login, type TestApp } from './helpers.ts';
import { confirmedOrderLine, writeRow } from './rows.ts';

type Row = Record<string, unknown>;

let t: TestApp;
let sup: string;
let staff: string;
let admin: string;
let rx: Receiver;
/** how far the dispatchers' clock is ahead of the real one */
let offset = 0;
const HOUR = 3_600_000;
const outbox = metadata.outbox!;
const ITF = { shipments: 'INTF0001', finance: 'INTF0004', claims: 'INTF0010' };
const S = (key: string) => code('interfaceMessageStatus', key);
const RESULT = { fail: code('interfaceSendResult', 'fail'), success: code('interfaceSendResult', 'success') };
const MODE = { manual: code('interfaceSendMode', 'manual'), automatic: code('interfaceSendMode', 'automatic') };

const endpointsOf = (r: Receiver) => Object.fromEntries(Object.keys(outbox.interfaces).map((c) => [c, { url: `${r.base}/${c}` }]));
const dispatchers: OutboxDispatcher[] = [];
function dispatcher(opts: DispatcherOptions = {}): OutboxDispatcher {
  const d = new OutboxDispatcher(t.app.db, metadata, {
    env: {},
    endpoints: endpointsOf(rx),
    clock: () => new Date(Date.now() + offset),
    random: () => 0.5,
    sender: 'test-dispatcher',
    ...opts,
  });
  dispatchers.push(d);
  return d;
}
/** passes until nothing is sent any more */
async function drain(d: OutboxDispatcher): Promise<void> {
  for (let i = 0; i < 100; i++) if ((await d.runOnce()).batches === 0) return;
  throw new Error('the outbox did not drain');
}

beforeAll(async () => {
  t = await build();
  [sup, staff, admin] = [await login(t.app, 'sup01'), await login(t.app, 'staff01'), await login(t.app, 'supadmin')];
  rx = await startReceiver();
  // a day ahead: the demo data's waiting messages are all due
  offset = 24 * HOUR;
  await drain(dispatcher());
});
afterEach(() => {
  rx.behave(accept);
});
afterAll(async () => {
  await rx?.close();
  await t?.close();
});

const post = (url: string, token: string, payload: unknown = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...bearer(token), 'accept-language': 'en-US' }, payload: payload as object });
const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const insert = (entity: string, values: Row) => writeRow(t.app.db, entity, values);
let seq = 0;
const orderLine = (values: Row = {}) => insert('order', confirmedOrderLine(`PX${String(++seq).padStart(6, '0')}`, values));
const claim = () =>
  insert('claim', {
    claimNo: `CB${String(++seq).padStart(8, '0')}`,
    status: code('claimStatus', 'unaudited'),
    dealerCode: 'D100',
    dealerOrderNo: 'SA2026110001',
    shipBillNo: 'SB-1',
    partsCode: '1K0-199-262',
    shipQty: 5,
    claimQty: 2,
    reasonCode: code('claimReason', 'damaged'),
    warehouseCode: 'PDC01',
    claimWarehouse: 'PDC01',
    supplierCode: 'S001',
  });
/** the messages an action wrote for a record */
const messagesOf = (type: string, recordId: number) =>
  t.app.db.all<Row>(`SELECT * FROM interface_message WHERE message_type = ? AND record_id = ? ORDER BY id`, [type, recordId]);
const message = async (id: number) => (await t.app.db.get<Row>(`SELECT * FROM interface_message WHERE id = ?`, [id]))!;
const attemptsOf = (id: number) => t.app.db.all<Row>(`SELECT * FROM interface_attempt WHERE message_id = ? ORDER BY attempt_no`, [id]);
const countMessages = async () => Number((await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM interface_message`))!.n);
/** ships one new confirmed line (1 piece) and answers its message */
async function shippedMessage(): Promise<Row> {
  const id = await orderLine();
  const r = await post(`/api/orders/${id}/actions/ship`, sup, { shipQty: 1 });
  expect(r.statusCode, r.body).toBe(200);
  const [m] = await messagesOf('order.ship', id);
  return m;
}

describe('demo data never leaves the machine', () => {
  it("the demo seed's messages, waiting or failed, are never sent to a configured endpoint, not even after a resend", async () => {
    const demo = await t.app.db.all<Row>(`SELECT id, status FROM interface_message WHERE demo = ${t.app.db.dialect.boolLiteral(true)} ORDER BY id`);
    // the seed writes waiting, sent and failed messages, all marked
    expect(demo.length).toBeGreaterThan(0);
    expect(demo.some((m) => m.status === S('pending'))).toBe(true);
    expect(await countMessages()).toBe(demo.length);
    // the dispatchers of beforeAll ran a day ahead with every endpoint configured: nothing went out
    expect(rx.batches).toEqual([]);
    const failed = demo.filter((m) => m.status === S('failed')).map((m) => Number(m.id));
    expect(failed.length).toBeGreaterThan(0);
    expect((await post('/api/interface-messages/actions/resend', staff, { ids: failed.slice(0, 2) })).statusCode).toBe(200);
    expect((await post('/api/interface-messages/actions/resendFailed', staff, {})).statusCode).toBe(200);
    await drain(dispatcher());
    expect(rx.batches).toEqual([]);
  });
});

describe("messages are written in the action's transaction", () => {
  it('a shipped purchase-order line: one message for the shipment interface with the declared payload', async () => {
    const id = await orderLine({ orderNo: 'PX-SHIP-1', itemNo: 3 });
    const r = await post(`/api/orders/${id}/actions/ship`, sup, { shipQty: 4 });
    expect(r.statusCode, r.body).toBe(200);
    const ms = await messagesOf('order.ship', id);
    expect(ms).toHaveLength(1);
    const m = ms[0];
    expect(m).toMatchObject({
      interface_code: ITF.shipments,
      reference: 'PX-SHIP-1/3',
      resource: 'orders',
      status: S('pending'),
      attempts: 0,
      created_by: 'sup01',
      next_send_mode: MODE.automatic,
    });
    expect(String(m.idempotency_key)).toMatch(/^[0-9a-f-]{36}$/);
    const payload = JSON.parse(String(m.payload)) as Row;
    const decl = outbox.interfaces[ITF.shipments].messages.find((x) => x.type === 'order.ship')!;
    expect(Object.keys(payload)).toEqual(decl.fields);
    // the record as it is after the action
    expect(payload).toMatchObject({
      orderNo: 'PX-SHIP-1',
      itemNo: 3,
      shipQty: 4,
      shippedQty: 4,
      unsentQty: 6,
      status: code('purchaseOrderStatus', 'confirmed'),
    });
    expect(payload.lastShippedAt).toBe(r.json().lastShippedAt);
  });

  it('a DFS shipment, a claim answer (approve, reject, return) and an agreed settlement (with its lines)', async () => {
    const dfs = await insert('dfsOrder', {
      dealerCode: 'D100',
      dealerName: '上海一号店',
      dealerOrderNo: 'SA-OUTBOX-1',
      purchaseOrderNo: 'P-OUTBOX-1',
      partsCode: '1K0-199-262',
      orderQty: 5,
      sentQty: 0,
      unsentQty: 5,
      shipStatus: code('dfsShipStatus', 'wait'),
      originalSupplierCode: 'S001',
      purchaseSupplierCode: 'S001',
      warehouseCode: 'PDC01',
    });
    expect((await post(`/api/dfs-orders/${dfs}/actions/ship`, sup, { shipQty: 2 })).statusCode).toBe(200);
    const [dm] = await messagesOf('dfsOrder.ship', dfs);
    expect(dm).toMatchObject({ interface_code: ITF.shipments, reference: 'SA-OUTBOX-1/1K0-199-262' });
    expect(JSON.parse(String(dm.payload))).toMatchObject({ currentShipQty: 2, sentQty: 2, unsentQty: 3, shipStatus: code('dfsShipStatus', 'partial') });

    const answers: [string, Row, string][] = [
      ['approve', { target: code('claimStatus', 'reparation'), judgmentBasis: 'damaged in transit' }, 'reparation'],
      ['reject', { judgmentBasis: 'not our part' }, 'sentBack'],
      ['return', { returnReason: 'photo missing' }, 'remodify'],
    ];
    for (const [action, input, status] of answers) {
      const id = await claim();
      const r = await post(`/api/claims/${id}/actions/${action}`, sup, input);
      expect(r.statusCode, r.body).toBe(200);
      const ms = await messagesOf(`claim.${action}`, id);
      expect(ms, action).toHaveLength(1);
      expect(ms[0].interface_code).toBe(ITF.claims);
      expect(JSON.parse(String(ms[0].payload))).toMatchObject({ status: code('claimStatus', status), auditor: 'sup01', supplierCode: 'S001' });
    }

    const lines = [
      await insert('settlementLine', {
        period: '2026-10',
        supplierCode: 'S001',
        originalPartsCode: 'OB-OP-1',
        feePartsCode: 'FP-1',
        qty: 1,
        unitFee: 100.5,
        amount: 100.5,
        status: code('settlementLineStatus', 'toBeSettled'),
      }),
      await insert('settlementLine', {
        period: '2026-10',
        supplierCode: 'S001',
        originalPartsCode: 'OB-OP-2',
        feePartsCode: 'FP-1',
        qty: 2,
        unitFee: 10,
        amount: 20,
        status: code('settlementLineStatus', 'toBeSettled'),
      }),
    ];
    const init = await post('/api/settlement-lines/actions/initiate', sup, { ids: lines });
    expect(init.statusCode, init.body).toBe(200);
    const settlementId = Number(init.json().data[0].settlementId);
    // initiating is not declared: no message yet
    expect(await messagesOf('settlement.agree', settlementId)).toHaveLength(0);
    const agree = await post(`/api/settlements/${settlementId}/actions/agree`, staff, { opinion: 'ok' });
    expect(agree.statusCode, agree.body).toBe(200);
    const [sm] = await messagesOf('settlement.agree', settlementId);
    expect(sm).toMatchObject({ interface_code: ITF.finance, reference: agree.json().settlementNo, created_by: 'staff01' });
    const payload = JSON.parse(String(sm.payload)) as { totalAmount: number; approvalStatus: string; lines: Row[] };
    expect(payload).toMatchObject({ totalAmount: 120.5, approvalStatus: code('settlementApprovalStatus', 'agreed'), approver: 'staff01' });
    expect(payload.lines.map((l) => [l.originalPartsCode, l.amount, l.status])).toEqual([
      ['OB-OP-1', 100.5, code('settlementLineStatus', 'settled')],
      ['OB-OP-2', 20, code('settlementLineStatus', 'settled')],
    ]);
  });

  it('a refused action writes nothing: a bulk ship where one line has too little open leaves no message for any line', async () => {
    const ok = await orderLine();
    const short = await orderLine({ shippedQty: 9, unsentQty: 1 });
    const before = await countMessages();
    const r = await post('/api/orders/actions/ship', sup, { ids: [ok, short], shipQty: 2 });
    expect(r.statusCode).toBe(409);
    expect(await countMessages()).toBe(before);
    expect(await messagesOf('order.ship', ok)).toHaveLength(0);
    expect((await t.app.db.get<Row>(`SELECT shipped_qty FROM "order" WHERE id = ?`, [ok]))!.shipped_qty).toBe(0);
  });

  it('an action that declares no message writes none (confirm)', async () => {
    const id = await orderLine({ status: code('purchaseOrderStatus', 'released'), thisShipmentQty: null });
    const before = await countMessages();
    expect((await post(`/api/orders/${id}/actions/confirm`, sup, { thisShipmentQty: 5 })).statusCode).toBe(200);
    expect(await countMessages()).toBe(before);
  });
});

describe('batches', () => {
  it("never exceed the interface's limit: 65 shipments go as 30 + 30 + 5 (FPInt001), each taken once", async () => {
    expect(outbox.interfaces[ITF.shipments].batchLimit).toBe(metadata.app.constants.fpInt001MaxItems);
    await drain(dispatcher());
    const ids: number[] = [];
    for (let i = 0; i < 65; i++) ids.push(await orderLine());
    const r = await post('/api/orders/actions/ship', sup, { ids, shipQty: 1 });
    expect(r.statusCode, r.body).toBe(200);
    const keys = (
      await t.app.db.all<Row>(`SELECT idempotency_key FROM interface_message WHERE message_type = 'order.ship' AND record_id IN (${ids.join(',')})`)
    ).map((m) => String(m.idempotency_key));
    expect(keys).toHaveLength(65);
    const first = rx.batches.length;
    await drain(dispatcher());
    const mine = rx.batches.slice(first);
    expect(mine.map((b) => b.body.messages.length)).toEqual([30, 30, 5]);
    for (const b of mine) {
      expect(b.path).toBe(`/${ITF.shipments}`);
      expect(b.body.interface).toBe(ITF.shipments);
      expect(b.headers['idempotency-key']).toBe(b.body.batchKey);
    }
    for (const k of keys) expect(rx.taken.get(k), k).toBe(1);
    expect(rx.duplicates).toEqual([]);
  });

  it('150 for the claim answers (FPInt010): 160 messages go as 150 + 10', async () => {
    expect(outbox.interfaces[ITF.claims].batchLimit).toBe(metadata.app.constants.fpInt010MaxItems);
    await drain(dispatcher());
    const id = await claim();
    const e = metadata.entities.claim;
    const record = (await t.app.db.get<Row>(`SELECT id, claim_no AS "claimNo", status FROM claim WHERE id = ?`, [id]))!;
    // the emitter itself, 160 times over one record (as 160 answered claims would)
    await t.app.db.transaction((q) =>
      emitMessages(
        q,
        metadata,
        e,
        e.actions.reject,
        Array.from({ length: 160 }, () => record),
        principalOf('supplier', { supplierCode: 'S001' }),
        new Date().toISOString(),
      ),
    );
    const first = rx.batches.length;
    await drain(dispatcher());
    expect(rx.batches.slice(first).map((b) => b.body.messages.length)).toEqual([150, 10]);
  });
});

describe('delivery', () => {
  it("a receiver that fails twice then accepts takes the message once; the log shows three attempts with the spec's codes", async () => {
    await drain(dispatcher());
    const m = await shippedMessage();
    const first = rx.batches.length;
    rx.behave((_b, n) => (n - first < 2 ? { status: 503, body: { error: 'maintenance' } } : { status: 200, body: { ok: true } }));
    const d = dispatcher();
    expect((await d.runOnce()).failed).toBe(1);
    let row = await message(Number(m.id));
    expect(row).toMatchObject({
      status: S('pending'),
      attempts: 1,
      last_result: RESULT.fail,
      last_http_status: 503,
      last_error: 'HTTP 503 Service Unavailable',
      last_mode: MODE.automatic,
    });
    expect(JSON.parse(String(row.last_answer))).toEqual({ error: 'maintenance' });
    // not due again before its backoff
    expect((await d.runOnce()).batches).toBe(0);
    expect(Date.parse(String(row.next_attempt_at))).toBeGreaterThan(Date.now() + offset);
    offset += 2 * HOUR;
    expect((await d.runOnce()).failed).toBe(1);
    offset += 2 * HOUR;
    expect((await d.runOnce()).sent).toBe(1);
    row = await message(Number(m.id));
    expect(row).toMatchObject({
      status: S('sent'),
      attempts: 3,
      last_result: RESULT.success,
      last_http_status: 200,
      last_error: null,
      next_attempt_at: null,
      lease_owner: null,
    });
    expect(row.sent_at).toBeTruthy();

    const mine = rx.batches.slice(first);
    expect(mine).toHaveLength(3);
    // the same message, the same keys on every attempt
    for (const b of mine) expect(b.body.messages.map((x) => x.idempotencyKey)).toEqual([m.idempotency_key]);
    expect(new Set(mine.map((b) => b.headers['idempotency-key'])).size).toBe(1);
    expect(mine.map((b) => b.body.messages[0].attempt)).toEqual([1, 2, 3]);
    expect(rx.taken.get(String(m.idempotency_key))).toBe(1);

    const attempts = await attemptsOf(Number(m.id));
    expect(attempts.map((a) => [a.attempt_no, a.result, a.mode, a.http_status, a.batch_size, a.sender])).toEqual([
      [1, RESULT.fail, MODE.automatic, 503, 1, 'test-dispatcher'],
      [2, RESULT.fail, MODE.automatic, 503, 1, 'test-dispatcher'],
      [3, RESULT.success, MODE.automatic, 200, 1, 'test-dispatcher'],
    ]);
    // internal staff read the same through the API
    const api = await get(listUrl('interface-attempts', { filter: { messageId: Number(m.id) }, sort: ['attemptNo', 'ASC'] }), staff);
    expect(api.statusCode).toBe(200);
    expect((api.json() as Row[]).map((a) => [a.attemptNo, a.result, a.mode])).toEqual([
      [1, '0', '1'],
      [2, '0', '1'],
      [3, '1', '1'],
    ]);
  });

  it('the backoff doubles from delivery.backoffSeconds up to maxBackoffSeconds, with jitter', () => {
    const d = dispatcher({ random: () => 0 });
    const { backoffSeconds, maxBackoffSeconds } = outbox.delivery;
    expect([1, 2, 3].map((n) => d.backoffMs(n))).toEqual([1, 2, 4].map((k) => (backoffSeconds * 1000 * k) / 2));
    expect(d.backoffMs(30)).toBe((maxBackoffSeconds * 1000) / 2);
    expect(dispatcher({ random: () => 0.999999 }).backoffMs(1)).toBeLessThanOrEqual(backoffSeconds * 1000);
  });

  it('a hanging receiver costs one timeout, recorded as a failed attempt, and the message goes again', async () => {
    await drain(dispatcher());
    const m = await shippedMessage();
    const first = rx.batches.length;
    rx.behave((_b, n) => (n === first ? 'hang' : { status: 200, body: { ok: true } }));
    const d = dispatcher({ delivery: { timeoutSeconds: 1 } });
    expect((await d.runOnce()).failed).toBe(1);
    const [a1] = await attemptsOf(Number(m.id));
    expect(a1).toMatchObject({ result: RESULT.fail, http_status: null, error: 'timeout: no complete answer within 1 s' });
    expect((await message(Number(m.id))).status).toBe(S('pending'));
    offset += 2 * HOUR;
    expect((await d.runOnce()).sent).toBe(1);
    expect((await message(Number(m.id))).status).toBe(S('sent'));
    // delivered twice (the first call never got an answer), taken once
    expect(rx.batches.slice(first).map((b) => b.answered)).toEqual([null, 200]);
    expect(rx.taken.get(String(m.idempotency_key))).toBe(1);
  });

  it("a message leased by another process waits for the lease; a dead process's lease ends and the message goes with its key", async () => {
    await drain(dispatcher());
    const m = await shippedMessage();
    const id = Number(m.id);
    await t.app.db.run(`UPDATE interface_message SET lease_owner = ?, lease_until = ? WHERE id = ?`, [
      'other-host:999:abc',
      new Date(Date.now() + offset + 10 * 60_000).toISOString(),
      id,
    ]);
    const d = dispatcher();
    await d.runOnce();
    expect(await message(id)).toMatchObject({ status: S('pending'), attempts: 0, lease_owner: 'other-host:999:abc' });
    expect(rx.taken.has(String(m.idempotency_key))).toBe(false);
    // that process died: its lease runs out and this one sends the message
    offset += HOUR;
    await d.runOnce();
    expect(await message(id)).toMatchObject({ status: S('sent'), attempts: 1, lease_owner: null, lease_until: null });
    expect(rx.taken.get(String(m.idempotency_key))).toBe(1);
  });

  it('a receiver that refuses one message of a batch: that one retries, the other is sent', async () => {
    const [a, b] = [await shippedMessage(), await shippedMessage()];
    rx.behave((batch) => ({
      status: 200,
      body: {
        results: batch.body.messages.map((x) =>
          x.idempotencyKey === a.idempotency_key
            ? { idempotencyKey: x.idempotencyKey, ok: false, error: 'unknown part' }
            : { idempotencyKey: x.idempotencyKey, ok: true },
        ),
      },
    }));
    await dispatcher().runOnce();
    expect(await message(Number(a.id))).toMatchObject({
      status: S('pending'),
      last_result: RESULT.fail,
      last_http_status: 200,
      last_error: 'refused by the receiver: unknown part',
    });
    expect(await message(Number(b.id))).toMatchObject({ status: S('sent'), last_result: RESULT.success });
  });

  it('an unreachable receiver and a long answer: the error names the cause (no stack), the answer is cut', async () => {
    const m = await shippedMessage();
    const closed = await startReceiver();
    const url = closed.base;
    await closed.close();
    await dispatcher({ endpoints: { [ITF.shipments]: { url } } }).runOnce();
    const [a1] = await attemptsOf(Number(m.id));
    expect(a1.error).toBe('connection failed (ECONNREFUSED)');
    offset += 2 * HOUR;
    rx.behave(() => ({ status: 500, body: { trace: 'x'.repeat(10_000) } }));
    await dispatcher().runOnce();
    const a2 = (await attemptsOf(Number(m.id)))[1];
    expect(a2).toMatchObject({ http_status: 500, error: 'HTTP 500 Internal Server Error' });
    expect(String(a2.answer).length).toBe(outbox.delivery.answerExcerptChars);
  });
});

describe('no endpoint configured', () => {
  let dir = '';
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('messages wait, visibly, until an endpoint is configured (the endpoints file is read again when it changes)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'outbox-endpoints-'));
    const file = join(dir, 'interfaces.json');
    const m = await shippedMessage();
    const d = dispatcher({ endpoints: {}, interfacesFile: file });
    const r = await d.runOnce();
    expect(r.unconfigured).toBeGreaterThanOrEqual(1);
    const row = await message(Number(m.id));
    expect(row).toMatchObject({ status: S('unconfigured'), attempts: 0, last_error: null });
    expect(await attemptsOf(Number(m.id))).toEqual([]);
    // the interface log shows them
    const list = await get(listUrl('interface-messages', { filter: { status: S('unconfigured'), interfaceCode: ITF.shipments } }), staff);
    expect((list.json() as Row[]).map((x) => x.idempotencyKey)).toContain(m.idempotency_key);
    // a broken file configures nothing; a good one is picked up on the next pass
    writeFileSync(file, '{ not json');
    expect((await d.runOnce()).batches).toBe(0);
    writeFileSync(file, JSON.stringify({ [ITF.shipments]: { url: `${rx.base}/${ITF.shipments}` } }));
    await d.runOnce();
    expect(await message(Number(m.id))).toMatchObject({ status: S('sent'), attempts: 1, last_error: null });
  });

  it('reads PORTAL_INTERFACE_<CODE>_URL and _TOKEN from the environment', async () => {
    const m = await shippedMessage();
    const first = rx.batches.length;
    await dispatcher({
      endpoints: {},
      env: { [`PORTAL_INTERFACE_${ITF.shipments}_URL`]: `${rx.base}/env`, [`PORTAL_INTERFACE_${ITF.shipments}_TOKEN`]: 'secret-1' },
    }).runOnce();
    expect((await message(Number(m.id))).status).toBe(S('sent'));
    const b = rx.batches.slice(first).find((x) => x.body.messages.some((y) => y.idempotencyKey === m.idempotency_key))!;
    expect(b.path).toBe('/env');
    expect(b.headers.authorization).toBe('Bearer secret-1');
  });
});

describe('failed for good, and resent by hand', () => {
  it('after the last automatic attempt the message is failed; a manual resend sends it again in mode manual', async () => {
    const m = await shippedMessage();
    const id = Number(m.id);
    rx.behave(() => ({ status: 500 }));
    const d = dispatcher({ delivery: { maxAttempts: 2 } });
    await d.runOnce();
    offset += 2 * HOUR;
    await d.runOnce();
    expect(await message(id)).toMatchObject({ status: S('failed'), attempts: 2, next_attempt_at: null });
    offset += 2 * HOUR;
    expect((await d.runOnce()).batches).toBe(0);

    // suppliers and the supplier administrator cannot resend; internal staff can
    expect((await post(`/api/interface-messages/${id}/actions/resend`, sup)).statusCode).toBe(403);
    expect((await post(`/api/interface-messages/${id}/actions/resend`, admin)).statusCode).toBe(403);
    const r = await post(`/api/interface-messages/${id}/actions/resend`, staff);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: S('pending'), nextSendMode: MODE.manual });
    expect(r.json().leaseOwner).toBeUndefined();
    // still refused: one manual attempt, and the message is failed again
    await d.runOnce();
    expect(await message(id)).toMatchObject({ status: S('failed'), attempts: 3, last_mode: MODE.manual, next_send_mode: MODE.automatic });
    // the receiver is back: the next resend is delivered
    rx.behave(accept);
    expect((await post(`/api/interface-messages/${id}/actions/resend`, staff)).statusCode).toBe(200);
    await d.runOnce();
    expect(await message(id)).toMatchObject({ status: S('sent'), attempts: 4, last_mode: MODE.manual, last_result: RESULT.success });
    expect((await attemptsOf(id)).map((a) => [a.result, a.mode])).toEqual([
      [RESULT.fail, MODE.automatic],
      [RESULT.fail, MODE.automatic],
      [RESULT.fail, MODE.manual],
      [RESULT.success, MODE.manual],
    ]);
    // a sent message is not sent again
    const again = await post(`/api/interface-messages/${id}/actions/resend`, staff);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('error.illegalTransition');
    // the resends are in the audit trail
    const audit = await t.app.db.all<Row>(`SELECT user_id, operation FROM audit_entry WHERE resource = 'interface-messages' AND record_id = ?`, [id]);
    expect(audit).toEqual([
      { user_id: 'staff01', operation: 'action:resend' },
      { user_id: 'staff01', operation: 'action:resend' },
    ]);
  });

  it('bulk resend of the failed messages of one interface', async () => {
    const ms = [await shippedMessage(), await shippedMessage()];
    rx.behave(() => ({ status: 502 }));
    await dispatcher({ delivery: { maxAttempts: 1 } }).runOnce();
    for (const m of ms) expect((await message(Number(m.id))).status).toBe(S('failed'));
    const other = (await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM interface_message WHERE status = ? AND interface_code <> ?`, [
      S('failed'),
      ITF.shipments,
    ]))!.n;
    const failedHere = Number(
      (await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM interface_message WHERE status = ? AND interface_code = ?`, [S('failed'), ITF.shipments]))!
        .n,
    );
    expect((await post('/api/interface-messages/actions/resendFailed', sup, { interfaceCode: ITF.shipments })).statusCode).toBe(403);
    const r = await post('/api/interface-messages/actions/resendFailed', staff, { interfaceCode: ITF.shipments });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().result).toEqual({ resent: failedHere });
    for (const m of ms) expect(await message(Number(m.id))).toMatchObject({ status: S('pending'), next_send_mode: MODE.manual });
    // the other interfaces' failed messages stay as they are
    expect(
      (await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM interface_message WHERE status = ? AND interface_code <> ?`, [S('failed'), ITF.shipments]))!
        .n,
    ).toBe(other);
    rx.behave(accept);
    await drain(dispatcher());
    for (const m of ms) {
      expect((await message(Number(m.id))).status).toBe(S('sent'));
      expect((await attemptsOf(Number(m.id))).map((a) => a.mode)).toEqual([MODE.automatic, MODE.manual]);
    }
    const audit = await t.app.db.get<Row>(
      `SELECT user_id, changes FROM audit_entry WHERE resource = 'interface-messages' AND operation = 'action:resendFailed' ORDER BY id DESC LIMIT 1`,
    );
    expect(JSON.parse(String(audit!.changes))).toEqual({ interfaceCode: ITF.shipments, resent: failedHere });
  });
});

describe('access', () => {
  it("the interface log is internal staff's: suppliers and the supplier administrator get 403, private columns never leave", async () => {
    const m = await shippedMessage();
    for (const token of [sup, admin]) {
      expect((await get(listUrl('interface-messages'), token)).statusCode).toBe(403);
      expect((await get(`/api/interface-messages/${m.id}`, token)).statusCode).toBe(403);
      expect((await get(listUrl('interface-attempts'), token)).statusCode).toBe(403);
    }
    const one = await get(`/api/interface-messages/${m.id}`, staff);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ idempotencyKey: m.idempotency_key, reference: m.reference });
    expect(Object.keys(one.json())).not.toContain('leaseOwner');
    expect(Object.keys(one.json())).not.toContain('leaseUntil');
    // nobody writes the log through the API
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/interface-messages/${m.id}`, headers: bearer(staff), payload: { status: S('sent') } })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/interface-messages/${m.id}`, headers: bearer(staff) })).statusCode).toBe(403);
    expect((await post('/api/interface-messages', staff, { reference: 'x' })).statusCode).toBe(403);
  });
});
