/**
 * Creates and migrates tables from the generated table model (server/generated/tables.json, one
 * model per dialect). Safe changes happen by themselves: a new entity creates its table, a new
 * field adds a column, a new index is built. A change that would lose or reinterpret data (a
 * column or table that metadata no longer has, a field whose type changed) is refused with a
 * message that says which migration file would allow it, unless a migration in
 * metadata/migrations/ says what to do. Everything happens in one transaction (PostgreSQL DDL is
 * transactional too), so a refused or failed migration leaves the database as it was.
 */
import type { Db, Queryable } from './types.ts';
import type { ColumnDef, TableDef } from '../../codegen/runtime/dialect.ts';

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

export interface MigrateReport { created: string[]; addedColumns: string[]; createdIndexes: string[]; droppedIndexes: string[]; migrations: string[] }

async function names(tx: Queryable, q: { sql: string; params: unknown[] } | null): Promise<string[]> {
  if (!q) return [];
  return (await tx.all<{ name: string }>(q.sql, q.params)).map((r) => r.name);
}

async function recordColumns(tx: Queryable, t: TableDef, cols: ColumnDef[]): Promise<void> {
  for (const c of cols) {
    await tx.run(`INSERT INTO _schema_columns (table_name, column_name, field_type) VALUES (?, ?, ?) ON CONFLICT (table_name, column_name) DO UPDATE SET field_type = excluded.field_type`, [t.name, c.name, c.fieldType]);
  }
}

async function applyMigration(tx: Queryable, m: Migration, tables: TableDef[]): Promise<void> {
  const d = tx.dialect;
  const q = d.quote;
  for (const s of m.steps) {
    switch (s.op) {
      case 'dropColumn':
        // SQLite refuses to drop a column an index uses: drop those indexes first (the ones the
        // metadata still wants are built again below)
        for (const ix of await names(tx, d.indexesUsingColumnQuery(s.table, s.column!))) await tx.run(`DROP INDEX ${q(ix)}`);
        await tx.run(`ALTER TABLE ${q(s.table)} DROP COLUMN ${q(s.column!)}`);
        await tx.run(`DELETE FROM _schema_columns WHERE table_name = ? AND column_name = ?`, [s.table, s.column]);
        break;
      case 'renameColumn':
        await tx.run(`ALTER TABLE ${q(s.table)} RENAME COLUMN ${q(s.from!)} TO ${q(s.to!)}`);
        await tx.run(`UPDATE _schema_columns SET column_name = ? WHERE table_name = ? AND column_name = ?`, [s.to, s.table, s.from]);
        break;
      case 'retypeColumn': {
        // the stored type is re-read from the metadata below
        const col = tables.find((t) => t.name === s.table)?.columns.find((c) => c.name === s.column);
        if (col) for (const sql of d.retypeColumn(s.table, col)) await tx.run(sql);
        await tx.run(`DELETE FROM _schema_columns WHERE table_name = ? AND column_name = ?`, [s.table, s.column]);
        break;
      }
      case 'dropTable':
        await tx.run(`DROP TABLE IF EXISTS ${q(s.table)}`);
        await tx.run(`DELETE FROM _schema_columns WHERE table_name = ?`, [s.table]);
        break;
    }
  }
  await tx.run(`INSERT INTO _migrations (id, applied_at) VALUES (?, ?)`, [m.id, new Date().toISOString()]);
}

/**
 * System tables of databases made before this version: the password history had no id (its
 * order came from SQLite's rowid, which PostgreSQL does not have); it is rebuilt with one.
 */
async function upgradeSystemTables(tx: Queryable): Promise<void> {
  const d = tx.dialect;
  const cols = await names(tx, d.columnsQuery('_password_history'));
  if (cols.includes('id')) return;
  await tx.run(`ALTER TABLE _password_history RENAME TO _password_history_old`);
  await tx.run(`DROP INDEX IF EXISTS ix_password_history_account`);
  for (const sql of d.systemDdl().filter((s) => s.includes('_password_history'))) await tx.run(sql);
  await tx.run(`INSERT INTO _password_history (account_id, hash, changed_at) SELECT account_id, hash, changed_at FROM _password_history_old ORDER BY changed_at`);
  await tx.run(`DROP TABLE _password_history_old`);
}

export async function migrate(db: Db, tables: TableDef[], migrations: Migration[] = []): Promise<MigrateReport> {
  const report: MigrateReport = { created: [], addedColumns: [], createdIndexes: [], droppedIndexes: [], migrations: [] };
  await db.transaction(async (tx) => {
    const d = tx.dialect;
    const q = d.quote;
    if (d.migrationLock) await tx.get(d.migrationLock);
    for (const sql of d.systemDdl()) await tx.run(sql);
    await upgradeSystemTables(tx);
    const exists = async (t: string) => !!(await tx.get(d.tableExistsQuery(t).sql, d.tableExistsQuery(t).params));
    const applied = new Set((await tx.all<{ id: string }>(`SELECT id FROM _migrations`)).map((r) => r.id));
    for (const m of [...migrations].sort((a, b) => a.id.localeCompare(b.id))) {
      if (applied.has(m.id)) continue;
      await applyMigration(tx, m, tables);
      report.migrations.push(m.id);
    }
    const problems: string[] = [];
    const wanted = new Set(tables.map((t) => t.name));
    const known = (await tx.all<{ table_name: string }>(`SELECT DISTINCT table_name FROM _schema_columns`)).map((r) => r.table_name);
    for (const t of known) if (!wanted.has(t) && (await exists(t))) problems.push(`table "${t}" holds data but no entity describes it any more (migration op "dropTable")`);
    for (const t of tables) {
      if (t.view) continue;
      if (!(await exists(t.name))) {
        await tx.run(d.createTable(t));
        await recordColumns(tx, t, t.columns);
        report.created.push(t.name);
      } else {
        const have = new Set(await names(tx, d.columnsQuery(t.name)));
        const types = new Map((await tx.all<{ column_name: string; field_type: string }>(`SELECT column_name, field_type FROM _schema_columns WHERE table_name = ?`, [t.name])).map((r) => [r.column_name, r.field_type]));
        const wantCols = new Set(t.columns.map((c) => c.name));
        for (const c of have) if (!wantCols.has(c)) problems.push(`table "${t.name}": column "${c}" is no longer in the metadata (migration op "dropColumn" or "renameColumn")`);
        for (const c of t.columns) {
          if (!have.has(c.name)) {
            await tx.run(d.addColumn(t.name, c));
            report.addedColumns.push(`${t.name}.${c.name}`);
          } else if (types.has(c.name) && types.get(c.name) !== c.fieldType) {
            problems.push(`table "${t.name}": column "${c.name}" changes type from ${types.get(c.name)} to ${c.fieldType} (migration op "retypeColumn")`);
          }
        }
        await recordColumns(tx, t, t.columns.filter((c) => !types.has(c.name) || types.get(c.name) === c.fieldType));
      }
      const haveIx = new Set(await names(tx, d.indexesQuery(t.name)));
      const wantIx = new Set(t.indexes.map((i) => i.name));
      for (const ix of t.indexes) {
        if (!haveIx.has(ix.name)) {
          await tx.run(d.createIndex(t.name, ix));
          report.createdIndexes.push(ix.name);
        }
      }
      for (const ix of haveIx) {
        if (!wantIx.has(ix) && /^(ix|ux)_/.test(ix)) {
          await tx.run(`DROP INDEX ${q(ix)}`);
          report.droppedIndexes.push(ix);
        }
      }
    }
    if (problems.length) throw new MigrationRefused(problems);
    // views (metadata "view") last, over the tables they read; made anew every time, so a changed
    // definition takes effect (a view holds no data)
    for (const t of tables.filter((x) => x.view)) {
      const had = !!(await tx.get(d.viewExistsQuery(t.name).sql, d.viewExistsQuery(t.name).params));
      await tx.run(`DROP VIEW IF EXISTS ${q(t.name)}`);
      await tx.run(`CREATE VIEW ${q(t.name)} AS ${t.view}`);
      if (!had) report.created.push(t.name);
    }
  });
  return report;
}
