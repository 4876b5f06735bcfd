/**
 * The PostgreSQL test infrastructure itself (tests/support/postgres.ts): a server comes up, test
 * databases are isolated from each other, UTF-8 text round-trips, and a throw-away cluster leaves
 * nothing behind when stopped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { createTestDatabase, ensurePostgres } from '../support/postgres.ts';

async function query<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

let serverUrl: string;
let stopServer: (() => Promise<void>) | undefined;
let startedHere = false;
let startMs = 0;

beforeAll(async () => {
  // Always a server of its own (never the run-wide one of pg-global-setup.ts): stopping it is tested.
  const t0 = performance.now();
  const server = await ensurePostgres();
  startMs = performance.now() - t0;
  serverUrl = server.url;
  stopServer = server.stop;
  // ensurePostgres() hands DATABASE_URL back unchanged when it uses it; anything else is ours.
  startedHere = server.url !== process.env.DATABASE_URL;
});

afterAll(async () => {
  await stopServer?.();
});

describe('throw-away PostgreSQL for tests', () => {
  it('listens on 127.0.0.1 only, when it started its own cluster', async () => {
    const [row] = await query<{ version: string; listen: string }>(serverUrl, `SELECT version(), current_setting('listen_addresses') AS listen`);
    expect(row.version).toMatch(/^PostgreSQL \d+/);
    if (startedHere) {
      expect(serverUrl).toMatch(/^postgres:\/\/portal@127\.0\.0\.1:\d+\/postgres$/);
      expect(row.listen).toBe('127.0.0.1');
      console.info(`throw-away cluster started in ${Math.round(startMs)} ms`);
    }
  });

  it('gives each test database its own tables, and keeps UTF-8 text and booleans intact', async () => {
    const a = await createTestDatabase(serverUrl);
    const b = await createTestDatabase(serverUrl, 'Portal_Other');
    try {
      expect(a.name).not.toBe(b.name);
      expect(a.name).toMatch(/^portal_test_\d+_\d+_[0-9a-f]{8}$/);
      expect(b.name).toMatch(/^portal_other_/);
      expect(new URL(a.url).pathname).toBe(`/${a.name}`);
      expect(new URL(a.url).host).toBe(new URL(serverUrl).host);

      await query(a.url, `CREATE TABLE notice (id serial PRIMARY KEY, title text NOT NULL, pinned boolean NOT NULL)`);
      const rows: [string, boolean][] = [
        ['供应商通知：请于周五前确认交货日期', true],
        ['Plain ASCII notice', false],
        ['混合 text — 仓库 PDC01 🚚', true],
      ];
      for (const [title, pinned] of rows) await query(a.url, `INSERT INTO notice (title, pinned) VALUES ($1, $2)`, [title, pinned]);

      const back = await query<{ title: string; pinned: boolean }>(a.url, `SELECT title, pinned FROM notice ORDER BY id`);
      expect(back.map((r) => [r.title, r.pinned])).toEqual(rows);
      expect(typeof back[0].pinned).toBe('boolean');
      const [pinned] = await query<{ n: string }>(a.url, `SELECT count(*) AS n FROM notice WHERE pinned AND title LIKE '%供应商%'`);
      expect(Number(pinned.n)).toBe(1);
      // char_length counts characters, not bytes: the text arrived as UTF-8, not mangled.
      const [len] = await query<{ n: number }>(a.url, `SELECT char_length(title) AS n FROM notice WHERE id = 1`);
      expect(len.n).toBe(rows[0][0].length);

      const [enc] = await query<{ encoding: string; collate: string }>(
        a.url,
        `SELECT pg_encoding_to_char(encoding) AS encoding, datcollate AS collate FROM pg_database WHERE datname = current_database()`,
      );
      expect(enc).toEqual({ encoding: 'UTF8', collate: 'C' });

      const inB = await query<{ t: string | null }>(b.url, `SELECT to_regclass('public.notice')::text AS t`);
      expect(inB[0].t).toBeNull();
      const inA = await query<{ t: string | null }>(a.url, `SELECT to_regclass('public.notice')::text AS t`);
      expect(inA[0].t).toBe('notice');
    } finally {
      await a.drop();
      await b.drop();
    }
    const left = await query<{ datname: string }>(serverUrl, `SELECT datname FROM pg_database WHERE datname IN ($1, $2)`, [a.name, b.name]);
    expect(left).toEqual([]);
    await a.drop(); // idempotent
  });

  it('drops a database even while a connection is still open', async () => {
    const db = await createTestDatabase(serverUrl);
    const forgotten = new pg.Client({ connectionString: db.url });
    forgotten.on('error', () => {}); // the FORCE drop terminates it
    await forgotten.connect();
    await db.drop();
    const left = await query(serverUrl, `SELECT 1 FROM pg_database WHERE datname = $1`, [db.name]);
    expect(left).toEqual([]);
    await forgotten.end().catch(() => {});
  });

  it('stops its own cluster and removes the data directory; leaves a server given by DATABASE_URL running', async () => {
    if (!startedHere) {
      // a server the test was given is not the test's to stop
      await stopServer!();
      expect(await query(serverUrl, 'SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
      return;
    }
    const [{ dir }] = await query<{ dir: string }>(serverUrl, `SELECT current_setting('data_directory') AS dir`);
    expect(existsSync(dir)).toBe(true);
    await stopServer!();
    stopServer = undefined;
    expect(existsSync(dir)).toBe(false);
    await expect(query(serverUrl, 'SELECT 1')).rejects.toThrow();
  });
});
