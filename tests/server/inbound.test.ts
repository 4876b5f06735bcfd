/**
 * Inbound interfaces (metadata/interfaces.json "inbound", server/inbound/) through a real HTTP
 * client (fetch against the app listening on 127.0.0.1) posting batches as a machine client: the
 * client-credentials grant on /connect/token (rotation with two valid secrets, disable), orders at
 * the batch limit and one over (413 naming the limit), a batch with bad messages (the good ones
 * accepted, the bad ones refused with field errors), the same batch twice (nothing changes, the
 * same answers), two parallel batches with one business key (one record), updates only of declared
 * fields in declared states, the cancel action, child rows, the interface log, a person's token
 * refused, a client refused an interface it is not granted and refused the screens' API; a clean
 * batch written in bulk (a handful of statements, each record with its own answer, audit row and
 * notification).
 * Runs on SQLite (project node) and PostgreSQL (project server-pg).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadata } from '../../server/generated/index.ts';
import { DEMO_CLIENTS } from '../../server/seed/machine-clients.ts';
import type { Queryable } from '../../server/db/types.ts';
import { MAX_JSON_DEPTH, jsonDeeperThan } from '../../server/plugins/json-depth.ts';
import { bearer, build, code, listUrl, login, type TestApp } from './helpers.ts';

type Json = Record<string, unknown>;
type Result = Json & { result: string; idempotencyKey: string };

let t: TestApp;
let base: string;
let staff: string;
const inbound = metadata.outbox!.inbound;
const ORDERS = 'INTF0002';
const CLAIMS = 'INTF0011';
const LIMIT = inbound[ORDERS].batchLimit;

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Json };
}
async function form(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, body: (await res.json()) as Json };
}
/** registers a client as internal staff does; answers its secret */
async function registerClient(clientId: string, interfaces: string): Promise<string> {
  const r = await post('/api/machine-clients/actions/register', { clientId, name: `System ${clientId}`, interfaces }, bearer(staff));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const result = r.body.result as Json;
  expect(String(result.secret)).toMatch(/^mcs_[A-Za-z0-9_-]{43}$/);
  expect(result).not.toHaveProperty('secretHash');
  return String(result.secret);
}
async function clientToken(clientId: string, secret: string): Promise<string> {
  const r = await form('/connect/token', { grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return String(r.body.access_token);
}

let seq = 0;
/** a purchase-order line of supplier S001 at PDC01 that the demo data does not have */
function orderLine(over: Json = {}): Json {
  seq++;
  return {
    orderNo: `PIN${String(seq).padStart(8, '0')}`,
    itemNo: 1,
    partsCode: `IN-${seq}`,
    orderQty: 40,
    warehouseCode: 'PDC01',
    directSupplierCode: 'S001',
    releaseDate: '2026-11-20',
    ...over,
  };
}
const batch = (payloads: Json[], prefix = `k${Date.now()}`) => ({ messages: payloads.map((payload, i) => ({ idempotencyKey: `${prefix}-${i}`, payload })) });

async function orderByKey(orderNo: string, itemNo = 1): Promise<Json[]> {
  const r = await t.app.inject({ method: 'GET', url: listUrl('orders', { filter: { orderNo } }), headers: bearer(staff) });
  return (r.json() as Json[]).filter((o) => o.itemNo === itemNo);
}

let ordersSecret: string;
let ordersToken: string;

beforeAll(async () => {
  t = await build();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
  staff = await login(t.app, 'staff01');
  ordersSecret = await registerClient('srm', `${ORDERS},INTF0003`);
  ordersToken = await clientToken('srm', ordersSecret);
}, 60_000);
afterAll(async () => t?.close());

describe('machine clients', () => {
  it('get a short-lived token carrying only their granted inbound interfaces; a wrong secret or unknown client is 401 invalid_client', async () => {
    const r = await form('/connect/token', { grant_type: 'client_credentials', client_id: 'srm', client_secret: ordersSecret });
    expect(r.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: `${ORDERS} INTF0003` });
    const wrong = await form('/connect/token', { grant_type: 'client_credentials', client_id: 'srm', client_secret: `${ordersSecret}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'invalid_client', code: 'error.invalidClient' });
    const unknown = await form('/connect/token', { grant_type: 'client_credentials', client_id: 'nobody', client_secret: ordersSecret });
    expect(unknown.status).toBe(401);
    // HTTP Basic works as well (RFC 6749 2.3.1)
    const basic = await form(
      '/connect/token',
      { grant_type: 'client_credentials' },
      { authorization: `Basic ${Buffer.from(`srm:${ordersSecret}`).toString('base64')}` },
    );
    expect(basic.status).toBe(200);
  });

  it("a Basic header that is not valid %-encoding is a 400 invalid_request in the sender's language, not a 500 (issue 35 point 4)", async () => {
    const texts = new Set<string>();
    for (const [lang, pair] of [
      ['en-US', 'a%:b'],
      ['zh-CN', `srm:${ordersSecret}%zz`],
    ]) {
      const r = await form(
        '/connect/token',
        { grant_type: 'client_credentials' },
        { authorization: `Basic ${Buffer.from(pair).toString('base64')}`, 'accept-language': lang },
      );
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toMatchObject({ error: 'invalid_request', code: 'error.badRequest' });
      expect(String(r.body.message)).not.toMatch(/^error\.|URI|decode/);
      texts.add(String(r.body.message));
    }
    expect(texts.size).toBe(2);
  });

  it('a JSON body nested deeper than any the portal takes is a 400 before anything walks it; one within the limit is judged as usual (issue 35 point 4)', async () => {
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDeeperThan(`{"a":${nested(MAX_JSON_DEPTH)}}`, MAX_JSON_DEPTH)).toBe(true);
    // a string ending in a backslash, and one with an escaped quote and brackets, do not change the count
    const inArray = (text: string, depth: number) => `[${JSON.stringify(text)}, ${nested(depth)}]`;
    expect(jsonDeeperThan(inArray('\\', MAX_JSON_DEPTH - 1), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDeeperThan(inArray('"[[[{{', MAX_JSON_DEPTH - 1), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDeeperThan(inArray('\\', MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(true);
    const texts = new Set<string>();
    // 5,000 levels of arrays, then of objects
    const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    for (const [lang, payload] of [
      ['en-US', nested(5000)],
      ['zh-CN', deepObject],
    ]) {
      const res = await fetch(`${base}/api/interfaces/${ORDERS}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-language': lang, ...bearer(ordersToken) },
        body: `{"messages":[{"idempotencyKey":"deep-${lang}","payload":${payload}}]}`,
      });
      const body = (await res.json()) as Json;
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(body).toMatchObject({ code: 'error.badRequest' });
      texts.add(String(body.message));
    }
    expect(texts.size).toBe(2);
    // brackets inside strings (after an escaped quote too) do not count: the batch is answered per message
    const shallow = await post(`/api/interfaces/${ORDERS}`, batch([orderLine({ remarks: `a"{{{${'['.repeat(100)}` })], 'deep-in-string'), bearer(ordersToken));
    expect(shallow.status, JSON.stringify(shallow.body)).toBe(200);
    expect(shallow.body.results).toHaveLength(1);
  });

  it('the demo data has a client per feeding system with a published demo secret (docs/inbound-interfaces.md)', async () => {
    for (const c of DEMO_CLIENTS) {
      const r = await form('/connect/token', { grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.secret });
      expect(r.body.scope).toBe(c.interfaces.replace(/,/g, ' '));
    }
    // and a disabled one, which gets no token
    const legacy = await form('/connect/token', { grant_type: 'client_credentials', client_id: 'legacy-demo', client_secret: 'mcs_demo-legacy-2026' });
    expect(legacy.status).toBe(401);
  });

  it('are granted only declared inbound interfaces (field error otherwise), and only by internal staff', async () => {
    const r = await post('/api/machine-clients/actions/register', { clientId: 'bad', name: 'Bad', interfaces: 'INTF0001' }, bearer(staff));
    expect(r.status).toBe(400);
    expect((r.body.errors as Json).interfaces).toBe('validation.unknownInterface');
    const sup = await login(t.app, 'sup01');
    const denied = await post('/api/machine-clients/actions/register', { clientId: 'sneaky', name: 'X', interfaces: ORDERS }, bearer(sup));
    expect(denied.status).toBe(403);
  });

  it('rotate without downtime: both secrets work until the previous one is retired; disabling stops tokens at once; every change is audited', async () => {
    const first = await registerClient('rot', ORDERS);
    const rotated = await post('/api/machine-clients/actions/rotateSecret', { clientId: 'rot' }, bearer(staff));
    expect(rotated.status).toBe(200);
    const second = String((rotated.body.result as Json).secret);
    expect(second).not.toBe(first);
    const held = await clientToken('rot', first);
    await clientToken('rot', second);
    const row = (await t.app.inject({ method: 'GET', url: listUrl('machine-clients', { filter: { clientId: 'rot' } }), headers: bearer(staff) })).json()[0];
    expect(row).toMatchObject({ previousSecretValid: true });
    expect(row.lastUsedAt).toBeTruthy();
    expect(row).not.toHaveProperty('secretHash');
    const retire = await t.app.inject({ method: 'POST', url: `/api/machine-clients/${row.id}/actions/retireSecret`, headers: bearer(staff), payload: {} });
    expect(retire.statusCode).toBe(200);
    expect((await form('/connect/token', { grant_type: 'client_credentials', client_id: 'rot', client_secret: first })).status).toBe(401);
    await clientToken('rot', second);
    const disable = await t.app.inject({ method: 'POST', url: `/api/machine-clients/${row.id}/actions/disable`, headers: bearer(staff), payload: {} });
    expect(disable.statusCode).toBe(200);
    expect((await post(`/api/interfaces/${ORDERS}`, batch([orderLine()]), bearer(held))).status).toBe(401);
    expect((await form('/connect/token', { grant_type: 'client_credentials', client_id: 'rot', client_secret: second })).status).toBe(401);
    const audit = await t.app.inject({
      method: 'GET',
      url: listUrl('audit-entries', { filter: { resource: 'machine-clients', recordId: row.id } }),
      headers: bearer(staff),
    });
    const ops = (audit.json() as Json[]).map((a) => a.operation).sort();
    expect(ops).toEqual(['action:disable', 'action:retireSecret', 'create', 'update'].sort());
    expect(JSON.stringify(audit.json())).not.toMatch(/sha256:/);
  });

  it("a person's token cannot call an inbound interface, and a client's token cannot call a screen's API", async () => {
    const person = await post(`/api/interfaces/${ORDERS}`, batch([orderLine()]), bearer(staff));
    expect(person.status).toBe(403);
    expect(person.body.code).toBe('error.clientOnly');
    expect((await post(`/api/interfaces/${ORDERS}`, batch([orderLine()]))).status).toBe(401);
    const screen = await fetch(`${base}${listUrl('orders')}`, { headers: bearer(ordersToken) });
    expect(screen.status).toBe(401);
    const info = await fetch(`${base}/supplierApi/accountInfo/info`, { method: 'POST', headers: bearer(ordersToken) });
    expect(info.status).toBe(401);
  });

  it('a client is refused an interface it is not granted (403) and an unknown one (404)', async () => {
    const r = await post(`/api/interfaces/${CLAIMS}`, batch([{ claimNo: 'CBX' }]), bearer(ordersToken));
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: 'error.interfaceNotGranted' });
    expect(String(r.body.message)).toContain(CLAIMS);
    expect((await post('/api/interfaces/INTF0001', batch([{}]), bearer(ordersToken))).status).toBe(404);
  });
});

describe('POST /api/interfaces/<code>', () => {
  it(`takes a batch at the limit (${LIMIT} lines) and refuses one over it whole: 413 naming the limit, nothing written`, async () => {
    const lines = Array.from({ length: LIMIT }, () => orderLine());
    const ok = await post(`/api/interfaces/${ORDERS}`, batch(lines, 'limit'), bearer(ordersToken));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ interface: ORDERS, accepted: LIMIT, refused: 0, duplicate: 0 });
    expect((ok.body.results as Result[]).every((r) => r.result === 'accepted' && r.operation === 'created')).toBe(true);
    const over = Array.from({ length: LIMIT + 1 }, () => orderLine());
    const r = await post(`/api/interfaces/${ORDERS}`, batch(over, 'over'), bearer(ordersToken));
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('error.batchTooLarge');
    expect(String(r.body.message)).toContain(String(LIMIT));
    expect(await orderByKey(String(over[0].orderNo))).toHaveLength(0);
    const zh = await fetch(`${base}/api/interfaces/${ORDERS}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'zh-CN', ...bearer(ordersToken) },
      body: JSON.stringify(batch(over, 'over')),
    });
    expect(((await zh.json()) as Json).message).toBe(`每批最多 ${LIMIT} 条消息`);
  });

  it('accepts the good messages of a batch and refuses the bad ones with field errors; the new lines are in the supplier scope at once', async () => {
    const good1 = orderLine({
      childDemands: [{ parentPartsCode: 'P', childPartsCode: 'C1', purchaseOrderNo: 'X1', orderQty: 40, unitQty: 2, demandQty: 80, unreceivedQty: 80 }],
    });
    const good2 = orderLine({ directSupplierCode: 'S002' });
    const badQty = orderLine({ orderQty: 0 });
    const badCode = orderLine({ orderType: 'nonsense' });
    const unknownSupplier = orderLine({ directSupplierCode: 'S999' });
    const unknownWarehouse = orderLine({ warehouseCode: 'NOPE' });
    const missing = { orderNo: 'PMISSING', itemNo: 1, directSupplierCode: 'S001' };
    const unknownField = orderLine({ shippedQty: 3 });
    const r = await post(
      `/api/interfaces/${ORDERS}`,
      batch([good1, badQty, badCode, unknownSupplier, good2, unknownWarehouse, missing, unknownField], 'mixed'),
      bearer(ordersToken),
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ accepted: 2, refused: 6, duplicate: 0 });
    const res = r.body.results as Result[];
    expect(res.map((x) => x.result)).toEqual(['accepted', 'refused', 'refused', 'refused', 'accepted', 'refused', 'refused', 'refused']);
    expect(res[1]).toMatchObject({ code: 'error.validation', errors: { orderQty: 'validation.minimum' } });
    expect((res[2].errors as Json).orderType).toBeTruthy();
    expect(res[3]).toMatchObject({ errors: { directSupplierCode: 'validation.unknownSupplier' }, errorArgs: { directSupplierCode: { value: 'S999' } } });
    expect(res[5]).toMatchObject({ errors: { warehouseCode: 'validation.unknownWarehouse' } });
    expect(res[6]).toMatchObject({ errors: { partsCode: 'validation.required', orderQty: 'validation.required', warehouseCode: 'validation.required' } });
    expect(res[7]).toMatchObject({ errors: { shippedQty: 'validation.unknownField' } });
    // the supplier sees its new line at once, with its child-part demand; the other supplier does not
    const sup01 = await login(t.app, 'sup01');
    const sup02 = await login(t.app, 'sup02');
    const seen = (tok: string, orderNo: unknown) =>
      t.app.inject({ method: 'GET', url: listUrl('orders', { filter: { orderNo } }), headers: bearer(tok) }).then((x) => x.json() as Json[]);
    const line = (await seen(sup01, good1.orderNo))[0];
    expect(line).toMatchObject({ orderQty: 40, unsentQty: 40, status: code('purchaseOrderStatus', 'released'), createdBy: 'srm' });
    expect(await seen(sup02, good1.orderNo)).toHaveLength(0);
    expect(await seen(sup02, good2.orderNo)).toHaveLength(1);
    const demand = await t.app.inject({ method: 'GET', url: listUrl('order-child-demands', { filter: { orderId: line.id } }), headers: bearer(sup01) });
    expect(demand.json()).toMatchObject([{ childPartsCode: 'C1', demandQty: 80 }]);
    // the interface log shows both directions; inbound with sender, key, payload and the refusal's reasons
    const log = await t.app.inject({
      method: 'GET',
      url: listUrl('interface-messages', { filter: { direction: code('interfaceDirection', 'inbound'), sender: 'srm' }, range: [0, 499] }),
      headers: bearer(staff),
    });
    const rows = log.json() as Json[];
    const refused = rows.find((m) => m.senderKey === 'mixed-3')!;
    expect(refused).toMatchObject({ status: code('interfaceMessageStatus', 'refused'), interfaceCode: ORDERS, messageType: 'order.upsert' });
    expect(String(refused.lastError)).toContain('validation.unknownSupplier');
    expect(JSON.parse(String(refused.payload))).toMatchObject({ directSupplierCode: 'S999' });
    expect(rows.find((m) => m.senderKey === 'mixed-0')).toMatchObject({ status: code('interfaceMessageStatus', 'accepted'), reference: `${good1.orderNo}/1` });
    const supLog = await t.app.inject({ method: 'GET', url: listUrl('interface-messages'), headers: bearer(sup01) });
    expect(supLog.statusCode).toBe(403);
  });

  it('a message that fails its schema is refused with all its reasons at once: every field the schema refuses, unknown references and fields, missing required ones', async () => {
    const everything = orderLine({ orderQty: 0, orderType: 'nonsense', directSupplierCode: 'S999', warehouseCode: 'NOPE', shippedQty: 3 });
    const { partsCode: _, ...noPart } = orderLine({ orderQty: 'many', productionSupplierCode: 'S998' });
    const r = await post(`/api/interfaces/${ORDERS}`, batch([everything, noPart], 'all-errors'), bearer(ordersToken));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ accepted: 0, refused: 2 });
    const [a, b] = r.body.results as Result[];
    expect(a).toMatchObject({
      code: 'error.validation',
      errorArgs: { directSupplierCode: { value: 'S999' }, warehouseCode: { value: 'NOPE' }, orderQty: { min: 1 } },
    });
    expect(a.errors).toEqual({
      orderQty: 'validation.minimum',
      orderType: expect.stringMatching(/^validation\./),
      directSupplierCode: 'validation.unknownSupplier',
      warehouseCode: 'validation.unknownWarehouse',
      shippedQty: 'validation.unknownField',
    });
    expect(b.errors).toEqual({ orderQty: 'validation.integer', productionSupplierCode: 'validation.unknownSupplier', partsCode: 'validation.required' });
    // in the sender's language too
    const zh = await post(`/api/interfaces/${ORDERS}`, batch([everything], 'all-errors-zh'), { ...bearer(ordersToken), 'accept-language': 'zh-CN' });
    const en = await post(`/api/interfaces/${ORDERS}`, batch([everything], 'all-errors-en'), { ...bearer(ordersToken), 'accept-language': 'en-US' });
    const zhRes = (zh.body.results as Result[])[0];
    const enRes = (en.body.results as Result[])[0];
    expect(zhRes.message).not.toEqual(enRes.message);
    expect(Object.keys(zhRes.errors as Json).sort()).toEqual(Object.keys(a.errors as Json).sort());
    expect(await orderByKey(String(everything.orderNo))).toHaveLength(0);
  });

  it('the same batch twice changes nothing and gets the same answers (accepted ones as duplicates of their first answer)', async () => {
    const lines = [orderLine(), orderLine({ orderQty: -1 }), orderLine()];
    const body = batch(lines, 'twice');
    const first = await post(`/api/interfaces/${ORDERS}`, body, bearer(ordersToken));
    const countBefore = (await orderByKey(String(lines[0].orderNo))).length;
    const again = await post(`/api/interfaces/${ORDERS}`, body, bearer(ordersToken));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ accepted: 0, duplicate: 2, refused: 1 });
    const a = first.body.results as Result[];
    const b = again.body.results as Result[];
    expect(b[0]).toEqual({ idempotencyKey: 'twice-0', result: 'duplicate', first: a[0] });
    expect(b[1]).toEqual(a[1]);
    expect(b[2]).toEqual({ idempotencyKey: 'twice-2', result: 'duplicate', first: a[2] });
    const stored = await orderByKey(String(lines[0].orderNo));
    expect(stored).toHaveLength(countBefore);
    expect(stored[0].version).toBe(1);
    // a refused message may be fixed and sent again under its key
    const fixed = await post(
      `/api/interfaces/${ORDERS}`,
      { messages: [{ idempotencyKey: 'twice-1', payload: { ...lines[1], orderQty: 5 } }] },
      bearer(ordersToken),
    );
    expect((fixed.body.results as Result[])[0]).toMatchObject({ result: 'accepted', operation: 'created' });
  });

  it('two parallel batches with the same business keys create each record once', async () => {
    const lines = Array.from({ length: 20 }, () => orderLine());
    const [x, y] = await Promise.all([
      post(`/api/interfaces/${ORDERS}`, batch(lines, 'par-a'), bearer(ordersToken)),
      post(`/api/interfaces/${ORDERS}`, batch(lines, 'par-b'), bearer(ordersToken)),
    ]);
    expect(x.status).toBe(200);
    expect(y.status).toBe(200);
    const ops = [...(x.body.results as Result[]), ...(y.body.results as Result[])];
    expect(ops.filter((r) => r.result !== 'accepted')).toEqual([]);
    expect(ops.filter((r) => r.operation === 'created')).toHaveLength(20);
    for (const l of lines) expect(await orderByKey(String(l.orderNo))).toHaveLength(1);
  });

  it(`a clean batch of ${LIMIT} new lines is written in bulk: a handful of statements for the whole batch, each answer naming the record of its own key, with its own audit row and notification`, async () => {
    const lines = Array.from({ length: LIMIT }, () => orderLine());
    // every statement the batch's transaction runs (SQLite's multi-row loads run beside the handle: fewer still)
    const db = t.app.db;
    const original = db.transaction;
    let statements = 0;
    const counted = (q: Queryable): Queryable => ({
      dialect: q.dialect,
      all<T>(sql: string, params?: readonly unknown[]) {
        statements++;
        return q.all<T>(sql, params);
      },
      get<T>(sql: string, params?: readonly unknown[]) {
        statements++;
        return q.get<T>(sql, params);
      },
      rows(sql: string, params?: readonly unknown[]) {
        statements++;
        return q.rows(sql, params);
      },
      run(sql: string, params?: readonly unknown[]) {
        statements++;
        return q.run(sql, params);
      },
    });
    db.transaction = <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => original.call(db, (q: Queryable) => fn(counted(q))) as Promise<T>;
    let r: Awaited<ReturnType<typeof post>>;
    try {
      r = await post(`/api/interfaces/${ORDERS}`, batch(lines, 'bulk'), bearer(ordersToken));
    } finally {
      db.transaction = original;
    }
    expect(r.status).toBe(200);
    const results = r.body.results as (Result & { id: number })[];
    expect(results.filter((x) => x.result !== 'accepted' || x.operation !== 'created')).toEqual([]);
    // one at a time it took about 6 a line (insert, audit, notification, its scope read, NOTIFY, read back)
    expect(statements).toBeGreaterThan(0);
    expect(statements).toBeLessThanOrEqual(20);
    const ids = results.map((x) => x.id);
    const marks = ids.map(() => '?').join(', ');
    const stored = await db.all<{ id: number; order_no: string }>(`SELECT id, order_no FROM "order" WHERE id IN (${marks})`, ids);
    const orderNoOf = new Map(stored.map((o) => [Number(o.id), o.order_no]));
    expect(results.map((x) => orderNoOf.get(x.id))).toEqual(lines.map((l) => l.orderNo));
    expect(results.map((x) => x.reference)).toEqual(lines.map((l) => `${String(l.orderNo)}/1`));
    const audit = await db.all<{ record_id: number; operation: string; changes: string }>(
      `SELECT record_id, operation, changes FROM audit_entry WHERE resource = 'orders' AND record_id IN (${marks})`,
      ids,
    );
    expect(audit).toHaveLength(LIMIT);
    for (const a of audit) {
      expect(a.operation).toBe('create');
      expect((JSON.parse(a.changes) as { orderNo: unknown[] }).orderNo).toEqual([null, orderNoOf.get(Number(a.record_id))]);
    }
    const told = await db.all<{ record_id: number; supplier_code: string; title: string }>(
      `SELECT record_id, supplier_code, title FROM _notifications WHERE entity = 'order' AND record_id IN (${marks})`,
      ids,
    );
    expect(told.map((n) => Number(n.record_id)).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
    for (const n of told) expect(n).toMatchObject({ supplier_code: 'S001', title: orderNoOf.get(Number(n.record_id)) });
  });

  it('the same batch posted twice at once: each message accepted once, the other answer a duplicate of it; each record once', async () => {
    const lines = Array.from({ length: 20 }, () => orderLine());
    const body = batch(lines, 'same-twice');
    const [x, y] = await Promise.all([
      post(`/api/interfaces/${ORDERS}`, body, bearer(ordersToken)),
      post(`/api/interfaces/${ORDERS}`, body, bearer(ordersToken)),
    ]);
    expect(x.status).toBe(200);
    expect(y.status).toBe(200);
    const a = x.body.results as Result[];
    const b = y.body.results as Result[];
    for (const [i, r] of a.entries()) {
      const pair = [r, b[i]];
      const accepted = pair.find((p) => p.result === 'accepted');
      expect(accepted, JSON.stringify(pair)).toMatchObject({ operation: 'created' });
      expect(pair.find((p) => p !== accepted)).toEqual({ idempotencyKey: r.idempotencyKey, result: 'duplicate', first: accepted });
    }
    for (const l of lines) expect(await orderByKey(String(l.orderNo))).toHaveLength(1);
  });

  it('an update touches only declared fields in declared states: a confirmed or shipped line keeps its quantity; cancel is a declared action', async () => {
    const line = orderLine({ orderQty: 30 });
    await post(`/api/interfaces/${ORDERS}`, batch([line], 'upd0'), bearer(ordersToken));
    const up = await post(`/api/interfaces/${ORDERS}`, batch([{ ...line, orderQty: 35, deliveryPlace: 'Dock 4' }], 'upd1'), bearer(ordersToken));
    expect((up.body.results as Result[])[0]).toMatchObject({ result: 'accepted', operation: 'updated' });
    const [row] = await orderByKey(String(line.orderNo));
    expect(row).toMatchObject({ orderQty: 35, unsentQty: 35, deliveryPlace: 'Dock 4', version: 2 });
    // a field outside update.fields (the part) is refused on the field
    const part = await post(`/api/interfaces/${ORDERS}`, batch([{ ...line, partsCode: 'OTHER' }], 'upd2'), bearer(ordersToken));
    expect((part.body.results as Result[])[0]).toMatchObject({ result: 'refused', errors: { partsCode: 'validation.readOnly' } });
    // the supplier confirms: from then on the sender can no longer change the quantity
    const sup01 = await login(t.app, 'sup01');
    const confirm = await t.app.inject({
      method: 'POST',
      url: `/api/orders/${row.id}/actions/confirm`,
      headers: bearer(sup01),
      payload: { thisShipmentQty: 35 },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const smaller = await post(`/api/interfaces/${ORDERS}`, batch([{ ...line, orderQty: 10 }], 'upd3'), bearer(ordersToken));
    const refused = (smaller.body.results as Result[])[0];
    expect(refused).toMatchObject({ result: 'refused', status: 409, code: 'error.inboundStateLocked' });
    expect(String(refused.message)).toContain('orderQty');
    // the same values again are no change: accepted, unchanged
    const same = await post(`/api/interfaces/${ORDERS}`, batch([{ ...line, orderQty: 35, deliveryPlace: 'Dock 4' }], 'upd4'), bearer(ordersToken));
    expect((same.body.results as Result[])[0]).toMatchObject({ result: 'accepted', operation: 'unchanged' });
    // cancel by business key
    const cancel = await post(
      `/api/interfaces/${ORDERS}`,
      { messages: [{ idempotencyKey: 'upd5', action: 'cancel', payload: { orderNo: line.orderNo, itemNo: 1 } }] },
      bearer(ordersToken),
    );
    expect((cancel.body.results as Result[])[0]).toMatchObject({ result: 'accepted', operation: 'cancel' });
    expect((await orderByKey(String(line.orderNo)))[0].status).toBe(code('purchaseOrderStatus', 'cancelled'));
    const again = await post(
      `/api/interfaces/${ORDERS}`,
      { messages: [{ idempotencyKey: 'upd6', action: 'cancel', payload: { orderNo: line.orderNo, itemNo: 1 } }] },
      bearer(ordersToken),
    );
    expect((again.body.results as Result[])[0]).toMatchObject({ result: 'refused', status: 409, code: 'error.illegalTransition' });
    const noSuch = await post(
      `/api/interfaces/${ORDERS}`,
      { messages: [{ idempotencyKey: 'upd7', action: 'cancel', payload: { orderNo: 'PNONE', itemNo: 1 } }] },
      bearer(ordersToken),
    );
    expect((noSuch.body.results as Result[])[0]).toMatchObject({ result: 'refused', errors: { orderNo: 'validation.inboundNoRecord' } });
  });

  it('a malformed body is a 400 for the whole batch', async () => {
    expect((await post(`/api/interfaces/${ORDERS}`, { messages: [] }, bearer(ordersToken))).status).toBe(400);
    expect((await post(`/api/interfaces/${ORDERS}`, { messages: [{ payload: {} }] }, bearer(ordersToken))).status).toBe(400);
    expect((await post(`/api/interfaces/${ORDERS}`, { messages: [{ idempotencyKey: 'has space', payload: {} }] }, bearer(ordersToken))).status).toBe(400);
    expect((await post(`/api/interfaces/${ORDERS}`, { messages: [{ idempotencyKey: 'a', action: 'ship', payload: {} }] }, bearer(ordersToken))).status).toBe(
      400,
    );
  });

  it('claims, DFS lines, fee items and hazardous-chemicals receipts come in through their own interfaces', async () => {
    const all = await registerClient('dms', 'INTF0003,INTF0011,INTF0005,INTF0012,INTF0013');
    const tok = await clientToken('dms', all);
    const claim = await post(
      `/api/interfaces/${CLAIMS}`,
      batch(
        [
          {
            claimNo: 'CBIN0001',
            dealerCode: 'D001',
            partsCode: 'PX-1',
            claimQty: 2,
            reasonCode: code('claimReason', 'damaged'),
            warehouseCode: 'PDC01',
            claimWarehouse: 'PDC01',
            supplierCode: 'S001',
            attachments: [{ fileName: 'photo1.jpg', fileSize: 1200, mimeType: 'image/jpeg' }],
          },
        ],
        'cl',
      ),
      bearer(tok),
    );
    expect((claim.body.results as Result[])[0], JSON.stringify(claim.body)).toMatchObject({ result: 'accepted', operation: 'created' });
    const sup01 = await login(t.app, 'sup01');
    const claims = await t.app.inject({ method: 'GET', url: listUrl('claims', { filter: { claimNo: 'CBIN0001' } }), headers: bearer(sup01) });
    expect(claims.json()).toMatchObject([{ status: code('claimStatus', 'unaudited') }]);
    const dfs = await post(
      `/api/interfaces/INTF0003`,
      batch(
        [
          {
            dealerCode: 'D001',
            dealerOrderNo: 'SAIN0001',
            purchaseOrderNo: 'PIN0001',
            partsCode: 'PX-2',
            orderQty: 6,
            warehouseCode: 'PDC01',
            originalSupplierCode: 'S001',
          },
        ],
        'dfs',
      ),
      bearer(tok),
    );
    expect((dfs.body.results as Result[])[0], JSON.stringify(dfs.body)).toMatchObject({ result: 'accepted' });
    const fee = await post(
      `/api/interfaces/INTF0005`,
      batch(
        [
          {
            supplierCode: 'S001',
            originalPartsCode: 'OP1',
            feePartsCode: 'FP1',
            consultingFee: 12.5,
            managementRate: 0.1,
            effectiveDate: '2026-12-01',
            ordinarySalesPrice: 10,
            urgentOrderPrice: 5,
          },
          { supplierCode: 'S001', originalPartsCode: 'OP2', feePartsCode: 'FP2', consultingFee: 12.5, managementRate: 0.1, effectiveDate: '2026-12-01' },
        ],
        'fee',
      ),
      bearer(tok),
    );
    // the entity's own hook refuses an urgent price below the ordinary one, as on the screen
    expect((fee.body.results as Result[]).map((r) => r.result)).toEqual(['refused', 'accepted']);
    expect((fee.body.results as Result[])[0]).toMatchObject({ errors: { urgentOrderPrice: 'validation.urgentPriceBelowOrdinary' } });
    const hz = await post(`/api/interfaces/INTF0013`, batch([{ receiptNo: 'HZIN0001', supplierCode: 'S002', partsCode: 'HZ-1', qty: 3 }], 'hz'), bearer(tok));
    expect((hz.body.results as Result[])[0]).toMatchObject({ result: 'accepted' });
  });

  it('child-part stock movements move the stock: a receipt adds, an issue takes away, never below zero; a movement is recorded once', async () => {
    const secret = await registerClient('wms', 'INTF0012');
    const tok = await clientToken('wms', secret);
    const RECEIVE = code('movementCategory', 'receive');
    const SEND = code('movementCategory', 'send');
    const move = (movementNo: string, category: string, qty: number) => ({
      movementNo,
      category,
      movementDate: '2026-11-25',
      partsCode: 'CH-IN-1',
      qty,
      supplierCode: 'S001',
      warehouseCode: 'PDC01',
    });
    const stockOf = async () =>
      (await t.app.inject({ method: 'GET', url: listUrl('child-part-stocks', { filter: { partsCode: 'CH-IN-1' } }), headers: bearer(staff) })).json() as Json[];
    expect(await stockOf()).toEqual([]);
    const r = await post(`/api/interfaces/INTF0012`, batch([move('M1', RECEIVE, 10), move('M2', SEND, 4), move('M3', SEND, 7)], 'mv'), bearer(tok));
    expect((r.body.results as Result[]).map((x) => x.result)).toEqual(['accepted', 'accepted', 'refused']);
    expect((r.body.results as Result[])[2]).toMatchObject({ status: 409, code: 'error.insufficientStock' });
    expect(await stockOf()).toMatchObject([{ stockQty: 6, availableQty: 6, supplierCode: 'S001', warehouseCode: 'PDC01' }]);
    // the same movement under a new key changes nothing; a different quantity for a recorded one is refused
    const again = await post(`/api/interfaces/INTF0012`, batch([move('M1', RECEIVE, 10), move('M2', SEND, 5)], 'mv2'), bearer(tok));
    expect((again.body.results as Result[])[0]).toMatchObject({ result: 'accepted', operation: 'unchanged' });
    expect((again.body.results as Result[])[1]).toMatchObject({ result: 'refused', errors: { qty: 'validation.readOnly' } });
    expect((await stockOf())[0].stockQty).toBe(6);

    // issue 35 point 1: a movement without its number is refused, never "accepted, unchanged" as if it were
    // another one: before, the second of two in a batch was acknowledged and lost, and each batch's first made a record
    const { movementNo: _n, ...noNumber } = move('x', RECEIVE, 1);
    const keyless = await post(
      `/api/interfaces/INTF0012`,
      batch([move(null as unknown as string, RECEIVE, 1), move('', RECEIVE, 1), move('   ', RECEIVE, 1), noNumber], 'keyless'),
      { ...bearer(tok), 'accept-language': 'zh-CN' },
    );
    expect(keyless.status).toBe(200);
    expect(keyless.body).toMatchObject({ accepted: 0, refused: 4 });
    for (const res of keyless.body.results as Result[]) {
      expect(res).toMatchObject({ result: 'refused', code: 'error.validation', errors: { movementNo: expect.stringMatching(/^validation\./) } });
      expect(String(res.message)).toMatch(/[\u4e00-\u9fff]/);
    }
    expect((await stockOf())[0].stockQty).toBe(6);
    const recorded = await t.app.inject({ method: 'GET', url: listUrl('child-part-movements', { filter: { partsCode: 'CH-IN-1' } }), headers: bearer(staff) });
    expect((recorded.json() as Json[]).map((m) => m.movementNo).sort()).toEqual(['M1', 'M2']);
  });
});
