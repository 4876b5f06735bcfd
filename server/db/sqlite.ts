/**
 * The data layer over better-sqlite3 (the embedded default). better-sqlite3 is synchronous and
 * fast; this wraps it in the asynchronous interface of types.ts without giving up correctness:
 *
 * - One connection per process does the writing. A transaction holds it from BEGIN IMMEDIATE to
 *   COMMIT; because `fn` may await, other requests could otherwise run statements inside it
 *   (reading its uncommitted rows, or adding theirs). So transactions take an in-process lock, and
 *   statements outside a transaction wait while one is open. Other processes are kept out by
 *   SQLite's own lock (IMMEDIATE takes it at BEGIN; busy_timeout makes them wait, not fail).
 * - Exports read on read-only connections of their own (WAL: a reader never blocks the writer),
 *   each in one read transaction, so a million-row export is one consistent snapshot.
 */
import Database, { type Statement } from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AsyncLocalStorage } from 'node:async_hooks';
import { sqlite as dialect } from '../../codegen/runtime/dialect.ts';
import type { Cursor, Db, Queryable, Row, Snapshot } from './types.ts';

type Raw = Database.Database;

/**
 * Opens the SQLite file. WAL lets readers run beside the one writer; synchronous=FULL because a
 * confirmed shipment or settlement must survive a power cut, not only a process crash
 * (better-sqlite3 defaults WAL databases to NORMAL).
 */
export function openSqliteFile(file: string): Raw {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // several server processes share the file: a writer waits for the lock rather than fail
  db.pragma('busy_timeout = 10000');
  return db;
}

function openReadOnly(file: string): Raw {
  if (file === ':memory:') throw new Error('exports need a database file (an in-memory database has no second connection)');
  const db = new Database(file, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 10000');
  db.pragma('query_only = ON');
  // an export reads each page once: a small page cache keeps several exports' memory low
  db.pragma('cache_size = -2000');
  db.pragma('temp_store = FILE');
  return db;
}

/** Statements prepared once per connection and SQL text (raw ones apart: raw mode sticks to a statement). */
class Statements {
  private readonly objects = new Map<string, Statement<unknown[], unknown>>();
  private readonly arrays = new Map<string, { stmt: Statement<unknown[], unknown[]>; columns: string[] }>();
  constructor(private readonly db: Raw) {}
  object(sql: string): Statement<unknown[], unknown> {
    let s = this.objects.get(sql);
    if (!s) {
      s = this.db.prepare<unknown[], unknown>(sql);
      if (this.objects.size > 2000) this.objects.clear();
      this.objects.set(sql, s);
    }
    return s;
  }
  array(sql: string): { stmt: Statement<unknown[], unknown[]>; columns: string[] } {
    let s = this.arrays.get(sql);
    if (!s) {
      const stmt = this.db.prepare<unknown[], unknown[]>(sql).raw(true);
      s = { stmt, columns: stmt.columns().map((c) => c.name) };
      if (this.arrays.size > 2000) this.arrays.clear();
      this.arrays.set(sql, s);
    }
    return s;
  }
}

/** Statements on one connection, synchronously: what every handle below runs. */
function runner(stmts: Statements) {
  return {
    all: <T>(sql: string, params: readonly unknown[] = []) => stmts.object(sql).all(...params) as T[],
    get: <T>(sql: string, params: readonly unknown[] = []) => stmts.object(sql).get(...params) as T | undefined,
    rows(sql: string, params: readonly unknown[] = []) {
      const s = stmts.array(sql);
      return { columns: s.columns, rows: s.stmt.all(...params) };
    },
    run(sql: string, params: readonly unknown[] = []) {
      const s = stmts.object(sql);
      // a statement with RETURNING is a reader: run it as one and count what it returned
      if (s.reader) return { changes: s.all(...params).length };
      return { changes: s.run(...params).changes };
    },
  };
}

/** The synchronous runner as the asynchronous Queryable (errors become rejections). */
function queryable(r: ReturnType<typeof runner>, before?: () => Promise<void> | void): Queryable {
  const wrap =
    <A extends unknown[], R>(f: (...a: A) => R) =>
    async (...a: A): Promise<R> => {
      if (before) await before();
      return f(...a);
    };
  return { dialect, all: wrap(r.all) as Queryable['all'], get: wrap(r.get) as Queryable['get'], rows: wrap(r.rows), run: wrap(r.run) };
}

export const MAX_SNAPSHOTS = 4;

export class SqliteDb implements Db {
  readonly kind = 'sqlite' as const;
  readonly dialect = dialect;
  readonly maxSnapshots = MAX_SNAPSHOTS;
  readonly raw: Raw;
  private readonly r: ReturnType<typeof runner>;
  private readonly outside: Queryable;
  private readonly inside: Queryable;
  private locked = false;
  private waiters: (() => void)[] = [];
  /** marks the asynchronous flow of an open transaction: its statements must use the tx handle */
  private readonly txFlow = new AsyncLocalStorage<true>();
  private readonly readers: Raw[] = [];
  private readersBusy = 0;

  constructor(readonly file: string) {
    this.raw = openSqliteFile(file);
    this.r = runner(new Statements(this.raw));
    this.outside = queryable(this.r, () => this.waitOutside());
    this.inside = queryable(this.r);
  }

  all: Queryable['all'] = (sql, params) => this.outside.all(sql, params);
  get: Queryable['get'] = (sql, params) => this.outside.get(sql, params);
  rows: Queryable['rows'] = (sql, params) => this.outside.rows(sql, params);
  run: Queryable['run'] = (sql, params) => this.outside.run(sql, params);

  /** A statement outside any transaction waits while one is open (it would otherwise run inside it). */
  private waitOutside(): Promise<void> | void {
    if (this.txFlow.getStore()) throw new Error('a statement inside a transaction must use the transaction handle');
    if (!this.locked) return;
    return this.acquire().then(() => this.release());
  }

  private async acquire(): Promise<void> {
    while (this.locked) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.locked = true;
  }

  private release(): void {
    this.locked = false;
    const next = this.waiters;
    this.waiters = [];
    for (const w of next) w();
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    if (this.txFlow.getStore()) throw new Error('transactions do not nest: use the handle of the open one');
    await this.acquire();
    try {
      this.raw.exec('BEGIN IMMEDIATE');
      try {
        const result = await this.txFlow.run(true, () => fn(this.inside));
        this.raw.exec('COMMIT');
        return result;
      } catch (err) {
        if (this.raw.inTransaction) this.raw.exec('ROLLBACK');
        throw err;
      }
    } finally {
      this.release();
    }
  }

  async readSnapshot<T>(fn: (snap: Snapshot) => Promise<T>): Promise<T | null> {
    if (this.readersBusy >= this.maxSnapshots) return null;
    this.readersBusy++;
    let conn: Raw | undefined;
    try {
      conn = this.readers.pop() ?? openReadOnly(this.file);
      const c = conn;
      const r = runner(new Statements(c));
      const open = new Set<IterableIterator<unknown[]>>();
      const snap: Snapshot = {
        ...queryable(r),
        async cursor(sql, params = []) {
          const it = c
            .prepare<unknown[], unknown[]>(sql)
            .raw(true)
            .iterate(...params);
          open.add(it);
          return {
            async read(n) {
              const out: unknown[][] = [];
              for (let i = 0; i < n; i++) {
                const x = it.next();
                if (x.done) break;
                out.push(x.value);
              }
              return out;
            },
            async close() {
              if (open.delete(it)) it.return?.();
            },
          } satisfies Cursor;
        },
      };
      c.exec('BEGIN');
      try {
        return await fn(snap);
      } finally {
        for (const it of open) it.return?.();
        if (c.inTransaction) c.exec('ROLLBACK');
      }
    } finally {
      this.readersBusy--;
      if (conn?.open) {
        // one idle reader is kept for the next export, with its cache given back
        if (this.readers.length) conn.close();
        else {
          conn.pragma('shrink_memory');
          this.readers.push(conn);
        }
      }
    }
  }

  get snapshotsInUse(): number {
    return this.readersBusy;
  }

  async counterGet<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    await this.waitOutside();
    // in WAL mode NORMAL commits without syncing the log; FULL comes back for everything else
    this.raw.pragma('synchronous = NORMAL');
    try {
      return this.r.get<T>(sql, params);
    } finally {
      this.raw.pragma('synchronous = FULL');
    }
  }

  async exec(sql: string): Promise<void> {
    await this.waitOutside();
    this.raw.exec(sql);
  }

  async insertMany(table: string, columns: readonly string[], rows: readonly unknown[][], tx?: Queryable): Promise<void> {
    if (!rows.length) return;
    if (!tx) await this.waitOutside();
    const stmt = this.raw.prepare(
      `INSERT INTO ${dialect.quote(table)} (${columns.map(dialect.quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    const load = () => {
      for (const row of rows) stmt.run(row as unknown[]);
    };
    if (tx || this.raw.inTransaction) load();
    else this.raw.transaction(load).immediate();
  }

  async close(): Promise<void> {
    for (const r of this.readers) r.close();
    this.readers.length = 0;
    if (this.raw.open) this.raw.close();
  }
}

export type { Row };
