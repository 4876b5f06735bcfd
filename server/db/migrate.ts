/**
 * Creates and migrates tables from the generated table model (server/generated/tables.json).
 * Safe changes happen by themselves: a new entity creates its table, a new field adds a column, a
 * new index is built. A change that would lose or reinterpret data (a column or table that metadata
 * no longer has, a field whose type changed) is refused with a message that says which migration
 * file would allow it, unless a migration in metadata/migrations/ says what to do.
 */
import type { DB } from './open.ts';
import { sqlite as d, type ColumnDef, type TableDef } from '../../codegen/runtime/dialect.ts';

export interface MigrationStep {
  op: 'dropColumn' | 'renameColumn' | 'retypeColumn' | 'dropTable';
  table: string;
  column?: string;
  from?: string;
  to?: string;
}
export interface Migration { id: string; steps: MigrationStep[] }

export class MigrationRefused extends Error {
  constructor(readonly problems: string[]) {
    super(`The database cannot follow the metadata without losing data:\n  - ${problems.join('\n  - ')}\nAdd a migration file in metadata/migrations/ (ops dropColumn, renameColumn, retypeColumn, dropTable) that says what to do, then start again.`);
    this.name = 'MigrationRefused';
  }
}

/** Tables of the engine itself (not metadata entities). */
const SYSTEM_DDL = [
  `CREATE TABLE IF NOT EXISTS _schema_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, field_type TEXT NOT NULL, PRIMARY KEY (table_name, column_name))`,
  `CREATE TABLE IF NOT EXISTS _migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS _revoked_tokens (jti TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS _password_history (account_id INTEGER NOT NULL, hash TEXT NOT NULL, changed_at TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS ix_password_history_account ON _password_history (account_id, changed_at)`,
  `CREATE TABLE IF NOT EXISTS _number_series (name TEXT PRIMARY KEY, next_value INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS _settings (name TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  // login attempts per account (success or not), for the per-account rate limit; shared by all server processes
  `CREATE TABLE IF NOT EXISTS _login_attempts (user_id TEXT NOT NULL, at INTEGER NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS ix_login_attempts ON _login_attempts (user_id, at)`,
];

const q = (s: string) => d.quote(s);

function existingColumns(db: DB, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${q(table)})`).all() as { name: string }[]).map((r) => r.name);
}
function tableExists(db: DB, table: string): boolean {
  return !!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table);
}

function recordColumns(db: DB, t: TableDef, cols: ColumnDef[]): void {
  const up = db.prepare(`INSERT INTO _schema_columns (table_name, column_name, field_type) VALUES (?, ?, ?) ON CONFLICT (table_name, column_name) DO UPDATE SET field_type = excluded.field_type`);
  for (const c of cols) up.run(t.name, c.name, c.fieldType);
}

function applyMigration(db: DB, m: Migration): void {
  for (const s of m.steps) {
    switch (s.op) {
      case 'dropColumn':
        // SQLite refuses to drop a column an index uses: drop those indexes first (the ones the
        // metadata still wants are built again below)
        for (const ix of db.prepare(`SELECT name FROM pragma_index_list(?) WHERE origin = 'c'`).all(s.table) as { name: string }[]) {
          const cols = (db.prepare(`SELECT name FROM pragma_index_info(?)`).all(ix.name) as { name: string }[]).map((c) => c.name);
          if (cols.includes(s.column!)) db.exec(`DROP INDEX ${q(ix.name)}`);
        }
        db.exec(`ALTER TABLE ${q(s.table)} DROP COLUMN ${q(s.column!)}`);
        db.prepare(`DELETE FROM _schema_columns WHERE table_name = ? AND column_name = ?`).run(s.table, s.column);
        break;
      case 'renameColumn':
        db.exec(`ALTER TABLE ${q(s.table)} RENAME COLUMN ${q(s.from!)} TO ${q(s.to!)}`);
        db.prepare(`UPDATE _schema_columns SET column_name = ? WHERE table_name = ? AND column_name = ?`).run(s.to, s.table, s.from);
        break;
      case 'retypeColumn':
        // the stored type is re-read from the metadata below; values keep SQLite's dynamic typing
        db.prepare(`DELETE FROM _schema_columns WHERE table_name = ? AND column_name = ?`).run(s.table, s.column);
        break;
      case 'dropTable':
        db.exec(`DROP TABLE IF EXISTS ${q(s.table)}`);
        db.prepare(`DELETE FROM _schema_columns WHERE table_name = ?`).run(s.table);
        break;
    }
  }
  db.prepare(`INSERT INTO _migrations (id, applied_at) VALUES (?, ?)`).run(m.id, new Date().toISOString());
}

export interface MigrateReport { created: string[]; addedColumns: string[]; createdIndexes: string[]; droppedIndexes: string[]; migrations: string[] }

export function migrate(db: DB, tables: TableDef[], migrations: Migration[] = []): MigrateReport {
  const report: MigrateReport = { created: [], addedColumns: [], createdIndexes: [], droppedIndexes: [], migrations: [] };
  const run = db.transaction(() => {
    for (const sql of SYSTEM_DDL) db.exec(sql);
    const applied = new Set((db.prepare(`SELECT id FROM _migrations`).all() as { id: string }[]).map((r) => r.id));
    for (const m of [...migrations].sort((a, b) => a.id.localeCompare(b.id))) {
      if (applied.has(m.id)) continue;
      applyMigration(db, m);
      report.migrations.push(m.id);
    }
    const problems: string[] = [];
    const wanted = new Set(tables.map((t) => t.name));
    const known = (db.prepare(`SELECT DISTINCT table_name FROM _schema_columns`).all() as { table_name: string }[]).map((r) => r.table_name);
    for (const t of known) if (!wanted.has(t) && tableExists(db, t)) problems.push(`table "${t}" holds data but no entity describes it any more (migration op "dropTable")`);
    for (const t of tables) {
      if (!tableExists(db, t.name)) {
        db.exec(d.createTable(t));
        recordColumns(db, t, t.columns);
        report.created.push(t.name);
      } else {
        const have = new Set(existingColumns(db, t.name));
        const types = new Map((db.prepare(`SELECT column_name, field_type FROM _schema_columns WHERE table_name = ?`).all(t.name) as { column_name: string; field_type: string }[]).map((r) => [r.column_name, r.field_type]));
        const wantCols = new Set(t.columns.map((c) => c.name));
        for (const c of have) if (!wantCols.has(c)) problems.push(`table "${t.name}": column "${c}" is no longer in the metadata (migration op "dropColumn" or "renameColumn")`);
        for (const c of t.columns) {
          if (!have.has(c.name)) {
            db.exec(d.addColumn(t.name, c));
            report.addedColumns.push(`${t.name}.${c.name}`);
          } else if (types.has(c.name) && types.get(c.name) !== c.fieldType) {
            problems.push(`table "${t.name}": column "${c.name}" changes type from ${types.get(c.name)} to ${c.fieldType} (migration op "retypeColumn")`);
          }
        }
        recordColumns(db, t, t.columns.filter((c) => !types.has(c.name) || types.get(c.name) === c.fieldType));
      }
      const haveIx = new Set((db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`).all(t.name) as { name: string }[]).map((r) => r.name));
      const wantIx = new Set(t.indexes.map((i) => i.name));
      for (const ix of t.indexes) {
        if (!haveIx.has(ix.name)) {
          db.exec(d.createIndex(t.name, ix));
          report.createdIndexes.push(ix.name);
        }
      }
      for (const ix of haveIx) {
        if (!wantIx.has(ix) && /^(ix|ux)_/.test(ix)) {
          db.exec(`DROP INDEX ${q(ix)}`);
          report.droppedIndexes.push(ix);
        }
      }
    }
    if (problems.length) throw new MigrationRefused(problems);
  });
  run.immediate();
  return report;
}
