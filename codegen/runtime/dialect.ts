/**
 * Every SQL dialect specific lives here: column types, identifier quoting, placeholders,
 * pagination and DDL. SQLite is the embedded default; PostgreSQL is the planned second dialect
 * (several stateless server processes over one database), so nothing outside this module writes
 * a dialect-specific word. Only SQLite is implemented today; `postgres` covers the DDL types so
 * the generated schema can already be reviewed for it.
 */
import type { CompiledEntity, CompiledField, CompiledMetadata } from './model.ts';

export interface ColumnDef {
  name: string;
  /** logical type of the field, kept so a migration can tell a retype from a new column */
  fieldType: string;
  sqlType: string;
  notNull: boolean;
  primaryKey: boolean;
  /** SQL literal or null */
  defaultSql: string | null;
}
export interface IndexDef { name: string; columns: string[]; unique: boolean }
export interface TableDef { name: string; columns: ColumnDef[]; indexes: IndexDef[] }

export interface Dialect {
  name: 'sqlite' | 'postgres';
  quote(identifier: string): string;
  /** placeholder for the i-th (0-based) parameter */
  param(i: number): string;
  sqlType(f: CompiledField): string;
  limitOffset(limit: number, offset: number): string;
  createTable(t: TableDef): string;
  createIndex(table: string, ix: IndexDef): string;
  addColumn(table: string, c: ColumnDef): string;
  /** case-insensitive LIKE with '\' as escape character */
  containsOp(column: string, param: string): string;
  /** stored form of booleans */
  bool(v: boolean): unknown;
}

const literal = (v: unknown): string => {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') return String(v);
  return `'${String(v).replace(/'/g, "''")}'`;
};

export const sqlite: Dialect = {
  name: 'sqlite',
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  param: () => '?',
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
        ? `  ${this.quote(c.name)} INTEGER PRIMARY KEY AUTOINCREMENT`
        : `  ${this.quote(c.name)} ${c.sqlType}${c.notNull ? ' NOT NULL' : ''}${c.defaultSql !== null ? ` DEFAULT ${c.defaultSql}` : ''}`,
    );
    return `CREATE TABLE IF NOT EXISTS ${this.quote(t.name)} (\n${cols.join(',\n')}\n);`;
  },
  createIndex(table, ix) {
    return `CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${this.quote(ix.name)} ON ${this.quote(table)} (${ix.columns.map((c) => this.quote(c)).join(', ')});`;
  },
  addColumn(table, c) {
    // SQLite cannot add a NOT NULL column without a default; existing rows get the default
    const notNull = c.notNull && c.defaultSql !== null;
    return `ALTER TABLE ${this.quote(table)} ADD COLUMN ${this.quote(c.name)} ${c.sqlType}${notNull ? ' NOT NULL' : ''}${c.defaultSql !== null ? ` DEFAULT ${c.defaultSql}` : ''};`;
  },
  containsOp: (column, param) => `${column} LIKE ${param} ESCAPE '\\'`,
  bool: (v) => (v ? 1 : 0),
};

export const postgres: Pick<Dialect, 'name' | 'sqlType' | 'quote'> = {
  name: 'postgres',
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
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
};

/** Escapes LIKE wildcards so a user's "50%" searches for the characters, not a pattern. */
export const likePattern = (s: string): string => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function tableDef(e: CompiledEntity, d: Pick<Dialect, 'sqlType'>): TableDef {
  const columns: ColumnDef[] = e.fieldOrder.map((n) => {
    const f = e.fields[n];
    const isPk = n === 'id';
    const def = f.default !== undefined ? literal(f.default) : n === 'version' ? '1' : null;
    return {
      name: f.column,
      fieldType: f.type === 'code' ? `code:${f.codeTable}` : f.type,
      sqlType: d.sqlType(f),
      // required fields are enforced by validation; NOT NULL guards what the engine itself writes
      notNull: isPk || n === 'version' || (f.required && !f.readOnly),
      primaryKey: isPk,
      defaultSql: def,
    };
  });
  const indexes: IndexDef[] = e.indexes.map((ix) => ({ name: ix.name, unique: ix.unique, columns: ix.fields.map((fn) => e.fields[fn].column) }));
  return { name: e.table, columns, indexes };
}

export function schemaSql(meta: CompiledMetadata, d: Dialect): string {
  const parts: string[] = [];
  for (const e of Object.values(meta.entities).sort((a, b) => a.table.localeCompare(b.table))) {
    const t = tableDef(e, d);
    parts.push(`-- ${e.name} (${e.resource})`, d.createTable(t), ...t.indexes.map((ix) => d.createIndex(t.name, ix)), '');
  }
  return parts.join('\n');
}
