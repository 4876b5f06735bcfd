/**
 * Every SQL dialect specific lives here: column types, identifier quoting, placeholders,
 * pagination, booleans, LIKE, upserts, row locks, planner hints, catalogue look-ups and DDL.
 * SQLite is the embedded default; PostgreSQL serves several stateless server processes over one
 * database. Engine code writes its SQL with `?` placeholders and the few words below; nothing
 * outside this module writes a dialect-specific word.
 */
import { createHash } from 'node:crypto';
import type { CompiledEntity, CompiledField, CompiledMetadata } from './model.ts';
import { numericRange } from './field-schema.ts';

export interface ColumnDef {
  name: string;
  /** logical type of the field, kept so a migration can tell a retype from a new column */
  fieldType: string;
  sqlType: string;
  notNull: boolean;
  primaryKey: boolean;
  /** SQL literal or null */
  defaultSql: string | null;
  /**
   * The field's declared range (numeric fields, field-schema.ts numericRange): a new table gets
   * `CHECK (col IS NULL OR col BETWEEN min AND max)`. A table that already exists keeps its columns
   * as they are; it gets the constraint only through a migration (rebuild the table or, on
   * PostgreSQL, ALTER TABLE ... ADD CONSTRAINT), which the engine does not do by itself.
   */
  range?: { min: number; max: number };
}
export interface IndexDef { name: string; columns: string[]; unique: boolean }
export interface TableDef { name: string; columns: ColumnDef[]; indexes: IndexDef[] }

export type DialectName = 'sqlite' | 'postgres';

export interface Dialect {
  name: DialectName;
  quote(identifier: string): string;
  sqlType(f: CompiledField): string;
  limitOffset(limit: number, offset: number): string;
  createTable(t: TableDef): string;
  createIndex(table: string, ix: IndexDef): string;
  addColumn(table: string, c: ColumnDef): string;
  /** case-insensitive LIKE with '\' as escape character */
  containsOp(column: string, param: string): string;
  /** stored form of booleans (a parameter value) */
  bool(v: boolean): unknown;
  /** a boolean literal inside SQL text */
  boolLiteral(v: boolean): string;
  /** the larger of two expressions */
  greatest(a: string, b: string): string;
  /**
   * The tail of a SELECT that reads rows it is about to change (`alias` is the table's alias).
   * PostgreSQL: a row lock, so a second transaction waits and then re-reads the committed row.
   * SQLite: nothing; an IMMEDIATE transaction already holds the database's one write lock.
   */
  forUpdate(alias: string): string;
  /**
   * How a list query should weigh a range condition. SQLite keeps no statistics and takes every
   * range for a narrow one (query.ts explains the hint); PostgreSQL has statistics and needs none.
   */
  broadRange(condition: string): string;
  /** identifiers the database keeps whole (PostgreSQL cuts names at 63 bytes) */
  identifier(name: string): string;
  /** the engine's own tables (not metadata entities) */
  systemDdl(): string[];
  /** SQL + params listing the columns of a table: rows { name } */
  columnsQuery(table: string): { sql: string; params: unknown[] };
  /** SQL + params listing the indexes of a table the engine created: rows { name } */
  indexesQuery(table: string): { sql: string; params: unknown[] };
  /** SQL + params: one row when the table exists */
  tableExistsQuery(table: string): { sql: string; params: unknown[] };
  /** statements that make the next generated id follow the largest one (after rows were loaded with ids) */
  resetIdentity(table: string): string[];
  /** statements after a bulk load (SQLite: fold the log back into the file; PostgreSQL: fresh planner statistics) */
  afterBulkLoad: string[];
  /** a statement that keeps other processes from migrating at the same time (inside the migration's transaction) */
  migrationLock: string | null;
  /** SQL + params listing the indexes that use a column (SQLite refuses to drop such a column), or null */
  indexesUsingColumnQuery(table: string, column: string): { sql: string; params: unknown[] } | null;
  /** statements that change a column's stored type (SQLite keeps dynamic typing: none) */
  retypeColumn(table: string, c: ColumnDef): string[];
}

const literal = (v: unknown, d: Pick<Dialect, 'boolLiteral'>): string => {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return d.boolLiteral(v);
  if (typeof v === 'number') return String(v);
  return `'${String(v).replace(/'/g, "''")}'`;
};

/** Identifier quoting, the same in both dialects (standard SQL double quotes). */
export const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;

/** The system tables both dialects share; `id` is the dialect's auto-increment primary key. */
function systemTables(autoId: string, bigint: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS _schema_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, field_type TEXT NOT NULL, PRIMARY KEY (table_name, column_name))`,
    `CREATE TABLE IF NOT EXISTS _migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS _revoked_tokens (jti TEXT PRIMARY KEY, expires_at ${bigint} NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS _password_history (id ${autoId}, account_id ${bigint} NOT NULL, hash TEXT NOT NULL, changed_at TEXT NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS ix_password_history_account ON _password_history (account_id, changed_at)`,
    `CREATE TABLE IF NOT EXISTS _number_series (name TEXT PRIMARY KEY, next_value ${bigint} NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS _settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    // fixed-window counters of the rate limits (per address, per user, login attempts per account), shared by all server processes
    `CREATE TABLE IF NOT EXISTS _rate_counters (key TEXT PRIMARY KEY, window_start ${bigint} NOT NULL, hits ${bigint} NOT NULL)`,
    // failed logins per user ID, known or not (server/auth/login-throttle.ts): the key is a hash of
    // the ID, so the IDs people try are not kept; times in epoch milliseconds
    `CREATE TABLE IF NOT EXISTS _login_failures (key TEXT PRIMARY KEY, failures ${bigint} NOT NULL, last_failure_at ${bigint} NOT NULL, blocked_until ${bigint} NOT NULL)`,
    // uploaded files when they live in the database (PostgreSQL: reachable from every process and machine)
    `CREATE TABLE IF NOT EXISTS _files (name TEXT PRIMARY KEY, data ${bigint === 'BIGINT' ? 'BYTEA' : 'BLOB'} NOT NULL, size ${bigint} NOT NULL, created_at TEXT NOT NULL)`,
    // e-mails waiting to be sent (server/mail/): written in the transaction of the change that causes
    // them, so a rolled-back change sends nothing and a committed one loses nothing. Private: the
    // variables may hold an initial password or a reset link, so no resource or screen reads it.
    `CREATE TABLE IF NOT EXISTS _mail_queue (id ${autoId}, template TEXT NOT NULL, account_id ${bigint} NOT NULL, vars TEXT NOT NULL, status TEXT NOT NULL, attempts ${bigint} NOT NULL, next_attempt_at TEXT NOT NULL, created_at TEXT NOT NULL, sent_at TEXT, last_error TEXT)`,
    `CREATE INDEX IF NOT EXISTS ix_mail_queue_due ON _mail_queue (status, next_attempt_at)`,
  ];
}

export const sqlite: Dialect = {
  name: 'sqlite',
  quote,
  sqlType(f) {
    switch (f.type) {
      case 'integer':
      case 'boolean':
      case 'ref':
        return 'INTEGER';
      case 'decimal':
        return 'REAL';
      default:
        return 'TEXT';
    }
  },
  limitOffset: (limit, offset) => `LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`,
  createTable(t) {
    const cols = t.columns.map((c) =>
      c.primaryKey
        ? `  ${quote(c.name)} INTEGER PRIMARY KEY AUTOINCREMENT`
        : `  ${quote(c.name)} ${c.sqlType}${c.notNull ? ' NOT NULL' : ''}${c.defaultSql !== null ? ` DEFAULT ${c.defaultSql}` : ''}${rangeCheck(c)}`,
    );
    return `CREATE TABLE IF NOT EXISTS ${quote(t.name)} (\n${cols.join(',\n')}\n);`;
  },
  createIndex(table, ix) {
    return `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quote(ix.name)} ON ${quote(table)} (${ix.columns.map(quote).join(', ')});`;
  },
  addColumn(table, c) {
    // SQLite cannot add a NOT NULL column without a default; existing rows get the default
    const notNull = c.notNull && c.defaultSql !== null;
    return `ALTER TABLE ${quote(table)} ADD COLUMN ${quote(c.name)} ${c.sqlType}${notNull ? ' NOT NULL' : ''}${c.defaultSql !== null ? ` DEFAULT ${c.defaultSql}` : ''};`;
  },
  // SQLite's LIKE ignores the case of ASCII letters
  containsOp: (column, param) => `${column} LIKE ${param} ESCAPE '\\'`,
  bool: (v) => (v ? 1 : 0),
  boolLiteral: (v) => (v ? '1' : '0'),
  greatest: (a, b) => `MAX(${a}, ${b})`,
  forUpdate: () => '',
  broadRange: (condition) => `likelihood(${condition}, 0.9)`,
  identifier: (name) => name,
  systemDdl: () => systemTables('INTEGER PRIMARY KEY AUTOINCREMENT', 'INTEGER'),
  columnsQuery: (table) => ({ sql: `SELECT name FROM pragma_table_info(?)`, params: [table] }),
  indexesQuery: (table) => ({ sql: `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`, params: [table] }),
  tableExistsQuery: (table) => ({ sql: `SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?`, params: [table] }),
  // AUTOINCREMENT follows the largest id written, explicit ones included
  resetIdentity: () => [],
  afterBulkLoad: ['PRAGMA wal_checkpoint(TRUNCATE)'],
  // BEGIN IMMEDIATE already holds the one write lock
  migrationLock: null,
  indexesUsingColumnQuery: (table, column) => ({
    sql: `SELECT il.name AS name FROM pragma_index_list(?) il WHERE il.origin = 'c' AND EXISTS (SELECT 1 FROM pragma_index_info(il.name) ii WHERE ii.name = ?)`,
    params: [table, column],
  }),
  retypeColumn: () => [],
};

/** PostgreSQL keeps 63 bytes of a name: a longer one is cut to 54 and given a hash of the whole. */
function pgIdentifier(name: string): string {
  if (Buffer.byteLength(name) <= 63) return name;
  return `${name.slice(0, 54)}_${createHash('sha1').update(name).digest('hex').slice(0, 8)}`;
}

export const postgres: Dialect = {
  name: 'postgres',
  quote,
  sqlType(f) {
    switch (f.type) {
      case 'integer':
      case 'ref':
        return 'BIGINT';
      case 'boolean':
        return 'BOOLEAN';
      case 'decimal':
        return `NUMERIC(${f.precision ?? 18}, ${f.scale ?? 4})`;
      case 'date':
        return 'DATE';
      case 'datetime':
        return 'TIMESTAMPTZ';
      case 'string':
      case 'code':
        return f.maxLength ? `VARCHAR(${f.maxLength})` : 'TEXT';
      default:
        return 'TEXT';
    }
  },
  limitOffset: (limit, offset) => `LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`,
  createTable(t) {
    const cols = t.columns.map((c) =>
      c.primaryKey
        ? `  ${quote(c.name)} BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY`
        : `  ${quote(c.name)} ${c.sqlType}${c.notNull ? ' NOT NULL' : ''}${c.defaultSql !== null ? ` DEFAULT ${c.defaultSql}` : ''}${rangeCheck(c)}`,
    );
    return `CREATE TABLE IF NOT EXISTS ${quote(t.name)} (\n${cols.join(',\n')}\n);`;
  },
  createIndex(table, ix) {
    return `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quote(pgIdentifier(ix.name))} ON ${quote(table)} (${ix.columns.map(quote).join(', ')});`;
  },
  addColumn(table, c) {
    const notNull = c.notNull && c.defaultSql !== null;
    return `ALTER TABLE ${quote(table)} ADD COLUMN ${quote(c.name)} ${c.sqlType}${notNull ? ' NOT NULL' : ''}${c.defaultSql !== null ? ` DEFAULT ${c.defaultSql}` : ''};`;
  },
  // LIKE is case-sensitive in PostgreSQL; ILIKE matches SQLite's behaviour for Latin letters
  containsOp: (column, param) => `${column} ILIKE ${param} ESCAPE '\\'`,
  bool: (v) => v,
  boolLiteral: (v) => (v ? 'TRUE' : 'FALSE'),
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  forUpdate: (alias) => ` FOR UPDATE OF ${alias}`,
  broadRange: (condition) => condition,
  identifier: pgIdentifier,
  systemDdl: () => systemTables('BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY', 'BIGINT'),
  columnsQuery: (table) => ({ sql: `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?`, params: [table] }),
  indexesQuery: (table) => ({ sql: `SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ? AND indexname NOT LIKE '%\\_pkey' ESCAPE '\\'`, params: [table] }),
  tableExistsQuery: (table) => ({ sql: `SELECT 1 AS x FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?`, params: [table] }),
  afterBulkLoad: ['ANALYZE'],
  // any fixed number will do, as long as only migrations use it
  migrationLock: 'SELECT pg_advisory_xact_lock(726202611)',
  // DROP COLUMN drops the indexes that use it
  indexesUsingColumnQuery: () => null,
  retypeColumn: (table, c) => [`ALTER TABLE ${quote(table)} ALTER COLUMN ${quote(c.name)} TYPE ${c.sqlType} USING ${quote(c.name)}::${c.sqlType}`],
  resetIdentity: (table) => [`SELECT setval(pg_get_serial_sequence('${quote(table).replace(/'/g, "''")}', 'id'), GREATEST((SELECT MAX(id) FROM ${quote(table)}), 1), (SELECT MAX(id) FROM ${quote(table)}) IS NOT NULL)`],
};

export const DIALECTS: Record<DialectName, Dialect> = { sqlite, postgres };

/**
 * `?` placeholders to PostgreSQL's `$1, $2, ...`. Question marks inside string literals, quoted
 * identifiers and comments are left alone. The engine writes `?` everywhere; only the PostgreSQL
 * driver calls this (and caches the result per statement text).
 */
export function numberedPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop + 1);
      i = stop;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') {
      out += `$${++n}`;
    } else out += c;
  }
  return out;
}

/** Escapes LIKE wildcards so a user's "50%" searches for the characters, not a pattern. */
export const likePattern = (s: string): string => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The column constraint of a declared range (CREATE TABLE only; see ColumnDef.range). */
function rangeCheck(c: ColumnDef): string {
  return c.range ? ` CHECK (${quote(c.name)} IS NULL OR ${quote(c.name)} BETWEEN ${c.range.min} AND ${c.range.max})` : '';
}
const INT32 = { min: -2147483648, max: 2147483647 };

export function tableDef(e: CompiledEntity, d: Pick<Dialect, 'sqlType' | 'boolLiteral' | 'identifier'>): TableDef {
  const columns: ColumnDef[] = e.fieldOrder.map((n) => {
    const f = e.fields[n];
    const isPk = n === 'id';
    const def = f.default !== undefined ? literal(f.default, d) : n === 'version' ? '1' : null;
    // every numeric field declares its range (codegen checks it); the engine's own columns declare none
    const range = f.system ? null : numericRange(f);
    const sqlType = d.sqlType(f);
    return {
      name: f.column,
      fieldType: f.type === 'code' ? `code:${f.codeTable}` : f.type,
      // PostgreSQL's 8-byte BIGINT becomes its 4-byte INTEGER where the range fits 32 bits (SQLite's
      // INTEGER already stores each value in as few bytes as it needs); a migration compares the
      // field type, not this, so existing BIGINT columns stay as they are
      sqlType: sqlType === 'BIGINT' && f.type === 'integer' && range && range.min >= INT32.min && range.max <= INT32.max ? 'INTEGER' : sqlType,
      // required fields are enforced by validation; NOT NULL guards what the engine itself writes
      notNull: isPk || n === 'version' || (f.required && !f.readOnly),
      primaryKey: isPk,
      defaultSql: def,
      ...(range ? { range } : {}),
    };
  });
  const indexes: IndexDef[] = e.indexes.map((ix) => ({ name: d.identifier(ix.name), unique: ix.unique, columns: ix.fields.map((fn) => e.fields[fn].column) }));
  return { name: e.table, columns, indexes };
}

export function tableDefs(meta: CompiledMetadata, d: Dialect): TableDef[] {
  return Object.values(meta.entities).map((e) => tableDef(e, d)).sort((a, b) => a.name.localeCompare(b.name));
}

export function schemaSql(meta: CompiledMetadata, d: Dialect): string {
  const parts: string[] = [];
  for (const t of tableDefs(meta, d)) {
    const e = Object.values(meta.entities).find((x) => x.table === t.name)!;
    parts.push(`-- ${e.name} (${e.resource})`, d.createTable(t), ...t.indexes.map((ix) => d.createIndex(t.name, ix)), '');
  }
  return parts.join('\n');
}
