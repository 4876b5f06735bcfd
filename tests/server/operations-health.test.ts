/**
 * GET /healthz and GET /readyz (server/ops/health.ts): unauthenticated, terse, and honest:
 * readiness flips when the database is unreachable, when a migration is missing, and as soon as
 * shutdown begins, while a request in flight still gets its answer (graceful drain).
 */
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { drainAndClose } from '../../server/ops/health.ts';
import { BACKEND, build, pgServerUrl, type TestApp } from './helpers.ts';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close().catch(() => undefined);
  t = null;
});

const get = (url: string) => t!.app.inject({ method: 'GET', url });

describe('health and readiness', () => {
  it('answer without a login, with a status word only', async () => {
    t = await build({ seed: false });
    const h = await get('/healthz');
    expect(h.statusCode).toBe(200);
    expect(h.json()).toEqual({ status: 'ok' });
    expect(h.headers['cache-control']).toBe('no-store');
    const r = await get('/readyz');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 'ready' });
  });

  it('is not ready while a migration of the metadata is not applied', async () => {
    t = await build({ seed: false });
    const [first] = await t.app.db.all<{ id: string }>('SELECT id FROM _migrations ORDER BY id');
    expect(first).toBeDefined();
    await t.app.db.run('DELETE FROM _migrations WHERE id = ?', [first.id]);
    const r = await get('/readyz');
    expect(r.statusCode).toBe(503);
    // the reason is logged, never told: no migration id, table name or driver text
    expect(r.json()).toEqual({ status: 'unavailable' });
    await t.app.db.run('INSERT INTO _migrations (id, applied_at) VALUES (?, ?)', [first.id, new Date().toISOString()]);
    expect((await get('/readyz')).statusCode).toBe(200);
  });

  it('is not ready while the database cannot be reached, alive all the same, and ready again when it is back', async () => {
    t = await build({ seed: false });
    expect((await get('/readyz')).statusCode).toBe(200);
    if (BACKEND === 'postgres') {
      // "stop" this database: no new connections, and the pool's open ones are ended by the server
      const name = new URL(t.database.databaseUrl!).pathname.slice(1);
      const admin = new pg.Client({ connectionString: pgServerUrl() });
      await admin.connect();
      try {
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
        const down = await get('/readyz');
        expect(down.statusCode).toBe(503);
        expect(down.json()).toEqual({ status: 'unavailable' });
        expect((await get('/healthz')).statusCode).toBe(200);
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
        expect((await get('/readyz')).statusCode).toBe(200);
      } finally {
        await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
        await admin.end();
      }
    } else {
      // SQLite has no server to stop: the process's handle going away is the same failure
      await t.app.db.close();
      const down = await get('/readyz');
      expect(down.statusCode).toBe(503);
      expect(down.body).not.toMatch(/sqlite|database|open/i);
      expect((await get('/healthz')).statusCode).toBe(200);
    }
  });

  it('drains on shutdown: not ready at once, the request in flight answered, then closed', async () => {
    t = await build({ seed: false });
    let release!: () => void;
    const released = new Promise<void>((res) => (release = res));
    let started!: () => void;
    const inFlight = new Promise<void>((res) => (started = res));
    // a request that stays in flight until the test lets it go
    t.app.get('/test/slow', async () => {
      started();
      await released;
      return { done: true };
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);

    const slow = fetch(`${base}/test/slow`);
    await inFlight;
    const closing = drainAndClose(t.app, 400);
    // during the drain: not ready, still alive, the slow request still running
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining' });
    expect(ready.headers.get('connection')).toBe('close');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    let closed = false;
    void closing.then(() => (closed = true));
    await new Promise((res) => setTimeout(res, 600));
    // the drain time is over, but the close waits for the request in flight
    expect(closed).toBe(false);
    release();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ done: true });
    await closing;
    expect(closed).toBe(true);
    // closed: new connections are refused
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});
