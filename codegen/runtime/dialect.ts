/**
 * Every SQL dialect specific lives here: column types, identifier quoting, placeholders,
 * pagination, booleans, LIKE, upserts, row locks, planner hints, catalogue look-ups and DDL.
 * SQLite is the embedded default; PostgreSQL serves several stateless server processes over one
 * database. Engine code writes its SQL with `?` placeholders and the few words below; nothing
 * outside this module writes a dialect-specific word.
 *
 * Why not a query builder (knex, kysely): every statement is composed at run time from metadata
 * (tables, columns, filters, scopes), where a builder's compile-time types do not help, and the
 * words that differ between the two databases are few enough to keep in one reviewed file
 * (docs/adr/0009-sql-dialect-not-query-builder.md).
 */
import { homeTables } from './home-tables.ts';
import { createHash } from 'node:crypto';
import type { CompiledEntity, CompiledField, CompiledMetadata } from './model.ts';
import { numericRange } from './field-schema.ts';

export interface ColumnDef {
  name: string;
  /** the metadata field it stores (messages of the migration name it) */
  field?: string;
  /** logical type of the field, kept so a migration can tell a retype from a new column */
  fieldType: string;
  sqlType: string;
  notNull: boolean;
  primaryKey: boolean;
  /** SQL literal or null */
  defaultSql: string | null;
  /**
   * The field's declared range (numeric fields, field-schema.ts numericRange): the column gets
   * `CHECK (col IS NULL OR col BETWEEN min AND max)`, in a new table and, when the range changes,
   * in an existing one (server/db/migrate.ts).
   */
  range?: { min: number; max: number };
}
export interface IndexDef {
  name: string;
  columns: string[];
  unique: boolean;
}
export interface TableDef {
  name: string;
  columns: ColumnDef[];
  indexes: IndexDef[];
  /** the entity and the metadata file it comes from (messages of the migration name them) */
  entity?: string;
  source?: string;
  /** the SELECT of a view entity (metadata "view"): created as a view, no columns or indexes of its own */
  view?: string;
}

/** What the migration compares to tell whether an existing column must change (recorded in _schema_columns.definition). */
export type ColumnShape = Pick<ColumnDef, 'sqlType' | 'notNull' | 'defaultSql' | 'range'>;
export const columnShape = (c: ColumnDef): ColumnShape => ({
  sqlType: c.sqlType,
  notNull: c.notNull,
  defaultSql: c.defaultSql,
  ...(c.range ? { range: c.range } : {}),
});

export type DialectName = 'sqlite' | 'postgres';

export interface Dialect {
  name: DialectName;
  quote(identifier: string): string;
  sqlType(f: CompiledField): string;
  limitOffset(limit: number, offset: number): string;
  createTable(t: TableDef): string;
  createIndex(table: string, ix: IndexDef): string;
  /** a column as CREATE TABLE declares it, without its name: type, NOT NULL, DEFAULT, CHECK */
  columnDefinition(c: ColumnDef): string;
  /** adds a column declared exactly as `c` says (SQLite refuses NOT NULL without a default: the caller asks only for what it can do) */
  addColumn(table: string, c: ColumnDef): string;
  /** true: alterColumn changes a column in place; false (SQLite): the table is rebuilt instead (rebuildTable) */
  altersColumnsInPlace: boolean;
  /**
   * Statements that change an existing column from `from` (null: unknown) to `to` in place: type,
   * default, NOT NULL, the range CHECK (`checks`: the names of the column's CHECK constraints now).
   */
  alterColumn(table: string, from: ColumnShape | null, to: ColumnDef, checks: string[]): string[];
  /**
   * Statements that rebuild a table as `t` declares it, copying the columns `copy` from the old
   * one (SQLite's way to change a column: create, copy, drop, rename). Indexes go with the old
   * table and are built again by the caller.
   */
  rebuildTable(t: TableDef, copy: string[]): string[];
  /** SQL + params: the names of a column's CHECK constraints (rows { name }); null where constraints have no names (SQLite) */
  checkConstraintsQuery(table: string, column: string): { sql: string; params: unknown[] } | null;
  /** case-insensitive LIKE with '\' as escape character */
  containsOp(column: string, param: string): string;
  /** stored form of booleans (a parameter value) */
  bool(v: boolean): unknown;
  /** a boolean literal inside SQL text */
  boolLiteral(v: boolean): string;
  /** the larger of two expressions */
  greatest(a: string, b: string): string;
  /** the UTC day (yyyy-MM-dd text) of a date or datetime column: a chart's day bucket */
  dayOf(column: string, type: 'date' | 'datetime'): string;
  /**
   * A query whose one row's `stamp` changes whenever a write may have been committed since it was
   * last read, by this process or any other (server/home/stamped-cache.ts). SQLite: the
   * connection's own changes and its data_version (which moves when another connection commits).
   * PostgreSQL: the current snapshot (it moves when any transaction that wrote ends).
   */
  changeStampSql: string;
  /**
   * The tail of a SELECT that reads rows it is about to change (`alias` is the table's alias).
   * PostgreSQL: a row lock, so a second transaction waits and then re-reads the committed row.
   * SQLite: nothing; an IMMEDIATE transaction already holds the database's one write lock.
   */
  forUpdate(alias: string): string;
  /**
   * A statement that keeps other transactions from writing `table`, and from taking this same lock,
   * until this one ends, while they may still read it (a chart's sums rebuilt from the rows:
   * server/home/chart-sums-build.ts). PostgreSQL: LOCK TABLE ... IN SHARE ROW EXCLUSIVE MODE (it
   * conflicts with the writers' ROW EXCLUSIVE and with itself, not with reads). SQLite: null; an
   * IMMEDIATE transaction already holds the database's one write lock.
   */
  lockAgainstWrites(table: string): string | null;
  /**
   * The tail of a SELECT that claims work rows several processes compete for (the outbox, the
   * mail sender). PostgreSQL: rows another transaction holds are skipped, not waited for, so two
   * processes never take the same row and never queue behind each other. SQLite: nothing; the claim
   * runs in an IMMEDIATE transaction, which no other process can enter meanwhile.
   */
  skipLocked(alias: string): string;
  /**
   * How a list query should weigh a range condition. SQLite keeps no statistics and takes every
   * range for a narrow one (query.ts explains the hint); PostgreSQL has statistics and needs none.
   */
  broadRange(condition: string): string;
  /** identifiers the database keeps whole (PostgreSQL cuts names at 63 bytes) */
  identifier(name: string): string;
  /** the engine's own tables (not metadata entities) */
  systemDdl(): string[];
  /** SQL + params listing the columns of a table: rows { name, not_null } (not_null 1 or 0) */
  columnsQuery(table: string): { sql: string; params: unknown[] };
  /** SQL + params listing the indexes of a table the engine created: rows { name } */
  indexesQuery(table: string): { sql: string; params: unknown[] };
  /** SQL + params: one row when the table exists */
  tableExistsQuery(table: string): { sql: string; params: unknown[] };
  viewExistsQuery(view: string): { sql: string; params: unknown[] };
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
    // how each column of an entity table was declared (field type; definition: type, NOT NULL, default, range as JSON), so a migration sees what changed
    `CREATE TABLE IF NOT EXISTS _schema_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, field_type TEXT NOT NULL, definition TEXT, PRIMARY KEY (table_name, column_name))`,
    `CREATE TABLE IF NOT EXISTS _migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS _revoked_tokens (jti TEXT PRIMARY KEY, expires_at ${bigint} NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS _password_history (id ${autoId}, account_id ${bigint} NOT NULL, hash TEXT NOT NULL, changed_at TEXT NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS ix_password_history_account ON _password_history (account_id, changed_at)`,
    `CREATE TABLE IF NOT EXISTS _number_series (name TEXT PRIMARY KEY, next_value ${bigint} NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS _settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    // fixed-window counters of the rate limits (per address, per user, login attempts per account,
    // reset mails per hour), shared by all server processes; each row lives until its own window
    // ends (expires_at, epoch ms), then a bounded sweep removes it (server/plugins/rate-limit.ts).
    // It replaces _rate_counters, whose rows carried no window length (a counter's loss is harmless)
    `DROP TABLE IF EXISTS _rate_counters`,
    `CREATE TABLE IF NOT EXISTS _rate_windows (key TEXT PRIMARY KEY, window_start ${bigint} NOT NULL, expires_at ${bigint} NOT NULL, hits ${bigint} NOT NULL)`,
    `CREATE INDEX IF NOT EXISTS ix_rate_windows_expiry ON _rate_windows (expires_at)`,
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
    // mails sent once per key (the password-expiry reminder: one per account and expiry): the key is
    // written with the mail, in its transaction, so of two processes only the first queues it
    `CREATE TABLE IF NOT EXISTS _mail_once (key TEXT PRIMARY KEY, created_at TEXT NOT NULL)`,
    // self-service password-reset links: only the SHA-256 of the 256-bit token is kept; a link
    // expires (expires_at) and works once (used_at)
    `CREATE TABLE IF NOT EXISTS _password_reset_tokens (token_hash TEXT PRIMARY KEY, account_id ${bigint} NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL, used_at TEXT)`,
    `CREATE INDEX IF NOT EXISTS ix_password_reset_tokens_account ON _password_reset_tokens (account_id)`,
    // inbound interfaces (server/inbound/): the first answer to each accepted message, by sender,
    // interface and the sender's idempotency key, written in the message's own transaction: a
    // repeated key is answered from here and changes nothing, whichever process sees it
    `CREATE TABLE IF NOT EXISTS _inbound_keys (client_id TEXT NOT NULL, interface_code TEXT NOT NULL, idempotency_key TEXT NOT NULL, answer TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (client_id, interface_code, idempotency_key))`,
    ...homeTables(autoId, bigint),
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
    return `CREATE TABLE IF NOT EXISTS ${quote(t.name)} (\n${t.columns.map((c) => `  ${quote(c.name)} ${sqlite.columnDefinition(c)}`).join(',\n')}\n);`;
  },
  createIndex(table, ix) {
    return `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quote(ix.name)} ON ${quote(table)} (${ix.columns.map(quote).join(', ')});`;
  },
  columnDefinition: (c) => (c.primaryKey ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : plainColumn(c)),
  // existing rows get the default; SQLite refuses NOT NULL without one (the migration rebuilds the table instead)
  addColumn: (table, c) => `ALTER TABLE ${quote(table)} ADD COLUMN ${quote(c.name)} ${plainColumn(c)};`,
  altersColumnsInPlace: false,
  alterColumn: () => {
    throw new Error('SQLite rebuilds the table to change a column (rebuildTable)');
  },
  rebuildTable(t, copy) {
    const tmp = `${t.name}__rebuild`;
    const cols = copy.map(quote).join(', ');
    return [
      `DROP TABLE IF EXISTS ${quote(tmp)}`,
      sqlite.createTable({ ...t, name: tmp }),
      `INSERT INTO ${quote(tmp)} (${cols}) SELECT ${cols} FROM ${quote(t.name)}`,
      // AUTOINCREMENT never hands out an id again, deleted rows' included: the new table goes on
      // from the old one's high-water mark (RENAME carries it over to the new name)
      `INSERT INTO sqlite_sequence (name, seq) SELECT '${tmp.replace(/'/g, "''")}', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = '${tmp.replace(/'/g, "''")}')`,
      `UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE((SELECT seq FROM sqlite_sequence WHERE name = '${t.name.replace(/'/g, "''")}'), 0)) WHERE name = '${tmp.replace(/'/g, "''")}'`,
      `DROP TABLE ${quote(t.name)}`,
      `ALTER TABLE ${quote(tmp)} RENAME TO ${quote(t.name)}`,
    ];
  },
  checkConstraintsQuery: () => null,
  // SQLite's LIKE ignores the case of ASCII letters
  containsOp: (column, param) => `${column} LIKE ${param} ESCAPE '\\'`,
  bool: (v) => (v ? 1 : 0),
  boolLiteral: (v) => (v ? '1' : '0'),
  greatest: (a, b) => `MAX(${a}, ${b})`,
  // dates are stored as yyyy-MM-dd and datetimes as ISO texts in UTC: the day is the first 10 characters
  dayOf: (column) => `substr(${column}, 1, 10)`,
  changeStampSql: `SELECT total_changes() || ':' || (SELECT data_version FROM pragma_data_version()) AS stamp`,
  forUpdate: () => '',
  lockAgainstWrites: () => null,
  skipLocked: () => '',
  broadRange: (condition) => `likelihood(${condition}, 0.9)`,
  identifier: (name) => name,
  systemDdl: () => systemTables('INTEGER PRIMARY KEY AUTOINCREMENT', 'INTEGER'),
  columnsQuery: (table) => ({ sql: `SELECT name, "notnull" AS not_null FROM pragma_table_info(?)`, params: [table] }),
  indexesQuery: (table) => ({ sql: `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`, params: [table] }),
  tableExistsQuery: (table) => ({ sql: `SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?`, params: [table] }),
  viewExistsQuery: (view) => ({ sql: `SELECT 1 AS x FROM sqlite_master WHERE type = 'view' AND name = ?`, params: [view] }),
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
    return `CREATE TABLE IF NOT EXISTS ${quote(t.name)} (\n${t.columns.map((c) => `  ${quote(c.name)} ${postgres.columnDefinition(c)}`).join(',\n')}\n);`;
  },
  createIndex(table, ix) {
    return `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quote(pgIdentifier(ix.name))} ON ${quote(table)} (${ix.columns.map(quote).join(', ')});`;
  },
  columnDefinition: (c) => (c.primaryKey ? 'BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY' : plainColumn(c)),
  addColumn: (table, c) => `ALTER TABLE ${quote(table)} ADD COLUMN ${quote(c.name)} ${plainColumn(c)};`,
  altersColumnsInPlace: true,
  alterColumn(table, from, to, checks) {
    const t = quote(table);
    const col = quote(to.name);
    const out: string[] = [];
    if (from?.sqlType !== to.sqlType) out.push(`ALTER TABLE ${t} ALTER COLUMN ${col} TYPE ${to.sqlType} USING ${col}::${to.sqlType}`);
    if (from?.defaultSql !== to.defaultSql)
      out.push(
        to.defaultSql === null ? `ALTER TABLE ${t} ALTER COLUMN ${col} DROP DEFAULT` : `ALTER TABLE ${t} ALTER COLUMN ${col} SET DEFAULT ${to.defaultSql}`,
      );
    if (from?.notNull !== to.notNull) out.push(`ALTER TABLE ${t} ALTER COLUMN ${col} ${to.notNull ? 'SET' : 'DROP'} NOT NULL`);
    if (!from || JSON.stringify(from.range ?? null) !== JSON.stringify(to.range ?? null)) {
      for (const name of checks) out.push(`ALTER TABLE ${t} DROP CONSTRAINT ${quote(name)}`);
      // named as CREATE TABLE names a column's CHECK, so a migrated table looks like a new one
      if (to.range) out.push(`ALTER TABLE ${t} ADD CONSTRAINT ${quote(pgIdentifier(`${table}_${to.name}_check`))}${rangeCheck(to)}`);
    }
    return out;
  },
  rebuildTable: () => {
    throw new Error('PostgreSQL changes columns in place (alterColumn)');
  },
  checkConstraintsQuery: (table, column) => ({
    sql: `SELECT con.conname AS name FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid JOIN pg_namespace ns ON ns.oid = rel.relnamespace JOIN pg_attribute att ON att.attrelid = rel.oid AND att.attnum = ANY (con.conkey) WHERE con.contype = 'c' AND ns.nspname = current_schema() AND rel.relname = ? AND att.attname = ? ORDER BY con.conname`,
    params: [table, column],
  }),
  // LIKE is case-sensitive in PostgreSQL; ILIKE matches SQLite's behaviour for Latin letters
  containsOp: (column, param) => `${column} ILIKE ${param} ESCAPE '\\'`,
  bool: (v) => v,
  boolLiteral: (v) => (v ? 'TRUE' : 'FALSE'),
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  dayOf: (column, type) => (type === 'date' ? `to_char(${column}, 'YYYY-MM-DD')` : `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`),
  changeStampSql: `SELECT pg_current_snapshot()::text AS stamp`,
  forUpdate: (alias) => ` FOR UPDATE OF ${alias}`,
  lockAgainstWrites: (table) => `LOCK TABLE ${quote(table)} IN SHARE ROW EXCLUSIVE MODE`,
  skipLocked: (alias) => ` FOR UPDATE OF ${alias} SKIP LOCKED`,
  broadRange: (condition) => condition,
  identifier: pgIdentifier,
  systemDdl: () => systemTables('BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY', 'BIGINT'),
  columnsQuery: (table) => ({
    sql: `SELECT column_name AS name, CASE WHEN is_nullable = 'NO' THEN 1 ELSE 0 END AS not_null FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?`,
    params: [table],
  }),
  indexesQuery: (table) => ({
    sql: `SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ? AND indexname NOT LIKE '%\\_pkey' ESCAPE '\\'`,
    params: [table],
  }),
  tableExistsQuery: (table) => ({
    sql: `SELECT 1 AS x FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?`,
    params: [table],
  }),
  viewExistsQuery: (view) => ({ sql: `SELECT 1 AS x FROM information_schema.views WHERE table_schema = current_schema() AND table_name = ?`, params: [view] }),
  afterBulkLoad: ['ANALYZE'],
  // any fixed number will do, as long as only migrations use it
  migrationLock: 'SELECT pg_advisory_xact_lock(726202611)',
  // DROP COLUMN drops the indexes that use it
  indexesUsingColumnQuery: () => null,
  retypeColumn: (table, c) => [`ALTER TABLE ${quote(table)} ALTER COLUMN ${quote(c.name)} TYPE ${c.sqlType} USING ${quote(c.name)}::${c.sqlType}`],
  resetIdentity: (table) => [
    `SELECT setval(pg_get_serial_sequence('${quote(table).replace(/'/g, "''")}', 'id'), GREATEST((SELECT MAX(id) FROM ${quote(table)}), 1), (SELECT MAX(id) FROM ${quote(table)}) IS NOT NULL)`,
  ],
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

/** A column's type, NOT NULL, DEFAULT and range CHECK (both dialects write them alike). */
function plainColumn(c: ColumnDef): string {
  return `${c.sqlType}${c.notNull ? ' NOT NULL' : ''}${c.defaultSql !== null ? ` DEFAULT ${c.defaultSql}` : ''}${rangeCheck(c)}`;
}

/** The column constraint of a declared range (see ColumnDef.range). */
function rangeCheck(c: Pick<ColumnDef, 'name' | 'range'>): string {
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
      field: f.name,
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
  return { name: e.table, columns, indexes, entity: e.name };
}

export function tableDefs(meta: CompiledMetadata, d: Dialect): TableDef[] {
  return Object.values(meta.entities)
    .map((e) => (e.view ? viewDef(e, meta, d) : tableDef(e, d)))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * A view entity (metadata "view"): one row per group of its source's rows, `id` the smallest id of
 * the group (stable, unique), the group-by columns, and each aggregate (COUNT(*), or SUM of a
 * source field; decimals rounded to the view field's scale, as SQLite sums in floating point).
 * Soft-deleted source rows are left out.
 */
export function viewDef(e: CompiledEntity, meta: CompiledMetadata, d: Pick<Dialect, 'boolLiteral'>): TableDef {
  const v = e.view!;
  const src = meta.entities[v.from];
  const col = (n: string) => `s.${quote(src.fields[n].column)}`;
  const select = [
    `MIN(s.${quote('id')}) AS ${quote('id')}`,
    ...v.groupBy.map((n) => `${col(n)} AS ${quote(e.fields[n].column)}`),
    ...Object.entries(v.aggregates).map(([n, a]) => {
      const f = e.fields[n];
      const expr = a.fn === 'count' ? 'COUNT(*)' : `SUM(${col(a.field!)})`;
      return `${f.type === 'decimal' ? `ROUND(${expr}, ${f.scale ?? 0})` : expr} AS ${quote(f.column)}`;
    }),
  ];
  const where = src.softDelete ? ` WHERE ${col(src.softDelete)} = ${d.boolLiteral(false)}` : '';
  return {
    name: e.table,
    columns: [],
    indexes: [],
    entity: e.name,
    view: `SELECT ${select.join(', ')} FROM ${quote(src.table)} s${where} GROUP BY ${v.groupBy.map(col).join(', ')}`,
  };
}

export function schemaSql(meta: CompiledMetadata, d: Dialect): string {
  const parts: string[] = [];
  for (const t of tableDefs(meta, d)) {
    const e = Object.values(meta.entities).find((x) => x.table === t.name)!;
    if (t.view) parts.push(`-- ${e.name} (${e.resource}): a view of ${e.view?.from}`, `CREATE VIEW ${quote(t.name)} AS ${t.view};`, '');
    else parts.push(`-- ${e.name} (${e.resource})`, d.createTable(t), ...t.indexes.map((ix) => d.createIndex(t.name, ix)), '');
  }
  return parts.join('\n');
}
