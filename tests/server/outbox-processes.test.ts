/**
 * The outbox with TWO server processes (forked tests/support/serve-process.ts, each running its
 * dispatcher loop) over ONE database (SQLite file or PostgreSQL): no message is sent twice. The
 * messages are written first (the engine's own ship action; the demo data's waiting ones are
 * never sent), then both processes start and race for them. The receiver holds the first call it gets until a
 * second one is in flight: since a dispatcher sends one batch at a time, the second call can only
 * come from the other process, so the test knows both claimed at the same moment, and that the
 * leases (SQLite: the IMMEDIATE claim; PostgreSQL: FOR UPDATE SKIP LOCKED) kept them apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import type { Db } from '../../server/db/types.ts';
import { Engine, type HandlerTable } from '../../server/engine/engine.ts';
import type { HookTable } from '../../server/engine/hooks.ts';
import { hooks } from '../../server/hooks/index.ts';
import { metadata, schemas } from '../../server/generated/index.ts';
import { handlers } from '../../server/handlers/index.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { SEED_SENDER } from '../../server/seed/interfaces.ts';
import { TEST_PARAMS } from '../../server/engine/passwords.ts';
import { principalOf } from '../bench/list-cases.ts';
import { startServeProcess, type ServeProcess } from '../support/serve-process.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { BACKEND, TEST_SECRET, preparedDatabase, cleanUp } from './helpers.ts';
import { confirmedOrderLine } from './rows.ts';

type Row = Record<string, unknown>;
let dir = '';
let drop: () => Promise<void> = async () => undefined;
let db: Db | undefined;
let rx: Receiver | undefined;
const procs: ServeProcess[] = [];
/** a call was answered only once two were in flight at the same time */
let overlapped = false;
const SHIPPED = 90;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  const database = await preparedDatabase('portal-outbox-procs-');
  ({ dir, db, drop } = database);
  // 90 shipped lines: the engine's ship action writes their messages, as a request would
  const ids = await RowWriter.write(db, metadata, (w) =>
    Array.from({ length: SHIPPED }, (_, i) => w.insert('order', confirmedOrderLine(`OP${String(i).padStart(6, '0')}`))),
  );
  const engine = new Engine(db, metadata, schemas, handlers as unknown as HandlerTable, hooks as unknown as HookTable);
  await engine.action(principalOf('supplier', { supplierCode: 'S001' }), metadata.entities.order, 'ship', null, { ids, shipQty: 1 });

  let inFlight = 0;
  const waiting: (() => void)[] = [];
  rx = await startReceiver(async () => {
    inFlight++;
    if (inFlight >= 2 && !overlapped) {
      overlapped = true;
      for (const w of waiting.splice(0)) w();
    }
    // the first call waits for a second one (a bound keeps a broken dispatcher from hanging the test)
    if (!overlapped) await Promise.race([new Promise<void>((r) => waiting.push(r)), sleep(20_000)]);
    inFlight--;
    return { status: 200, body: { ok: true } };
  });
  const endpoints = Object.fromEntries(Object.keys(metadata.outbox!.interfaces).map((c) => [c, { url: `${rx!.base}/${c}` }]));
  const options = {
    ...database.options,
    jwtSecret: TEST_SECRET,
    hashParams: TEST_PARAMS,
    migrate: false,
    outbox: { enabled: true, intervalMs: 20, endpoints, env: {} },
  };
  const started = await Promise.allSettled([startServeProcess(options), startServeProcess(options)]);
  for (const s of started) if (s.status === 'fulfilled') procs.push(s.value);
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
});

afterAll(async () => {
  await cleanUp([
    () => Promise.all(procs.map((p) => p.stop())),
    async () => rx?.close(),
    async () => db?.close(),
    () => drop(),
    async () => dir && rmSync(dir, { recursive: true, force: true }),
  ]);
});

describe(`the outbox with two server processes over one ${BACKEND} database`, () => {
  it('sends every message exactly once, each in one attempt, by both processes at the same time', async () => {
    const status = (key: string) => metadata.codeTables.interfaceMessageStatus.values.find((v) => v.key === key)!.code;
    const waitingCount = async () =>
      Number(
        (await db!.get<{ n: number }>(
          `SELECT COUNT(*) AS n FROM interface_message WHERE status IN (?, ?) AND next_attempt_at <= ? AND demo = ${db!.dialect.boolLiteral(false)}`,
          [status('pending'), status('unconfigured'), new Date().toISOString()],
        ))!.n,
      );
    // until the processes are done (bounded, so a broken dispatcher fails here rather than hang)
    for (let i = 0; i < 600 && (await waitingCount()) > 0; i++) await sleep(100);
    expect(await waitingCount()).toBe(0);

    const sent = await db!.all<Row>(`SELECT id, idempotency_key, attempts, interface_code FROM interface_message WHERE status = ?`, [status('sent')]);
    const shipped = sent.filter((m) => m.interface_code === 'INTF0001');
    expect(shipped.length).toBeGreaterThanOrEqual(SHIPPED);
    expect(overlapped, 'both processes had a call in flight at the same time').toBe(true);
    // exactly once: one attempt per message, each key taken once, no duplicate delivery at all
    const twice = await db!.all<Row>(`SELECT message_id, COUNT(*) AS n FROM interface_attempt WHERE sender <> ? GROUP BY message_id HAVING COUNT(*) <> 1`, [
      SEED_SENDER,
    ]);
    expect(twice).toEqual([]);
    const attemptedNow = Number(
      (await db!.get<{ n: number }>(`SELECT COUNT(DISTINCT message_id) AS n FROM interface_attempt WHERE sender <> ?`, [SEED_SENDER]))!.n,
    );
    expect(attemptedNow).toBe(rx!.taken.size);
    const newlySent = sent.filter((m) => rx!.taken.has(String(m.idempotency_key)));
    for (const m of newlySent) expect(rx!.taken.get(String(m.idempotency_key)), String(m.idempotency_key)).toBe(1);
    expect(rx!.duplicates).toEqual([]);
    const delivered = rx!.batches.flatMap((b) => b.body.messages.map((x) => x.idempotencyKey));
    expect(new Set(delivered).size).toBe(delivered.length);
    // both processes sent, and no batch was larger than its interface allows
    const senders = await db!.all<Row>(`SELECT DISTINCT sender FROM interface_attempt WHERE sender <> ?`, [SEED_SENDER]);
    expect(senders).toHaveLength(2);
    // the demo seed's messages stayed home (issue 25 point 4)
    const demoTried = await db!.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM interface_attempt a JOIN interface_message m ON m.id = a.message_id WHERE a.sender <> ? AND m.demo = ${db!.dialect.boolLiteral(true)}`,
      [SEED_SENDER],
    );
    expect(Number(demoTried!.n)).toBe(0);
    for (const b of rx!.batches) expect(b.body.messages.length).toBeLessThanOrEqual(metadata.outbox!.interfaces[b.body.interface].batchLimit);
  });
});
