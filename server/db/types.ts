/**
 * The asynchronous data layer: the only way the engine, handlers, auth, seed, export, import and
 * migrations reach a database. Two implementations: better-sqlite3 (sqlite.ts, the embedded
 * default) and node-postgres (postgres.ts, several processes over one database). SQL is written
 * with `?` placeholders; everything that differs between the two is in the dialect
 * (codegen/runtime/dialect.ts), which every handle carries.
 */
import type { Dialect, DialectName } from '../../codegen/runtime/dialect.ts';

export type Row = Record<string, unknown>;

/** What runs SQL: the database itself, a transaction or a read snapshot. */
export interface Queryable {
  readonly dialect: Dialect;
  /** every row as an object keyed by column name */
  all<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** the first row, or undefined */
  get<T = Row>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** rows as arrays in column order, and the column names: cheaper than objects for large pages */
  rows(sql: string, params?: readonly unknown[]): Promise<{ columns: string[]; rows: unknown[][] }>;
  /** a statement without result rows; `changes` = rows inserted, updated or deleted */
  run(sql: string, params?: readonly unknown[]): Promise<{ changes: number }>;
}

/** A forward-only reader over a query's rows, inside a read snapshot. */
export interface Cursor {
  /** the next `n` rows as arrays (fewer at the end; none when done) */
  read(n: number): Promise<unknown[][]>;
  close(): Promise<void>;
}

export interface Snapshot extends Queryable {
  cursor(sql: string, params?: readonly unknown[]): Promise<Cursor>;
}

export interface Db extends Queryable {
  readonly kind: DialectName;
  /**
   * Runs `fn` in one write transaction: committed when it resolves, rolled back when it throws.
   * Use the handle it gets for every statement of the transaction. SQLite: BEGIN IMMEDIATE (the
   * database's one write lock, other writers wait). PostgreSQL: READ COMMITTED; code that checks
   * a row before changing it reads it with `dialect.forUpdate` (a row lock); a serialization
   * failure or deadlock re-runs `fn` (a few times), so `fn` must do nothing but database work.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` on a consistent read-only snapshot of its own connection (exports: a count and a
   * million rows from the same instant while writers go on). At most `maxSnapshots` at once:
   * `null` when all are in use.
   */
  readSnapshot<T>(fn: (snap: Snapshot) => Promise<T>): Promise<T | null>;
  readonly maxSnapshots: number;
  /** read snapshots open now (exports running) */
  readonly snapshotsInUse: number;
  /**
   * A write whose loss in a crash does no harm (rate-limit counters), committed on its own
   * without waiting for the disk, returning its first row (the statement has RETURNING).
   */
  counterGet<T = Row>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** DDL and other statements without parameters (several may be separated by semicolons) */
  exec(sql: string): Promise<void>;
  /** bulk load: many rows of the same columns (seeding), in the caller's transaction or its own */
  insertMany(table: string, columns: readonly string[], rows: readonly unknown[][], tx?: Queryable): Promise<void>;
  close(): Promise<void>;
}

/** A database error the engine must answer for in the client's terms (never with its text). */
export type DbErrorKind = 'unique' | 'badValue' | 'retry' | 'other';

/** What kind of failure a driver error is, for both drivers. */
export function dbErrorKind(err: unknown): DbErrorKind {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return 'other';
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505') return 'unique';
  // PostgreSQL class 22: data exceptions (a value the column type cannot hold, a NUL byte, ...);
  // a CHECK constraint (a declared range) that validation did not catch first
  if (/^22[0-9A-Z]{3}$/.test(code) || code === 'SQLITE_CONSTRAINT_CHECK' || code === '23514') return 'badValue';
  // serialization failure, deadlock: the transaction can be run again
  if (code === '40001' || code === '40P01') return 'retry';
  return 'other';
}
