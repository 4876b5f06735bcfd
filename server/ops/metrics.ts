/**
 * Prometheus metrics of one server process (prom-client, text format 0.0.4), on
 * GET /metrics with `Authorization: Bearer <PORTAL_METRICS_TOKEN>`. Without a token configured
 * the route answers 404 like any unknown path: metrics are never public by default.
 *
 * - HTTP: requests by method, route template (never the raw URL: ids would explode the series),
 *   status; a duration histogram by method and route template.
 * - Database: transaction time; PostgreSQL pool connections in use, idle and waiting.
 * - Outbox: messages by interface and status, age of the oldest waiting one; mail queue by status
 *   (read from the database at scrape time: the same for every process, so a cluster's
 *   aggregation takes the maximum, not the sum).
 * - Logins refused (400 from /connect/token) and throttled (429).
 * - Node: event-loop delay, heap, CPU, handles (prom-client's default metrics).
 *
 * Each app has a registry of its own (tests build many apps in one process). With
 * PORTAL_WORKERS > 1 the primary aggregates every worker's registry (cluster-metrics.ts).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/types.ts';
import { AppError } from '../engine/errors.ts';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';

export interface MetricsOptions {
  db: Db;
  metadata: CompiledMetadata;
  /** the bearer token a scrape must send (PORTAL_METRICS_TOKEN); unset: no metrics route */
  token?: string;
  /** prom-client's default process metrics (event loop, heap; default true) */
  processMetrics?: boolean;
  /** a cluster worker: scrapes answer every worker's figures, gathered by the primary (cluster-metrics.ts) */
  cluster?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** this process's metrics registry (cluster-metrics.ts hands it to the primary) */
    metrics: Registry;
  }
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The codes of a code table by key (status codes of the outbox come from metadata). */
const codesOf = (meta: CompiledMetadata, table: string): Record<string, string> =>
  Object.fromEntries((meta.codeTables[table]?.values ?? []).map((v) => [v.code, v.key]));

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Times every transaction of `db` (wrapping its method: the engine and handlers already hold this object). */
function timeTransactions(db: Db, histogram: Histogram): void {
  const original = db.transaction.bind(db);
  db.transaction = async (fn) => {
    const end = histogram.startTimer();
    try {
      return await original(fn);
    } finally {
      end();
    }
  };
}

function registerDatabaseGauges(registry: Registry, db: Db, meta: CompiledMetadata): void {
  const statusKey = codesOf(meta, 'interfaceMessageStatus');
  const waitingCodes = Object.entries(statusKey)
    .filter(([, k]) => k === 'pending' || k === 'unconfigured')
    .map(([c]) => c);
  new Gauge({
    name: 'portal_outbox_messages',
    help: 'Outbox messages by interface and status (pending, sent, failed, unconfigured)',
    labelNames: ['interface', 'status'],
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.reset();
      const rows = await db.all<{ i: string; s: string; n: number | string }>(
        `SELECT interface_code AS i, status AS s, COUNT(*) AS n FROM interface_message GROUP BY interface_code, status`,
      );
      for (const r of rows) this.set({ interface: r.i ?? '', status: statusKey[r.s] ?? r.s }, Number(r.n));
    },
  });
  new Gauge({
    name: 'portal_outbox_oldest_waiting_seconds',
    help: 'Age of the oldest outbox message still waiting to be sent (0 when none waits), by interface',
    labelNames: ['interface'],
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.reset();
      if (!waitingCodes.length) return;
      const rows = await db.all<{ i: string; t: string }>(
        `SELECT interface_code AS i, MIN(created_at) AS t FROM interface_message WHERE status IN (${waitingCodes.map(() => '?').join(',')}) GROUP BY interface_code`,
        waitingCodes,
      );
      for (const r of rows) this.set({ interface: r.i ?? '' }, r.t ? Math.max(0, (Date.now() - Date.parse(r.t)) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'portal_mail_queue',
    help: 'Mails in the queue by status (pending, sending, sent, failed)',
    labelNames: ['status'],
    registers: [registry],
    aggregator: 'max',
    async collect() {
      this.reset();
      for (const s of ['pending', 'sending', 'sent', 'failed']) this.set({ status: s }, 0);
      const rows = await db.all<{ s: string; n: number | string }>(`SELECT status AS s, COUNT(*) AS n FROM _mail_queue GROUP BY status`);
      for (const r of rows) this.set({ status: r.s }, Number(r.n));
    },
  });
}

function registerPoolGauges(registry: Registry, db: Db): void {
  const pool = (db as { pool?: { totalCount: number; idleCount: number; waitingCount: number } }).pool;
  if (!pool) return;
  new Gauge({
    name: 'portal_db_pool_connections',
    help: 'PostgreSQL pool connections of this process: in use, idle, and requests waiting for one',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
}

async function metricsPlugin(app: FastifyInstance, opts: MetricsOptions) {
  const registry = new Registry();
  app.decorate('metrics', registry);
  // the event-loop monitor runs a timer: only where somebody scrapes (tests and the dev server build many apps)
  if (opts.token && opts.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'portal_' });

  const requests = new Counter({
    name: 'portal_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'portal_http_request_duration_seconds',
    help: 'Time from request to answer, by method and route template',
    labelNames: ['method', 'route'],
    buckets: SECONDS,
    registers: [registry],
  });
  const logins = new Counter({
    name: 'portal_login_refusals_total',
    help: 'Refused logins on /connect/token: failed (wrong user ID, password or code) and throttled (429)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const transactions = new Histogram({
    name: 'portal_db_transaction_duration_seconds',
    help: 'Time of each write transaction, from its start (waiting for the write lock included) to commit or rollback',
    buckets: SECONDS,
    registers: [registry],
  });
  timeTransactions(opts.db, transactions);
  registerPoolGauges(registry, opts.db);
  registerDatabaseGauges(registry, opts.db, opts.metadata);

  app.addHook('onResponse', async (req, reply) => {
    // unmatched URLs share one series: a scanner cannot grow the series without bound
    const route = req.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    requests.inc({ method: req.method, route, status: String(status) });
    duration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    if (route === '/connect/token' && (status === 400 || status === 429)) logins.inc({ outcome: status === 429 ? 'throttled' : 'failed' });
  });

  const scrape = opts.cluster ? (await import('./cluster-metrics.ts')).clusterScrape(registry) : () => registry.metrics();
  app.get('/metrics', { logLevel: 'warn' }, async (req, reply) => {
    const token = opts.token;
    const given = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    // without a configured token the route is as absent as any unknown path
    if (!token) return reply.callNotFound();
    if (!sameToken(given, token)) throw new AppError(401, 'error.unauthorized');
    return reply
      .header('cache-control', 'no-store')
      .type(registry.contentType)
      .send(await scrape());
  });
}

/** Registered at the root (fastify-plugin): its onResponse hook sees every route. */
export default fp(metricsPlugin, { name: 'portal-metrics' });
