/**
 * GET /metrics (server/ops/metrics.ts): scraped after known traffic and read with a real
 * Prometheus text-format parser (parse-prometheus-text-format); the counts must match what the
 * test did: requests by route template and status, refused and throttled logins, transactions,
 * outbox messages by interface and status with the age of the oldest waiting one, the mail queue;
 * pool gauges on PostgreSQL; event-loop delay. Without the token: 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import parsePrometheusTextFormat, { type ParsedFamily } from 'parse-prometheus-text-format';
import { metadata } from '../../server/generated/index.ts';
import { BACKEND, bearer, build, login, tokenResponse, type TestApp } from './helpers.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
let t: TestApp;

beforeAll(async () => {
  // three attempts per account and minute: the fourth is throttled
  t = await build({ app: { metricsToken: TOKEN, accountAttemptsPerMinute: 3 } });
});
afterAll(async () => t.close());

let lastScrape = '';
async function scrape(): Promise<ParsedFamily[]> {
  const r = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
  expect(r.statusCode).toBe(200);
  expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  lastScrape = r.body;
  return parsePrometheusTextFormat(r.body);
}

/** The cumulative buckets of the request-duration series of GET /healthz, parsed on their own. */
function healthzBuckets(text: string): Record<string, string> {
  const family = 'portal_http_request_duration_seconds';
  const lines = text.split('\n').filter((l) => l.startsWith(`# TYPE ${family} `) || (l.startsWith(`${family}_bucket{`) && l.includes('route="/healthz"')));
  const [parsed] = parsePrometheusTextFormat(`${lines.join('\n')}\n`);
  return parsed.metrics[0].buckets!;
}

/** The value of one sample whose labels include `labels` (undefined: no such sample). */
function value(families: ParsedFamily[], name: string, labels: Record<string, string> = {}): number | undefined {
  const family = families.find((f) => f.name === name);
  const sample = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  if (!sample) return undefined;
  return Number(sample.value ?? sample.count);
}

describe('metrics', () => {
  it('are refused without the token, and with a session token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const session = await login(t.app, 'staff01');
    const r = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(session) });
    expect(r.statusCode).toBe(401);
    expect(r.body).not.toContain('portal_http');
  });

  it('count requests by route template and status, with a duration histogram', async () => {
    const before = await scrape();
    const staff = await login(t.app, 'staff01');
    const resource = metadata.entities.order.resource;
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/healthz' });
    for (const id of [1, 2]) expect((await t.app.inject({ method: 'GET', url: `/api/${resource}/${id}`, headers: bearer(staff) })).statusCode).toBe(200);
    await t.app.inject({ method: 'GET', url: '/no/such/path/12345' });
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => (value(after, name, labels) ?? 0) - (value(before, name, labels) ?? 0);
    expect(delta('portal_http_requests_total', { method: 'GET', route: '/healthz', status: '200' })).toBe(3);
    // the template, never the ids: one series for both records
    expect(delta('portal_http_requests_total', { method: 'GET', route: `/api/${resource}/:id`, status: '200' })).toBe(2);
    expect(after.find((f) => f.name === 'portal_http_requests_total')!.metrics.some((m) => m.labels?.route?.includes('12345'))).toBe(false);
    expect(delta('portal_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(after.find((f) => f.name === 'portal_http_request_duration_seconds')!.type).toBe('HISTOGRAM');
    // the parser folds a labelled histogram's series into one: read the /healthz series on its own
    const buckets = healthzBuckets(lastScrape);
    expect(Number(buckets['+Inf'])).toBeGreaterThanOrEqual(3);
    // cumulative: never fewer in a wider bucket (keys sorted by bound: objects put integer-like keys first)
    const bound = (k: string) => (k === '+Inf' ? Infinity : Number(k));
    const counts = Object.keys(buckets)
      .sort((a, b) => bound(a) - bound(b))
      .map((k) => Number(buckets[k]));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it('count refused and throttled logins', async () => {
    const before = await scrape();
    // one account, three wrong passwords, then the per-account limit answers 429
    for (let i = 0; i < 3; i++) expect((await tokenResponse(t.app, 'sup02', 'wrongPassword1')).statusCode).toBe(400);
    expect((await tokenResponse(t.app, 'sup02', 'wrongPassword1')).statusCode).toBe(429);
    const after = await scrape();
    const delta = (outcome: string) =>
      (value(after, 'portal_login_refusals_total', { outcome }) ?? 0) - (value(before, 'portal_login_refusals_total', { outcome }) ?? 0);
    expect(delta('failed')).toBe(3);
    expect(delta('throttled')).toBe(1);
  });

  it('time transactions; show the pool on PostgreSQL; show the event-loop delay', async () => {
    const before = await scrape();
    for (let i = 0; i < 4; i++) await t.app.db.transaction(async (tx) => tx.get('SELECT 1 AS one'));
    const after = await scrape();
    const count = (f: ParsedFamily[]) => value(f, 'portal_db_transaction_duration_seconds') ?? 0;
    expect(count(after) - count(before)).toBe(4);
    if (BACKEND === 'postgres') {
      expect(value(after, 'portal_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
      expect(value(after, 'portal_db_pool_connections', { state: 'waiting' })).toBe(0);
    } else expect(after.some((f) => f.name === 'portal_db_pool_connections')).toBe(false);
    expect(value(after, 'portal_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(value(after, 'portal_nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
  });

  it('show the outbox by interface and status with the age of the oldest waiting message, and the mail queue by status', async () => {
    const code = (key: string) => metadata.codeTables.interfaceMessageStatus.values.find((v) => v.key === key)!.code;
    const old = new Date(Date.now() - 600_000).toISOString();
    const now = new Date().toISOString();
    const beforeMail = await scrape();
    await t.app.db.transaction(async (tx) => {
      for (const [status, at, key] of [
        [code('pending'), old, 'k1'],
        [code('pending'), now, 'k2'],
        [code('failed'), now, 'k3'],
        [code('sent'), now, 'k4'],
      ])
        await tx.run(
          `INSERT INTO interface_message (interface_code, message_type, idempotency_key, payload, status, created_at) VALUES ('TESTX', 'test', ?, '{}', ?, ?)`,
          [key, status, at],
        );
      for (let i = 0; i < 2; i++)
        await tx.run(
          `INSERT INTO _mail_queue (template, account_id, vars, status, attempts, next_attempt_at, created_at) VALUES ('passwordReset', 1, '{}', 'failed', 5, ?, ?)`,
          [now, now],
        );
    });
    const after = await scrape();
    expect(value(after, 'portal_outbox_messages', { interface: 'TESTX', status: 'pending' })).toBe(2);
    expect(value(after, 'portal_outbox_messages', { interface: 'TESTX', status: 'failed' })).toBe(1);
    expect(value(after, 'portal_outbox_messages', { interface: 'TESTX', status: 'sent' })).toBe(1);
    const age = value(after, 'portal_outbox_oldest_waiting_seconds', { interface: 'TESTX' })!;
    expect(age).toBeGreaterThanOrEqual(600);
    expect(age).toBeLessThan(3600);
    const failedMails = (f: ParsedFamily[]) => value(f, 'portal_mail_queue', { status: 'failed' }) ?? 0;
    expect(failedMails(after) - failedMails(beforeMail)).toBe(2);
  });
});
