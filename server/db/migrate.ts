/**
 * Creates and migrates tables from the generated table model (server/generated/tables.json, one
 * model per dialect), so that a migrated database has the schema a fresh one gets: the same
 * columns with the same types, NOT NULL, defaults and range CHECKs, and the same indexes
 * (tests/server/migrate.test.ts compares the two on both databases).
 *
 * Safe changes happen by themselves: a new entity creates its table, a new field adds a column,
 * a changed column (type width, required, default, range) is altered (PostgreSQL in place, SQLite
 * by rebuilding the table), a new index is built. A change that would lose or invent data is
 * refused with a message that names the entity, the field and the migration that would allow it:
 * a column or table the metadata no longer has, a field whose type changed, a required field
 * without a default on a table whose rows would have no value. A migration in metadata/migrations/
 * says what to do (dropColumn, renameColumn, retypeColumn, dropTable; addColumn fills the rows of
 * a new or newly required column with a value or another column's; mapValues rewrites stored
 * values, e.g. free text becoming codes).
 *
 * Everything happens in one transaction (PostgreSQL DDL is transactional too), so a refused or
 * failed migration leaves the database as it was. Every step is reported (MigrateReport.steps,
 * one line each) for the caller to log; a failing statement is reported with the migration file
 * and step, or the table and column, it belongs to (MigrationFailed), never as a bare driver error.
 */
import type { Queryable, Db } from './types.ts';
import { columnShape, type ColumnDef, type ColumnShape, type TableDef } from '../../codegen/runtime/dialect.ts';

export interface MigrationStep {
  op: 'dropColumn' | 'renameColumn' | 'retypeColumn' | 'dropTable' | 'addColumn' | 'mapValues';
  table: string;
  column?: string;
  from?: string;
  to?: string;
  /** addColumn: what the rows without a value get (a JSON value of the column's type) */
  value?: unknown;
  /** addColumn: the column whose value the rows without one get */
  copyFrom?: string;
  /** mapValues: stored value -> new stored value (free text becoming a code table's codes) */
  values?: Record<string, string>;
}
/** `file`: the metadata file it comes from (codegen adds it) */
export interface Migration {
  id: string;
  steps: MigrationStep[];
  file?: string;
}

const OPS_HELP = 'ops dropColumn, renameColumn, retypeColumn, dropTable, addColumn, mapValues; metadata/README.md "Migrations"';

/** The metadata asks for a change that would lose or invent data, and no migration says what to do. */
export class MigrationRefused extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The database cannot follow the metadata without losing data or leaving required values empty:\n  - ${problems.join('\n  - ')}\nAdd a migration file in metadata/migrations/ that says what to do (${OPS_HELP}), run npm run codegen, then start again. Nothing was changed.`,
    );
    this.name = 'MigrationRefused';
  }
}

/** A statement of the migration failed: `where` names the migration file and step, or the table and column. */
export class MigrationFailed extends Error {
  constructor(
    readonly where: string,
    readonly reason: string,
  ) {
    super(
      `The database migration failed while ${where}: ${reason}. Nothing was changed (the migration runs in one transaction); fix the cause and start again.`,
    );
    this.name = 'MigrationFailed';
  }
}

export interface MigrateReport {
  created: string[];
  addedColumns: string[];
  /** table.column of columns changed in place or by a rebuild */
  alteredColumns: string[];
  createdIndexes: string[];
  droppedIndexes: string[];
  migrations: string[];
  /** every step, one line each, in order (for the log) */
  steps: string[];
}

export interface MigrateOptions {
  /** called once per step after the migration committed */
  log?: (line: string) => void;
}

const emptyReport = (): MigrateReport => ({
  created: [],
  addedColumns: [],
  alteredColumns: [],
  createdIndexes: [],
  droppedIndexes: [],
  migrations: [],
  steps: [],
});

/** The driver's message without its stack (a SQLite or PostgreSQL error) */
const reasonOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0];

const describeStep = (s: MigrationStep): string => {
  switch (s.op) {
    case 'renameColumn':
      return `renameColumn "${s.table}"."${s.from}" to "${s.to}"`;
    case 'dropTable':
      return `dropTable "${s.table}"`;
    case 'addColumn':
      return `addColumn "${s.table}"."${s.column}"${s.copyFrom !== undefined ? ` from "${s.copyFrom}"` : ` = ${JSON.stringify(s.value)}`}`;
    default:
      return `${s.op} "${s.table}"."${s.column}"`;
  }
};

/** The next free migration number (for the file name a refusal suggests). */
const nextId = (migrations: Migration[]): string => {
  const n = Math.max(0, ...migrations.map((m) => Number(m.id.slice(0, 4)) || 0)) + 1;
  return String(n).padStart(4, '0');
};

class Migrator {
  readonly report = emptyReport();
  private readonly problems: string[] = [];

  constructor(
    readonly tx: Queryable,
    readonly tables: TableDef[],
    readonly migrations: Migration[],
  ) {}

  private get d() {
    return this.tx.dialect;
  }
  private q(id: string): string {
    return this.d.quote(id);
  }
  private step(line: string): void {
    this.report.steps.push(line);
  }

  /** Runs one statement; a failure names `where` (the migration step, or the table and column). */
  private async run(where: string, sql: string, params: unknown[] = []): Promise<{ changes: number }> {
    try {
      return await this.tx.run(sql, params);
    } catch (err) {
      if (err instanceof MigrationFailed) throw err;
      throw new MigrationFailed(where, reasonOf(err));
    }
  }

  private async names(q: { sql: string; params: unknown[] } | null): Promise<string[]> {
    if (!q) return [];
    return (await this.tx.all<{ name: string }>(q.sql, q.params)).map((r) => r.name);
  }

  private async tableExists(t: string): Promise<boolean> {
    const q = this.d.tableExistsQuery(t);
    return !!(await this.tx.get(q.sql, q.params));
  }

  private async columnsOf(t: string): Promise<Map<string, boolean>> {
    const q = this.d.columnsQuery(t);
    return new Map((await this.tx.all<{ name: string; not_null: number | boolean }>(q.sql, q.params)).map((r) => [r.name, Number(r.not_null) === 1]));
  }

  private async isEmpty(t: string): Promise<boolean> {
    return !(await this.tx.get(`SELECT 1 AS x FROM ${this.q(t)} ${this.d.limitOffset(1, 0)}`));
  }

  private async count(t: string, where = ''): Promise<number> {
    return Number((await this.tx.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${this.q(t)}${where ? ` WHERE ${where}` : ''}`))!.n);
  }

  private async record(t: TableDef, cols: ColumnDef[], definition?: (c: ColumnDef) => string): Promise<void> {
    for (const c of cols) {
      await this.tx.run(
        `INSERT INTO _schema_columns (table_name, column_name, field_type, definition) VALUES (?, ?, ?, ?) ON CONFLICT (table_name, column_name) DO UPDATE SET field_type = excluded.field_type, definition = excluded.definition`,
        [t.name, c.name, c.fieldType, definition ? definition(c) : JSON.stringify(columnShape(c))],
      );
    }
  }

  /** Where a column comes from, for messages: entity, field and file when the table model knows them. */
  private origin(t: TableDef, c?: ColumnDef): string {
    const parts = [t.entity ? `entity "${t.entity}"` : '', c?.field ? `field "${c.field}"` : '', t.source ?? ''].filter(Boolean);
    return parts.length ? ` (${parts.join(', ')})` : '';
  }

  /* ---------------------------------------------------------------- system tables */

  async prepareSystemTables(): Promise<void> {
    for (const sql of this.d.systemDdl()) await this.tx.run(sql);
    // databases made before this version: the password history had no id (its order came from
    // SQLite's rowid, which PostgreSQL does not have); it is rebuilt with one
    const cols = await this.names(this.d.columnsQuery('_password_history'));
    if (!cols.includes('id')) {
      await this.tx.run(`ALTER TABLE _password_history RENAME TO _password_history_old`);
      await this.tx.run(`DROP INDEX IF EXISTS ix_password_history_account`);
      for (const sql of this.d.systemDdl().filter((s) => s.includes('_password_history'))) await this.tx.run(sql);
      await this.tx.run(
        `INSERT INTO _password_history (account_id, hash, changed_at) SELECT account_id, hash, changed_at FROM _password_history_old ORDER BY changed_at`,
      );
      await this.tx.run(`DROP TABLE _password_history_old`);
      this.step('upgraded system table _password_history (an id column)');
    }
    // ... and did not record how each column was declared (NULL: read what the database says)
    if (!(await this.names(this.d.columnsQuery('_schema_columns'))).includes('definition')) {
      await this.tx.run(`ALTER TABLE _schema_columns ADD COLUMN definition TEXT`);
      this.step('upgraded system table _schema_columns (a definition column)');
    }
  }

  /* ---------------------------------------------------------------- migration files */

  async applyMigrations(): Promise<void> {
    const applied = new Set((await this.tx.all<{ id: string }>(`SELECT id FROM _migrations`)).map((r) => r.id));
    for (const m of [...this.migrations].sort((a, b) => a.id.localeCompare(b.id))) {
      if (applied.has(m.id)) continue;
      for (const [i, s] of m.steps.entries()) await this.applyStep(m, i, s);
      await this.tx.run(`INSERT INTO _migrations (id, applied_at) VALUES (?, ?)`, [m.id, new Date().toISOString()]);
      this.report.migrations.push(m.id);
    }
  }

  private async applyStep(m: Migration, i: number, s: MigrationStep): Promise<void> {
    const label = `migration ${m.file ?? m.id}, step ${i + 1} (${describeStep(s)})`;
    const where = `applying ${label}`;
    const q = (id: string) => this.q(id);
    // a table the database does not have yet is created from the metadata, which already says
    // how it should be: the step has nothing to change (a fresh database skips every step)
    if (!(await this.tableExists(s.table))) {
      this.step(`${label}: skipped, the table does not exist yet (it is created as the metadata says)`);
      return;
    }
    switch (s.op) {
      case 'dropColumn': {
        // SQLite refuses to drop a column an index uses: drop those indexes first (the ones the
        // metadata still wants are built again afterwards)
        for (const ix of await this.names(this.d.indexesUsingColumnQuery(s.table, s.column!))) await this.run(where, `DROP INDEX ${q(ix)}`);
        await this.run(where, `ALTER TABLE ${q(s.table)} DROP COLUMN ${q(s.column!)}`);
        await this.tx.run(`DELETE FROM _schema_columns WHERE table_name = ? AND column_name = ?`, [s.table, s.column]);
        break;
      }
      case 'renameColumn':
        await this.run(where, `ALTER TABLE ${q(s.table)} RENAME COLUMN ${q(s.from!)} TO ${q(s.to!)}`);
        await this.tx.run(`UPDATE _schema_columns SET column_name = ? WHERE table_name = ? AND column_name = ?`, [s.to, s.table, s.from]);
        break;
      case 'retypeColumn': {
        const { t, c } = this.wanted(where, s.table, s.column!);
        for (const sql of this.d.retypeColumn(s.table, c)) await this.run(where, sql);
        // the new type is recorded; how the column is declared is unknown now, so the next phase
        // declares it again as the metadata says (SQLite: a rebuild gives it the new type)
        await this.record(t, [c], () => '');
        break;
      }
      case 'dropTable':
        await this.run(where, `DROP TABLE IF EXISTS ${q(s.table)}`);
        await this.tx.run(`DELETE FROM _schema_columns WHERE table_name = ?`, [s.table]);
        break;
      case 'addColumn': {
        const { t, c } = this.wanted(where, s.table, s.column!);
        const have = await this.columnsOf(s.table);
        if (!have.has(c.name)) await this.run(where, this.d.addColumn(s.table, { ...c, notNull: false }));
        if (s.copyFrom !== undefined && !have.has(s.copyFrom))
          throw new MigrationFailed(where, `table "${s.table}" has no column "${s.copyFrom}" to copy from`);
        const fill =
          s.copyFrom !== undefined ? { sql: q(s.copyFrom), params: [] } : { sql: '?', params: [typeof s.value === 'boolean' ? this.d.bool(s.value) : s.value] };
        const { changes } = await this.run(where, `UPDATE ${q(s.table)} SET ${q(c.name)} = ${fill.sql} WHERE ${q(c.name)} IS NULL`, fill.params);
        const left = await this.count(s.table, `${q(c.name)} IS NULL`);
        if (c.notNull && left > 0)
          throw new MigrationFailed(
            where,
            `${left} rows still have no value in "${c.name}" (the column "${s.copyFrom}" is empty there): give a "value" instead, or fill "${s.copyFrom}" first`,
          );
        // declared nullable so far: the next phase makes it what the metadata says (NOT NULL)
        await this.record(t, [c], (col) => JSON.stringify({ ...columnShape(col), notNull: false }));
        this.step(`${label}: ${have.has(c.name) ? '' : 'added the column, '}filled ${changes} rows`);
        return;
      }
      case 'mapValues': {
        // each old value rewritten; values not listed stay as they are
        this.wanted(where, s.table, s.column!);
        let changed = 0;
        for (const [from, to] of Object.entries(s.values ?? {}))
          changed += (await this.run(where, `UPDATE ${q(s.table)} SET ${q(s.column!)} = ? WHERE ${q(s.column!)} = ?`, [to, from])).changes;
        this.step(`${label}: rewrote ${changed} rows`);
        return;
      }
    }
    this.step(label);
  }

  /** The table and column a step names, as the metadata declares them (a step may only fill what the metadata has). */
  private wanted(where: string, table: string, column: string): { t: TableDef; c: ColumnDef } {
    const t = this.tables.find((x) => x.name === table);
    const c = t?.columns.find((x) => x.name === column);
    if (!t || !c)
      throw new MigrationFailed(
        where,
        `the metadata has no column "${column}" in table "${table}" (a migration can only fill or retype a column the metadata declares)`,
      );
    return { t, c };
  }

  /* ---------------------------------------------------------------- the tables the metadata describes */

  /* ---------------------------------------------------------------- views (metadata "view") */

  private readonly viewsBefore = new Set<string>();

  /**
   * Views go first, before any table changes (a view over a table SQLite rebuilds would break the
   * rebuild), and are made again last, over the tables as they are then: a view holds no data, so
   * a changed definition simply takes effect.
   */
  async dropViews(): Promise<void> {
    for (const t of this.tables.filter((x) => x.view)) {
      const q = this.d.viewExistsQuery(t.name);
      if (await this.tx.get(q.sql, q.params)) this.viewsBefore.add(t.name);
      await this.run(`dropping view "${t.name}"${this.origin(t)}`, `DROP VIEW IF EXISTS ${this.q(t.name)}`);
    }
  }

  async createViews(): Promise<void> {
    for (const t of this.tables.filter((x) => x.view)) {
      await this.run(`creating view "${t.name}"${this.origin(t)}`, `CREATE VIEW ${this.q(t.name)} AS ${t.view}`);
      if (!this.viewsBefore.has(t.name)) {
        this.report.created.push(t.name);
        this.step(`created view "${t.name}"${this.origin(t)}`);
      }
    }
  }

  async followMetadata(): Promise<void> {
    const wanted = new Set(this.tables.filter((t) => !t.view).map((t) => t.name));
    const known = (await this.tx.all<{ table_name: string }>(`SELECT DISTINCT table_name FROM _schema_columns`)).map((r) => r.table_name);
    for (const t of known)
      if (!wanted.has(t) && (await this.tableExists(t)))
        this.problems.push(`table "${t}" holds data but no entity describes it any more (migration op "dropTable")`);
    for (const t of this.tables) {
      if (t.view) continue;
      let rebuilt = false;
      // the indexes before any change (a SQLite rebuild drops them with the old table)
      const before = new Set(await this.names(this.d.indexesQuery(t.name)));
      if (!(await this.tableExists(t.name))) {
        await this.run(`creating table "${t.name}"${this.origin(t)}`, this.d.createTable(t));
        await this.record(t, t.columns);
        this.report.created.push(t.name);
        this.step(`created table "${t.name}"${this.origin(t)}: ${t.columns.length} columns, ${t.indexes.length} indexes`);
      } else {
        const changed = await this.followColumns(t);
        if (changed === null) continue;
        rebuilt = changed;
      }
      await this.followIndexes(t, before, rebuilt);
    }
    if (this.problems.length) throw new MigrationRefused(this.problems);
  }

  /** How an existing column is declared now: recorded, or (older databases) as the metadata says but with the NOT NULL the database reports. */
  private shapeNow(recorded: string | null | undefined, notNullNow: boolean, c: ColumnDef): ColumnShape | null {
    if (recorded === '') return null;
    if (recorded) return JSON.parse(recorded) as ColumnShape;
    return { ...columnShape(c), notNull: notNullNow };
  }

  /**
   * Adds and alters the columns of an existing table. Returns whether the table was rebuilt
   * (SQLite; its indexes went with the old table), or null when the table has problems (nothing
   * of it is changed, the problems are reported together at the end).
   */
  private async followColumns(t: TableDef): Promise<boolean | null> {
    const have = await this.columnsOf(t.name);
    const recorded = new Map(
      (
        await this.tx.all<{ column_name: string; field_type: string; definition: string | null }>(
          `SELECT column_name, field_type, definition FROM _schema_columns WHERE table_name = ?`,
          [t.name],
        )
      ).map((r) => [r.column_name, r]),
    );
    const wantCols = new Set(t.columns.map((c) => c.name));
    const before = this.problems.length;
    // a column gone and one new of the same field type: most likely a rename, which a fill would lose
    const gone = [...have.keys()].filter((c) => !wantCols.has(c));
    const renamedTo = new Map<string, ColumnDef>();
    for (const c of gone) {
      const type = recorded.get(c)?.field_type;
      const to = t.columns.filter((n) => !have.has(n.name) && n.fieldType === type && ![...renamedTo.values()].includes(n));
      if (type && to.length === 1) renamedTo.set(c, to[0]);
    }
    for (const c of gone) {
      const to = renamedTo.get(c);
      this.problems.push(
        to
          ? `table "${t.name}"${this.origin(t)}: column "${c}" is no longer in the metadata and "${to.name}" is new, of the same type. If it was renamed, ${this.renameHint(t, c, to)}; if not, drop it (migration op "dropColumn")`
          : `table "${t.name}"${this.origin(t)}: column "${c}" is no longer in the metadata (migration op "dropColumn" or "renameColumn")`,
      );
    }
    const renamed = new Set([...renamedTo.values()]);
    const adds: ColumnDef[] = [];
    const alters: { c: ColumnDef; from: ColumnShape | null; fillDefault: number }[] = [];
    let rows: number | null = null;
    const rowCount = async () => (rows ??= await this.count(t.name));
    for (const c of t.columns) {
      const rec = recorded.get(c.name);
      if (!have.has(c.name)) {
        // a renamed column is reported once, with its rename, not also as a new column to fill
        if (renamed.has(c)) continue;
        if (c.notNull && c.defaultSql === null && (await rowCount()) > 0) this.problems.push(this.requiredWithoutValue(t, c, await rowCount(), 'new'));
        else adds.push(c);
        continue;
      }
      if (rec && rec.field_type !== c.fieldType) {
        this.problems.push(
          `table "${t.name}"${this.origin(t, c)}: column "${c.name}" changes type from ${rec.field_type} to ${c.fieldType} (migration op "retypeColumn")`,
        );
        continue;
      }
      const from = this.shapeNow(rec?.definition, have.get(c.name)!, c);
      if (from && JSON.stringify(from) === JSON.stringify(columnShape(c))) continue;
      let fillDefault = 0;
      if (c.notNull && !from?.notNull) {
        const empty = await this.count(t.name, `${this.q(c.name)} IS NULL`);
        if (empty > 0 && c.defaultSql === null) {
          this.problems.push(this.requiredWithoutValue(t, c, empty, 'now required'));
          continue;
        }
        fillDefault = empty;
      }
      alters.push({ c, from, fillDefault });
    }
    if (this.problems.length > before) return null;

    for (const a of alters) {
      if (!a.fillDefault) continue;
      await this.run(
        `filling the empty rows of "${t.name}"."${a.c.name}"${this.origin(t, a.c)} with its default`,
        `UPDATE ${this.q(t.name)} SET ${this.q(a.c.name)} = ${a.c.defaultSql} WHERE ${this.q(a.c.name)} IS NULL`,
      );
      this.step(`filled ${a.fillDefault} empty rows of "${t.name}"."${a.c.name}" with its default ${a.c.defaultSql} (the field is now required)`);
    }
    const declare = (c: ColumnDef) =>
      `${c.notNull ? 'NOT NULL' : 'nullable'}${c.defaultSql !== null ? `, default ${c.defaultSql}` : ''}${c.range ? `, ${c.range.min} to ${c.range.max}` : ''}`;
    // SQLite adds a NOT NULL column only with a default, and alters no column: it rebuilds the table
    const rebuild = !this.d.altersColumnsInPlace && (alters.length > 0 || adds.some((c) => c.notNull && c.defaultSql === null));
    if (rebuild) {
      const copy = t.columns.filter((c) => have.has(c.name)).map((c) => c.name);
      const changed = [...adds, ...alters.map((a) => a.c)].map((c) => c.name);
      for (const sql of this.d.rebuildTable(t, copy)) await this.run(`rebuilding table "${t.name}"${this.origin(t)} to change ${changed.join(', ')}`, sql);
      for (const c of adds) this.report.addedColumns.push(`${t.name}.${c.name}`);
      for (const a of alters) this.report.alteredColumns.push(`${t.name}.${a.c.name}`);
      this.step(
        `rebuilt table "${t.name}"${this.origin(t)} (SQLite changes columns so): ${[...adds.map((c) => `added "${c.name}" ${c.sqlType} ${declare(c)}`), ...alters.map((a) => `"${a.c.name}" now ${a.c.sqlType} ${declare(a.c)}`)].join('; ')}`,
      );
    } else {
      for (const c of adds) {
        await this.run(`adding column "${t.name}"."${c.name}"${this.origin(t, c)}`, this.d.addColumn(t.name, c));
        this.report.addedColumns.push(`${t.name}.${c.name}`);
        this.step(`added column "${t.name}"."${c.name}"${this.origin(t, c)}: ${c.sqlType} ${declare(c)}`);
      }
      for (const a of alters) {
        const checks = await this.names(this.d.checkConstraintsQuery(t.name, a.c.name));
        const where = `changing column "${t.name}"."${a.c.name}"${this.origin(t, a.c)}`;
        for (const sql of this.d.alterColumn(t.name, a.from, a.c, checks)) await this.run(where, sql);
        this.report.alteredColumns.push(`${t.name}.${a.c.name}`);
        this.step(`changed column "${t.name}"."${a.c.name}"${this.origin(t, a.c)}: now ${a.c.sqlType} ${declare(a.c)}`);
      }
    }
    await this.record(t, t.columns);
    return rebuild;
  }

  /** The migration file that renames column `from` to `to`, ready to paste. */
  private renameHint(t: TableDef, from: string, to: ColumnDef): string {
    const id = `${nextId(this.migrations)}-rename-${t.name.replace(/_/g, '-')}-${to.name.replace(/_/g, '-')}`;
    return `add metadata/migrations/${id}.json: ${JSON.stringify({ id, steps: [{ op: 'renameColumn', table: t.name, from, to: to.name }] })} (the rows keep their values)`;
  }

  private requiredWithoutValue(t: TableDef, c: ColumnDef, rows: number, what: 'new' | 'now required'): string {
    const id = `${nextId(this.migrations)}-fill-${t.name.replace(/_/g, '-')}-${c.name.replace(/_/g, '-')}`;
    const example = JSON.stringify({ id, steps: [{ op: 'addColumn', table: t.name, column: c.name, value: '<value>' }] });
    return (
      `table "${t.name}"${this.origin(t, c)}: the ${what === 'new' ? 'new ' : ''}field "${c.field ?? c.name}" is required and has no default, ` +
      `but ${rows} ${what === 'new' ? 'existing rows would have no value' : 'rows have no value'} in column "${c.name}". ` +
      `Give the field a "default" in the metadata, or add metadata/migrations/${id}.json: ${example} ` +
      `(put the value the existing rows should get in "value", or use "copyFrom": "<another column>" instead)`
    );
  }

  private async followIndexes(t: TableDef, before: Set<string>, rebuilt: boolean): Promise<void> {
    const haveIx = new Set(await this.names(this.d.indexesQuery(t.name)));
    const wantIx = new Set(t.indexes.map((i) => i.name));
    if (rebuilt) {
      for (const ix of before) {
        if (wantIx.has(ix) || haveIx.has(ix)) continue;
        this.report.droppedIndexes.push(ix);
        this.step(`dropped index "${ix}" of "${t.name}" with the rebuilt table (the metadata no longer has it)`);
      }
    }
    const isNew = this.report.created.includes(t.name);
    for (const ix of t.indexes) {
      if (haveIx.has(ix.name)) continue;
      await this.run(`creating index "${ix.name}" on "${t.name}"${this.origin(t)}`, this.d.createIndex(t.name, ix));
      this.report.createdIndexes.push(ix.name);
      // a new table's indexes are part of its own line
      if (!isNew)
        this.step(
          `${rebuilt && before.has(ix.name) ? 'rebuilt' : 'created'} index "${ix.name}" on "${t.name}" (${ix.columns.join(', ')}${ix.unique ? ', unique' : ''})`,
        );
    }
    for (const ix of haveIx) {
      if (!wantIx.has(ix) && /^(ix|ux)_/.test(ix)) {
        await this.run(`dropping index "${ix}" of "${t.name}"`, `DROP INDEX ${this.q(ix)}`);
        this.report.droppedIndexes.push(ix);
        this.step(`dropped index "${ix}" of "${t.name}" (the metadata no longer has it)`);
      }
    }
  }
}

export async function migrate(db: Db, tables: TableDef[], migrations: Migration[] = [], opts: MigrateOptions = {}): Promise<MigrateReport> {
  let report = emptyReport();
  await db.transaction(async (tx) => {
    // PostgreSQL may run the transaction again: each run reports afresh
    const m = new Migrator(tx, tables, migrations);
    if (tx.dialect.migrationLock) await tx.get(tx.dialect.migrationLock);
    await m.prepareSystemTables();
    await m.dropViews();
    await m.applyMigrations();
    await m.followMetadata();
    await m.createViews();
    report = m.report;
  });
  for (const line of report.steps) opts.log?.(line);
  return report;
}
