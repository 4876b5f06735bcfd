/**
 * The outbox dispatcher: every server process runs one (off in tests unless asked for), and any
 * number of them may work on one database at once.
 *
 * Why not a job-queue library (pg-boss, graphile-worker): they run on PostgreSQL only, and SQLite is
 * the embedded default; the messages are rows of an ordinary entity (the interface log, its screen
 * and access rules are metadata), written in the action's own transaction.
 *
 * One pass, per declared interface:
 *  1. no endpoint configured here: its waiting messages are marked "no endpoint configured"
 *     (status unconfigured) and stay in the queue, and the process log names the variables to set;
 *     with an endpoint again they wait as pending;
 *  2. claim: at most the interface's batch limit of due messages, oldest due first, leased to this
 *     process (lease owner + lease end) in one short transaction. PostgreSQL reads them
 *     `FOR UPDATE SKIP LOCKED`, so two dispatchers never take the same message; SQLite claims in
 *     an IMMEDIATE transaction, which only one process at a time can hold. A leased message is
 *     taken by nobody else until the lease ends (longer than any call may take), so each message
 *     is sent by exactly one process at a time;
 *  3. send: one HTTP POST of the batch as JSON, outside any transaction, with a timeout (a hanging
 *     receiver costs one timeout, never the loop), an Idempotency-Key header per batch and one
 *     idempotency key per message (the receiver takes a message once however often it arrives);
 *  4. record, in one transaction: an attempt row per message (time, mode, result code of the spec,
 *     HTTP status or error, the start of the answer, duration), and the message's new state: sent;
 *     or waiting again after an exponential backoff with jitter; or failed after the last
 *     automatic attempt. The lease is released.
 * A process that dies mid-call leaves its lease to expire; the message is then sent again with
 * the same idempotency key (at-least-once delivery, exactly-once taking at the receiver).
 */
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { CompiledInterface, CompiledMetadata, OutboxDelivery } from '../../codegen/runtime/model.ts';
import type { Db } from '../db/types.ts';
import { outboxStore } from './emit.ts';
import type { OutboxStore } from './store.ts';
import { EndpointsFile, endpointProblem, endpointsFromEnv, type EndpointConfig, type Endpoints } from './endpoints.ts';

type Rec = Record<string, unknown>;

export interface DispatcherOptions {
  /** endpoints by interface code; win over the environment's and the file's */
  endpoints?: Endpoints;
  /** PORTAL_INTERFACE_<CODE>_URL / _TOKEN and PORTAL_INTERFACES_FILE are read here (default: process.env) */
  env?: Record<string, string | undefined>;
  /** the endpoints file (default: env.PORTAL_INTERFACES_FILE) */
  interfacesFile?: string;
  /** overrides of the delivery policy of metadata/interfaces.json */
  delivery?: Partial<OutboxDelivery>;
  /** the name of this process in leases and attempts (default host:pid:random) */
  sender?: string;
  /** the time (tests move it forward instead of waiting for a backoff) */
  clock?: () => Date;
  /** a number in [0, 1) for the jitter */
  random?: () => number;
  /** batches per interface in one pass, so one busy interface cannot starve the others (default 20) */
  maxBatchesPerPass?: number;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export interface PassReport {
  /** calls made */
  batches: number;
  /** messages delivered */
  sent: number;
  /** messages whose attempt failed (waiting again or failed for good) */
  failed: number;
  /** messages newly marked "no endpoint configured" */
  unconfigured: number;
  /** an interface still had full batches due when the pass ended (the loop goes on at once) */
  more: boolean;
}

interface Claimed {
  id: number;
  idempotencyKey: string;
  messageType: string;
  reference: string;
  payload: string;
  attempts: number;
  nextSendMode: string;
  createdAt: string;
  createdBy: string | null;
}

interface CallOutcome {
  /** HTTP status, when there was an answer */
  status: number | null;
  /** error for every message (no answer, or not 2xx); null: see perMessage */
  error: string | null;
  /** the start of the answer */
  answer: string;
  /** idempotency key -> error, for messages a 2xx answer refused one by one */
  refused: Map<string, string>;
  durationMs: number;
}

/** Bytes of an answer read at most (the excerpt kept is delivery.answerExcerptChars of it). */
const ANSWER_READ_LIMIT = 256 * 1024;
/** how long a claim holds beyond the call's timeout (recording the result included) */
const LEASE_MARGIN_MS = 60_000;

/** An error's short description for the log: never a stack, never more than the cause's code. */
function describe(err: unknown, timeoutSeconds: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return `timeout: no complete answer within ${timeoutSeconds} s`;
  if (e?.name === 'AbortError') return 'aborted: the server process is stopping';
  const code = e?.cause?.code;
  if (code) return `connection failed (${code})`;
  return `request failed (${e?.name ?? 'Error'}${e?.cause?.message ? `: ${e.cause.message}` : ''})`.slice(0, 500);
}

/** Reads at most `limit` bytes of a body (the rest is dropped), within the call's signal. */
async function readLimited(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size < limit) {
      chunks.push(value);
      size += value.byteLength;
    }
    if (size >= limit) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class OutboxDispatcher {
  readonly store: OutboxStore;
  readonly sender: string;
  readonly delivery: OutboxDelivery;
  private readonly clock: () => Date;
  private readonly random: () => number;
  private readonly file: EndpointsFile | null;
  private readonly envEndpoints: Endpoints;
  private readonly given: Endpoints;
  private readonly maxBatches: number;
  private running: Promise<PassReport> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly abort = new AbortController();
  private lastProblem: string | null = null;

  constructor(
    readonly db: Db,
    readonly meta: CompiledMetadata,
    private readonly opts: DispatcherOptions = {},
  ) {
    this.store = outboxStore(meta);
    this.delivery = { ...this.store.outbox.delivery, ...opts.delivery };
    this.sender = (opts.sender ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`).slice(0, 100);
    this.clock = opts.clock ?? (() => new Date());
    this.random = opts.random ?? Math.random;
    this.maxBatches = opts.maxBatchesPerPass ?? 20;
    const env = opts.env ?? process.env;
    const path = opts.interfacesFile ?? env.PORTAL_INTERFACES_FILE;
    this.file = path ? new EndpointsFile(path) : null;
    this.envEndpoints = endpointsFromEnv(env, Object.keys(this.store.outbox.interfaces));
    this.given = opts.endpoints ?? {};
  }

  /** The endpoint of every interface that has a usable one now (file < environment < options). */
  endpoints(): Endpoints {
    const merged: Endpoints = { ...(this.file?.read() ?? {}), ...this.envEndpoints, ...this.given };
    const problems = this.file?.problem ? [this.file.problem] : [];
    const out: Endpoints = {};
    for (const [code, e] of Object.entries(merged)) {
      if (!this.store.outbox.interfaces[code]) continue;
      const p = endpointProblem(e);
      if (p) problems.push(`${code}: ${p}`);
      else out[code] = e;
    }
    const problem = problems.join('; ') || null;
    if (problem && problem !== this.lastProblem) this.opts.log?.error({ problem }, 'outbox: interface endpoints are misconfigured; those interfaces wait');
    this.lastProblem = problem;
    return out;
  }

  /** Runs the loop: a pass now and then every `intervalMs` (at once again while batches were full). */
  start(intervalMs: number): void {
    if (this.timer || this.stopped) return;
    const missing = Object.keys(this.store.outbox.interfaces).filter((c) => !this.endpoints()[c]);
    if (missing.length)
      this.opts.log?.warn(
        { interfaces: missing, settings: missing.map((c) => `PORTAL_INTERFACE_${c}_URL`), file: 'PORTAL_INTERFACES_FILE' },
        'outbox: no endpoint configured for these interfaces; their messages wait until one is',
      );
    const tick = async () => {
      this.timer = null;
      let again = false;
      try {
        const r = await this.runOnce();
        again = r.more;
      } catch (err) {
        this.opts.log?.error({ err: (err as Error).message }, 'outbox: dispatch pass failed');
      }
      if (!this.stopped) {
        this.timer = setTimeout(() => void tick(), again ? 0 : intervalMs);
        this.timer.unref();
      }
    };
    this.timer = setTimeout(() => void tick(), 0);
    this.timer.unref();
  }

  /**
   * Stops the loop: a call in flight is aborted (its messages keep their lease, which is released
   * here so another process or the next start sends them at once), and the pass is awaited.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
    await this.running?.catch(() => undefined);
    const s = this.store;
    await this.db
      .run(`UPDATE ${s.mt} SET ${s.m('leaseOwner')} = NULL, ${s.m('leaseUntil')} = NULL WHERE ${s.m('leaseOwner')} = ?`, [this.sender])
      .catch(() => undefined);
  }

  /** One pass over every interface. Passes of one dispatcher never overlap (a second call joins the first). */
  runOnce(): Promise<PassReport> {
    if (!this.running) {
      this.running = this.pass().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async pass(): Promise<PassReport> {
    const report: PassReport = { batches: 0, sent: 0, failed: 0, unconfigured: 0, more: false };
    const endpoints = this.endpoints();
    for (const itf of Object.values(this.store.outbox.interfaces)) {
      if (this.stopped) break;
      const endpoint = endpoints[itf.code];
      if (!endpoint) {
        report.unconfigured += await this.markUnconfigured(itf.code);
        continue;
      }
      await this.markConfigured(itf.code);
      for (let i = 0; !this.stopped; i++) {
        if (i === this.maxBatches) {
          report.more = true;
          break;
        }
        const batch = await this.claim(itf, endpoint.timeoutSeconds ?? this.delivery.timeoutSeconds);
        if (!batch.length) break;
        const outcome = await this.send(itf, endpoint, batch);
        if (this.abort.signal.aborted) break;
        const r = await this.record(batch, outcome);
        report.batches++;
        report.sent += r.sent;
        report.failed += r.failed;
        if (batch.length < itf.batchLimit) break;
      }
    }
    return report;
  }

  private now(): string {
    return this.clock().toISOString();
  }

  /**
   * Waiting messages of an interface without an endpoint here: marked (the log shows the status
   * "no endpoint configured" in the user's language; the last attempt's error, if any, stays), never sent.
   */
  private async markUnconfigured(code: string): Promise<number> {
    const s = this.store;
    const now = this.now();
    const any = await this.db.get(`SELECT 1 AS x FROM ${s.mt} WHERE ${s.m('interfaceCode')} = ? AND ${s.m('status')} = ? LIMIT 1`, [code, s.status.pending]);
    if (!any) return 0;
    const r = await this.db.transaction((tx) =>
      tx.run(
        `UPDATE ${s.mt} SET ${s.m('status')} = ?, ${s.m('updatedAt')} = ? WHERE ${s.m('interfaceCode')} = ? AND ${s.m('status')} = ? AND (${s.m('leaseUntil')} IS NULL OR ${s.m('leaseUntil')} < ?)`,
        [s.status.unconfigured, now, code, s.status.pending, now],
      ),
    );
    return r.changes;
  }

  /** Messages that waited for an endpoint wait as pending again once there is one. */
  private async markConfigured(code: string): Promise<void> {
    const s = this.store;
    const any = await this.db.get(`SELECT 1 AS x FROM ${s.mt} WHERE ${s.m('interfaceCode')} = ? AND ${s.m('status')} = ? LIMIT 1`, [
      code,
      s.status.unconfigured,
    ]);
    if (!any) return;
    await this.db.transaction((tx) =>
      tx.run(`UPDATE ${s.mt} SET ${s.m('status')} = ?, ${s.m('updatedAt')} = ? WHERE ${s.m('interfaceCode')} = ? AND ${s.m('status')} = ?`, [
        s.status.pending,
        this.now(),
        code,
        s.status.unconfigured,
      ]),
    );
  }

  /** How long a claim holds: the longest call plus a margin for recording its result. */
  private leaseMs(timeoutSeconds: number): number {
    return timeoutSeconds * 1000 * 2 + LEASE_MARGIN_MS;
  }

  /** Leases up to the batch limit of due messages of one interface to this process. */
  private async claim(itf: CompiledInterface, timeoutSeconds: number): Promise<Claimed[]> {
    const s = this.store;
    const now = this.now();
    // the demo seed's messages are never sent: fake shipments must not reach a configured endpoint
    const notDemo = `${s.m('demo')} = ${this.db.dialect.boolLiteral(false)}`;
    const due = `${s.m('interfaceCode')} = ? AND ${s.m('status')} = ? AND ${s.m('nextAttemptAt')} <= ? AND ${notDemo}`;
    // a cheap read first: an idle interface costs no write transaction
    if (!(await this.db.get(`SELECT 1 AS x FROM ${s.mt} WHERE ${due} LIMIT 1`, [itf.code, s.status.pending, now]))) return [];
    const until = new Date(this.clock().getTime() + this.leaseMs(timeoutSeconds)).toISOString();
    const cols = ['id', 'idempotencyKey', 'messageType', 'reference', 'payload', 'attempts', 'nextSendMode', 'createdAt', 'createdBy', 'nextAttemptAt'];
    const rows = await this.db.transaction((tx) =>
      tx.all<Rec>(
        `UPDATE ${s.mt} SET ${s.m('leaseOwner')} = ?, ${s.m('leaseUntil')} = ? WHERE ${s.m('id')} IN (` +
          `SELECT a.${s.m('id')} FROM ${s.mt} a WHERE a.${s.m('interfaceCode')} = ? AND a.${s.m('status')} = ? AND a.${s.m('nextAttemptAt')} <= ?` +
          ` AND a.${notDemo} AND (a.${s.m('leaseUntil')} IS NULL OR a.${s.m('leaseUntil')} < ?) ORDER BY a.${s.m('nextAttemptAt')}, a.${s.m('id')} LIMIT ?${tx.dialect.skipLocked('a')})` +
          ` RETURNING ${cols.map((c) => `${s.m(c)} AS ${tx.dialect.quote(c)}`).join(', ')}`,
        [this.sender, until, itf.code, s.status.pending, now, now, itf.batchLimit],
      ),
    );
    // RETURNING gives no order: oldest due first, as claimed
    rows.sort((a, b) => String(a.nextAttemptAt).localeCompare(String(b.nextAttemptAt)) || Number(a.id) - Number(b.id));
    return rows.map((r) => ({
      id: Number(r.id),
      idempotencyKey: String(r.idempotencyKey),
      messageType: String(r.messageType),
      reference: String(r.reference ?? ''),
      payload: String(r.payload),
      attempts: Number(r.attempts ?? 0),
      nextSendMode: String(r.nextSendMode ?? this.store.mode.automatic),
      createdAt: String(r.createdAt),
      createdBy: (r.createdBy as string | null) ?? null,
    }));
  }

  /** One POST of the batch. Never throws: every failure becomes the outcome of all its messages. */
  private async send(itf: CompiledInterface, endpoint: EndpointConfig, batch: Claimed[]): Promise<CallOutcome> {
    const timeoutSeconds = endpoint.timeoutSeconds ?? this.delivery.timeoutSeconds;
    const batchKey = createHash('sha256')
      .update(`${itf.code}\n${batch.map((m) => m.idempotencyKey).join('\n')}`)
      .digest('hex')
      .slice(0, 40);
    const body = JSON.stringify({
      interface: itf.code,
      batchKey,
      sentAt: this.now(),
      messages: batch.map((m) => ({
        idempotencyKey: m.idempotencyKey,
        type: m.messageType,
        reference: m.reference,
        occurredAt: m.createdAt,
        actor: m.createdBy,
        attempt: m.attempts + 1,
        payload: JSON.parse(m.payload) as unknown,
      })),
    });
    const started = performance.now();
    const refused = new Map<string, string>();
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutSeconds * 1000), this.abort.signal]);
    try {
      const res = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          ...endpoint.headers,
          'content-type': 'application/json',
          'idempotency-key': batchKey,
          'x-portal-interface': itf.code,
          'user-agent': 'supplier-portal-outbox',
        },
        body,
        redirect: 'manual',
        signal,
      });
      const text = await readLimited(res, ANSWER_READ_LIMIT);
      const answer = text.slice(0, this.delivery.answerExcerptChars);
      if (res.status < 200 || res.status > 299)
        return {
          status: res.status,
          error: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`,
          answer,
          refused,
          durationMs: performance.now() - started,
        };
      // a 2xx answer may refuse single messages: { "results": [{ "idempotencyKey", "ok": false, "error" }] }
      try {
        const parsed = JSON.parse(text) as { results?: { idempotencyKey?: unknown; ok?: unknown; error?: unknown }[] };
        for (const r of Array.isArray(parsed?.results) ? parsed.results : []) {
          if (r && r.ok === false && typeof r.idempotencyKey === 'string')
            refused.set(r.idempotencyKey, `refused by the receiver${typeof r.error === 'string' && r.error ? `: ${r.error}` : ''}`.slice(0, 500));
        }
      } catch {
        // not JSON: the 2xx alone says the batch was taken
      }
      return { status: res.status, error: null, answer, refused, durationMs: performance.now() - started };
    } catch (err) {
      return { status: null, error: describe(err, timeoutSeconds), answer: '', refused, durationMs: performance.now() - started };
    }
  }

  /** Wait before attempt n + 1 after n failed ones: exponential, capped, with jitter (half fixed, half random). */
  backoffMs(failedAttempts: number): number {
    const base = this.delivery.backoffSeconds * 1000 * 2 ** Math.max(0, failedAttempts - 1);
    const capped = Math.min(base, this.delivery.maxBackoffSeconds * 1000);
    return Math.round(capped / 2 + (capped / 2) * this.random());
  }

  /** The attempt rows and the messages' new states, in one transaction; releases the lease. */
  private async record(batch: Claimed[], o: CallOutcome): Promise<{ sent: number; failed: number }> {
    const s = this.store;
    const at = new Date(this.clock().getTime() - Math.round(o.durationMs)).toISOString();
    const now = this.now();
    let sent = 0;
    let failed = 0;
    await this.db.transaction(async (tx) => {
      sent = 0;
      failed = 0;
      for (const m of batch) {
        const error = o.error ?? o.refused.get(m.idempotencyKey) ?? null;
        const ok = error === null;
        const attemptNo = m.attempts + 1;
        const last = !ok && attemptNo >= this.delivery.maxAttempts;
        const status = ok ? s.status.sent : last ? s.status.failed : s.status.pending;
        const next = ok || last ? null : new Date(this.clock().getTime() + this.backoffMs(attemptNo)).toISOString();
        const result = ok ? s.result.success : s.result.fail;
        const r = await tx.run(
          `UPDATE ${s.mt} SET ${s.m('status')} = ?, ${s.m('attempts')} = ?, ${s.m('nextAttemptAt')} = ?, ${s.m('nextSendMode')} = ?, ${s.m('lastAttemptAt')} = ?,` +
            ` ${s.m('lastResult')} = ?, ${s.m('lastMode')} = ?, ${s.m('lastHttpStatus')} = ?, ${s.m('lastError')} = ?, ${s.m('lastAnswer')} = ?,` +
            ` ${s.m('sentAt')} = ${ok ? '?' : s.m('sentAt')}, ${s.m('leaseOwner')} = NULL, ${s.m('leaseUntil')} = NULL, ${s.m('updatedAt')} = ?` +
            ` WHERE ${s.m('id')} = ? AND ${s.m('leaseOwner')} = ?`,
          [
            status,
            attemptNo,
            next,
            s.mode.automatic,
            at,
            result,
            m.nextSendMode,
            o.status,
            s.fit(s.message, 'lastError', error),
            o.answer,
            ...(ok ? [now] : []),
            now,
            m.id,
            this.sender,
          ],
        );
        // the attempt happened whatever else did: it is logged even if the lease was lost meanwhile
        if (r.changes === 0) this.opts.log?.warn({ messageId: m.id }, 'outbox: lease lost before the result was recorded');
        await s.insert(tx, s.attempt, {
          messageId: m.id,
          attemptNo,
          at,
          mode: m.nextSendMode,
          result,
          httpStatus: o.status,
          error: s.fit(s.attempt, 'error', error),
          answer: o.answer,
          durationMs: Math.max(0, Math.round(o.durationMs)),
          batchSize: batch.length,
          sender: this.sender,
        });
        if (ok) sent++;
        else failed++;
      }
    });
    // an operator follows a record to its messages by reference and message id (never the payload)
    this.opts.log?.info(
      { event: 'outbox', messageIds: batch.map((m) => m.id), references: batch.map((m) => m.reference), httpStatus: o.status, sent, failed },
      failed ? 'outbox: batch not taken' : 'outbox: batch sent',
    );
    return { sent, failed };
  }
}
