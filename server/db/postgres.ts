/**
 * The data layer over PostgreSQL (node-postgres with a pool): one database behind several
 * stateless server processes. Statements are prepared per connection (named by a hash of their
 * text); `?` placeholders become `$n` once per text. Values come back as the SQLite side gives
 * them: BIGINT and NUMERIC as numbers, DATE as 'yyyy-MM-dd', TIMESTAMPTZ as an ISO string (UTC).
 *
 * Transactions run READ COMMITTED; code that checks a row before it changes it reads the row with
 * `dialect.forUpdate` (SELECT ... FOR UPDATE), so a concurrent transaction waits for the lock and
 * then sees the committed row. A serialization failure or deadlock re-runs the transaction.
 */
import pg from 'pg';
import { createHash } from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';
import { numberedPlaceholders, postgres as dialect } from '../../codegen/runtime/dialect.ts';
import { dbErrorKind, type Cursor, type Db, type Queryable, type Snapshot } from './types.ts';

const OID = { int8: 20, numeric: 1700, date: 1082, timestamptz: 1184, timestamp: 1114 } as const;

/** Type parsers of this pool only (node-postgres' global ones are left alone). */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case OID.int8:
      case OID.numeric:
        return (v: string) => Number(v);
      case OID.date:
      case OID.timestamp:
        return (v: string) => v;
      case OID.timestamptz:
        return (v: string) => new Date(v).toISOString();
      default:
        return pg.types.getTypeParser(oid, format as 'text');
    }
  },
};

const converted = new Map<string, { text: string; name: string }>();
/** The statement as node-postgres takes it: numbered placeholders and a name (prepared once per connection). */
function statement(sql: string): { text: string; name: string } {
  let s = converted.get(sql);
  if (!s) {
    s = { text: numberedPlaceholders(sql), name: `s${createHash('sha1').update(sql).digest('base64url').slice(0, 20)}` };
    if (converted.size > 5000) converted.clear();
    converted.set(sql, s);
  }
  return s;
}

/** node-postgres sends parameters as text; booleans and buffers it converts itself. */
const values = (params: readonly unknown[] = []) => params as unknown[];

type Client = pg.Pool | pg.PoolClient;

function queryable(client: Client, before?: () => void): Queryable {
  return {
    dialect,
    async all<T>(sql: string, params?: readonly unknown[]) {
      before?.();
      const s = statement(sql);
      return (await client.query({ text: s.text, name: s.name, values: values(params) })).rows as T[];
    },
    async get<T>(sql: string, params?: readonly unknown[]) {
      before?.();
      const s = statement(sql);
      return (await client.query({ text: s.text, name: s.name, values: values(params) })).rows[0] as T | undefined;
    },
    async rows(sql: string, params?: readonly unknown[]) {
      before?.();
      const s = statement(sql);
      const r = await client.query({ text: s.text, name: s.name, values: values(params), rowMode: 'array' });
      return { columns: r.fields.map((f) => f.name), rows: r.rows as unknown[][] };
    },
    async run(sql: string, params?: readonly unknown[]) {
      before?.();
      const s = statement(sql);
      return { changes: (await client.query({ text: s.text, name: s.name, values: values(params) })).rowCount ?? 0 };
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How often a transaction is run in all: the first run, and up to 4 more after a lost serialization race or deadlock. */
const MAX_ATTEMPTS = 5;
/** Exports reading at once, each on a pooled connection of its own. */
export const MAX_SNAPSHOTS = 4;

export interface PostgresOptions {
  url: string;
  /** connections per process (default 10, or PG_POOL_MAX) */
  poolSize?: number;
}

export class PostgresDb implements Db {
  readonly kind = 'postgres' as const;
  readonly dialect = dialect;
  readonly maxSnapshots = MAX_SNAPSHOTS;
  readonly pool: pg.Pool;
  private readonly outside: Queryable;
  private readonly txFlow = new AsyncLocalStorage<true>();
  private snapshots = 0;
  private cursorIds = 0;

  constructor(opts: PostgresOptions) {
    this.pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? (Number(process.env.PG_POOL_MAX) || 10),
      types,
      // dates and times are read and written in UTC, whatever the server's default
      options: '-c TimeZone=UTC',
      application_name: 'supplier-portal',
    });
    // an idle connection that dies (server restart) must not take the process with it
    this.pool.on('error', () => undefined);
    this.outside = queryable(this.pool, () => {
      if (this.txFlow.getStore()) throw new Error('a statement inside a transaction must use the transaction handle');
    });
  }

  all: Queryable['all'] = (sql, params) => this.outside.all(sql, params);
  get: Queryable['get'] = (sql, params) => this.outside.get(sql, params);
  rows: Queryable['rows'] = (sql, params) => this.outside.rows(sql, params);
  run: Queryable['run'] = (sql, params) => this.outside.run(sql, params);

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    if (this.txFlow.getStore()) throw new Error('transactions do not nest: use the handle of the open one');
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await this.txFlow.run(true, () => fn(queryable(client)));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        if (dbErrorKind(err) === 'retry' && attempt < MAX_ATTEMPTS) {
          await sleep(5 * attempt + Math.random() * 20 * attempt);
          continue;
        }
        throw err;
      } finally {
        client.release(broken);
      }
    }
  }

  async readSnapshot<T>(fn: (snap: Snapshot) => Promise<T>): Promise<T | null> {
    if (this.snapshots >= this.maxSnapshots) return null;
    this.snapshots++;
    const client = await this.pool.connect().catch((err) => {
      this.snapshots--;
      throw err;
    });
    let broken: Error | undefined;
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const q = queryable(client);
      const snap: Snapshot = {
        ...q,
        cursor: async (sql, params = []) => {
          const name = `c${++this.cursorIds}`;
          await client.query({ text: `DECLARE ${name} NO SCROLL CURSOR FOR ${numberedPlaceholders(sql)}`, values: values(params) });
          let closed = false;
          return {
            async read(n) {
              if (closed) return [];
              return (await client.query({ text: `FETCH FORWARD ${Math.max(1, Math.trunc(n))} FROM ${name}`, rowMode: 'array' })).rows as unknown[][];
            },
            async close() {
              if (closed) return;
              closed = true;
              await client.query(`CLOSE ${name}`).catch(() => undefined);
            },
          } satisfies Cursor;
        },
      };
      try {
        return await fn(snap);
      } finally {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      }
    } finally {
      client.release(broken);
      this.snapshots--;
    }
  }

  get snapshotsInUse(): number {
    return this.snapshots;
  }

  async counterGet<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      // the commit does not wait for the WAL to reach the disk (only this transaction's)
      await client.query('SET LOCAL synchronous_commit = off');
      const s = statement(sql);
      const r = await client.query({ text: s.text, name: s.name, values: values(params) });
      await client.query('COMMIT');
      return r.rows[0] as T | undefined;
    } catch (err) {
      await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw err;
    } finally {
      client.release(broken);
    }
  }

  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async insertMany(table: string, columns: readonly string[], rows: readonly unknown[][], tx?: Queryable): Promise<void> {
    if (!rows.length) return;
    // PostgreSQL takes at most 65,535 parameters per statement
    const perStatement = Math.max(1, Math.min(1000, Math.floor(60_000 / columns.length)));
    const head = `INSERT INTO ${dialect.quote(table)} (${columns.map(dialect.quote).join(', ')}) VALUES `;
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    const load = async (q: Queryable) => {
      for (let i = 0; i < rows.length; i += perStatement) {
        const chunk = rows.slice(i, i + perStatement);
        await q.run(head + chunk.map(() => tuple).join(', '), chunk.flat());
      }
    };
    if (tx) await load(tx);
    else await this.transaction(load);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
