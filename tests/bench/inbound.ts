/**
 * Bench step "inbound": batches of purchase-order lines posted to inbound interface INTF0002 by a
 * machine client (server/inbound/), on the demo data at scale (1,000,200 lines at the default
 * scale), on every setup side by side (SQLite and PostgreSQL, 1 and 2 server processes). Each batch
 * holds the interface's batch limit of new lines (150), each line applied whole or refused with its
 * idempotency key, reference checks and log row (one transaction a batch). Measured: one sender posting batch after batch,
 * and four senders in parallel (several connections); batches/s, lines/s, batch latency p50/p95.
 * Checked afterwards: every accepted line is in the database once. No timing is asserted.
 */
import { percentile, round } from './lib.ts';
import { withSetups, type Ctx } from './steps.ts';
import type { StepResult } from './report.ts';
import type { Running } from './setups.ts';
import { openDb } from '../../server/db/open.ts';
import { metadata } from '../../server/generated/index.ts';
import { hashClientSecret } from '../../server/inbound/secrets.ts';

const CODE = 'INTF0002';
const CLIENT = { id: 'bench-srm', secret: 'mcs_bench-srm-secret' };

interface Loop {
  batches: number;
  lines: number;
  refused: number;
  seconds: number;
  batchesPerSec: number;
  linesPerSec: number;
  p50: number;
  p95: number;
}

export async function inboundStep(ctx: Ctx): Promise<StepResult> {
  // a smoke run (npm test) checks the shape with small batches; a real run posts full ones
  const batchSize = ctx.smoke ? 10 : metadata.outbox!.inbound[CODE].batchLimit;
  return withSetups(ctx, async (running) => {
    const setups: Record<string, Record<string, unknown>> = {};
    for (const r of running) {
      setups[r.setup.id] = { label: r.setup.label, placement: r.place.note, ...(await inboundOn(ctx, r, batchSize)) };
      const x = setups[r.setup.id] as { oneSender: Loop; fourSenders: Loop };
      ctx.log(
        `  inbound ${r.setup.id}: 1 sender ${x.oneSender.batchesPerSec} batches/s (p95 ${x.oneSender.p95} ms); 4 senders ${x.fourSenders.batchesPerSec} batches/s (p95 ${x.fourSenders.p95} ms)`,
      );
    }
    const ratio = (a: string, b: string, k: 'oneSender' | 'fourSenders') => {
      const x = setups[a]?.[k] as Loop | undefined;
      const y = setups[b]?.[k] as Loop | undefined;
      return x && y ? round(x.batchesPerSec / y.batchesPerSec, 3) : null;
    };
    const problems = Object.entries(setups).flatMap(([id, x]) => (x.invariantProblems as string[]).map((p) => `${id}: ${p}`));
    return {
      status: 'ok',
      batchSize,
      setups,
      invariantProblems: problems,
      comparison: {
        postgresToSqlite: { oneSender: ratio('postgres-1', 'sqlite-1', 'oneSender'), fourSenders: ratio('postgres-1', 'sqlite-1', 'fourSenders') },
        twoToOneFourSenders: { sqlite: ratio('sqlite-2', 'sqlite-1', 'fourSenders'), postgres: ratio('postgres-2', 'postgres-1', 'fourSenders') },
      },
    };
  });
}

async function inboundOn(ctx: Ctx, r: Running, batchSize: number): Promise<Record<string, unknown>> {
  const base = r.server.base;
  r.enter();
  const db = await openDb(r.setup.backend === 'postgres' ? { url: ctx.pg!.url } : { file: ctx.db });
  // the bench's own client (a reused database may predate the demo clients)
  await db.run(
    `INSERT INTO machine_client (client_id, name, interfaces, status, secret_hash, previous_secret_valid, version, created_at, updated_at)
     VALUES (?, 'Bench sender', ?, '1', ?, ?, 1, ?, ?) ON CONFLICT (client_id) DO NOTHING`,
    [CLIENT.id, CODE, hashClientSecret(CLIENT.secret), db.dialect.name === 'postgres' ? false : 0, new Date().toISOString(), new Date().toISOString()],
  );
  const t = await fetch(`${base}/connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CLIENT.id, client_secret: CLIENT.secret }).toString(),
  });
  if (t.status !== 200) throw new Error(`client token: ${t.status} ${await t.text()}`);
  const token = ((await t.json()) as { access_token: string }).access_token;
  // order numbers of this run and setup: never in the demo data, never twice
  const prefix = `PB${r.setup.id
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 6)
    .toUpperCase()}${Date.now().toString(36).toUpperCase()}`;
  let next = 0;
  const batch = () => ({
    messages: Array.from({ length: batchSize }, () => {
      const n = next++;
      return {
        idempotencyKey: `${prefix}-${n}`,
        payload: {
          orderNo: `${prefix}${Math.floor(n / 10)}`.slice(0, 20),
          itemNo: (n % 10) + 1,
          partsCode: `BP-${n % 997}`,
          orderQty: 10 + (n % 90),
          warehouseCode: 'PDC01',
          directSupplierCode: 'S001',
        },
      };
    }),
  });
  const post = async (): Promise<{ ms: number; accepted: number; refused: number }> => {
    const body = JSON.stringify(batch());
    const t0 = performance.now();
    const res = await fetch(`${base}/api/interfaces/${CODE}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    const json = (await res.json()) as { accepted?: number; refused?: number };
    if (res.status !== 200) throw new Error(`inbound batch: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return { ms: performance.now() - t0, accepted: json.accepted ?? 0, refused: json.refused ?? 0 };
  };
  const loop = async (senders: number): Promise<Loop> => {
    const times: number[] = [];
    let lines = 0;
    let refused = 0;
    const end = performance.now() + ctx.duration * 1000;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: senders }, async () => {
        // at least one batch each, also in a smoke run
        do {
          const x = await post();
          times.push(x.ms);
          lines += x.accepted;
          refused += x.refused;
        } while (performance.now() < end);
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    return {
      batches: times.length,
      lines,
      refused,
      seconds: round(seconds),
      batchesPerSec: round(times.length / seconds),
      linesPerSec: round(lines / seconds),
      p50: round(percentile(times, 50)),
      p95: round(percentile(times, 95)),
    };
  };
  try {
    const oneSender = await loop(1);
    const fourSenders = await loop(4);
    const stored = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM "order" WHERE order_no LIKE ?`, [`${prefix}%`]);
    const problems: string[] = [];
    const accepted = oneSender.lines + fourSenders.lines;
    if (Number(stored?.n) !== accepted) problems.push(`${accepted} lines accepted, ${String(stored?.n)} stored`);
    if (oneSender.refused + fourSenders.refused) problems.push(`${oneSender.refused + fourSenders.refused} lines refused`);
    return { oneSender, fourSenders, invariantProblems: problems };
  } finally {
    await db.close();
  }
}
