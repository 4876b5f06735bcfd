/**
 * Tables follow the metadata: new entities and fields appear by themselves, changed columns are
 * altered, data-losing changes and required fields without a value are refused with a message
 * that names entity, field and the migration that would allow it, every step is logged, a failing
 * statement names its migration file and step, and a migrated database ends up with exactly the
 * schema a fresh one gets. On the backend under test (SQLite or PostgreSQL, helpers.ts), with
 * that dialect's table model.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../../server/db/open.ts';
import type { Db } from '../../server/db/types.ts';
import { migrate as migrateDb, MigrationFailed, MigrationRefused, type Migration } from '../../server/db/migrate.ts';
import { tables as allTables } from '../../server/generated/index.ts';
import type { ColumnDef, TableDef } from '../../codegen/runtime/dialect.ts';
import { BACKEND, testDatabase } from './helpers.ts';

const tables = allTables[BACKEND];
let dir: string;
let db: Db;
const cleanups: (() => Promise<void>)[] = [];
/** a fresh database of the backend under test */
async function newDb(): Promise<Db> {
  const t = await testDatabase(mkdtempSync(join(dir, 'db-')));
  const d = await openDb(t.options.databaseUrl ? { url: t.options.databaseUrl } : { file: t.options.dbFile! });
  cleanups.push(async () => {
    await d.close();
    await t.drop();
  });
  return d;
}
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'migrate-'));
  db = await newDb();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

const migrate = (t: TableDef[], m?: Migration[], d: Db = db) => migrateDb(d, t, m);
const table = (name: string) => structuredClone(tables.find((t) => t.name === name)!) as TableDef;
const notice = () => table('notice');
const col = (t: TableDef, name: string): ColumnDef => t.columns.find((c) => c.name === name)!;
const columns = async (t: string) => {
  const q = db.dialect.columnsQuery(t);
  return (await db.all<{ name: string }>(q.sql, q.params)).map((c) => c.name);
};
const tableExists = async (t: string) => {
  const q = db.dialect.tableExistsQuery(t);
  return !!(await db.get(q.sql, q.params));
};
const failure = async (p: Promise<unknown>): Promise<Error> => {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a failure');
};
const addNotice = (d: Db, title: string) =>
  d.run(`INSERT INTO notice (title, content, status, deleted, version) VALUES (?, 'c', '0', ?, 1)`, [title, d.dialect.bool(false)]);
const FEE_ROW = `INSERT INTO consulting_fee_item (original_parts_code, fee_parts_code, consulting_fee, supplier_code, effective_date, version) VALUES (?, 'F', 1, 'S001', '2026-01-01', 1)`;

/* ------------------------------------------------------------------ the schema as the database reports it */

interface Schema {
  [table: string]: { columns: Record<string, unknown>; indexes: Record<string, unknown> };
}

/** The column definitions of a SQLite CREATE TABLE text, split at top-level commas. */
function sqliteColumnDefs(sql: string): Map<string, string> {
  const body = sql.slice(sql.indexOf('(') + 1, sql.lastIndexOf(')'));
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let cur = '';
  for (const ch of body) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) parts.push(cur.trim());
  // column definitions start with their name (quoted, or bare in the engine's own tables)
  const named = parts.filter((p) => !/^(PRIMARY|UNIQUE|CHECK|CONSTRAINT|FOREIGN)\b/i.test(p));
  return new Map(
    named.map((p) => {
      const m = p.match(/^(?:"((?:[^"]|"")*)"|(\w+))/)!;
      return [m[1] ?? m[2], p];
    }),
  );
}

/**
 * Every table with its columns (type, NOT NULL, default, CHECK) and indexes (columns, unique).
 * Column order is left out: a migrated table adds columns at the end.
 */
async function schemaOf(d: Db): Promise<Schema> {
  const out: Schema = {};
  if (d.kind === 'sqlite') {
    for (const t of await d.all<{ name: string; sql: string }>(
      `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
    )) {
      const defs = sqliteColumnDefs(t.sql);
      const cols: Record<string, unknown> = {};
      for (const c of await d.all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
        `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)`,
        [t.name],
      )) {
        cols[c.name] = { type: c.type, notNull: c.notnull, default: c.dflt_value, pk: c.pk, check: defs.get(c.name)?.match(/CHECK \((.*)\)$/)?.[1] ?? null };
      }
      const ixs: Record<string, unknown> = {};
      for (const ix of await d.all<{ name: string; unique: number; origin: string }>(`SELECT name, "unique", origin FROM pragma_index_list(?)`, [t.name])) {
        const on = (await d.all<{ name: string }>(`SELECT name FROM pragma_index_info(?) ORDER BY seqno`, [ix.name])).map((r) => r.name);
        ixs[ix.origin === 'c' ? ix.name : `${ix.origin}:${on.join(',')}`] = { unique: ix.unique, on };
      }
      out[t.name] = { columns: cols, indexes: ixs };
    }
    return out;
  }
  const rows = await d.all<Record<string, unknown>>(
    `SELECT table_name, column_name, data_type, character_maximum_length, numeric_precision, numeric_scale, is_nullable, column_default, is_identity FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, column_name`,
  );
  const checks = await d.all<{ tbl: string; col: string; def: string }>(
    `SELECT rel.relname AS tbl, att.attname AS col, pg_get_constraintdef(con.oid) AS def FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid JOIN pg_namespace ns ON ns.oid = rel.relnamespace JOIN pg_attribute att ON att.attrelid = rel.oid AND att.attnum = ANY (con.conkey) WHERE con.contype = 'c' AND ns.nspname = current_schema() ORDER BY 1, 2, 3`,
  );
  for (const r of rows) {
    const t = (out[r.table_name as string] ??= { columns: {}, indexes: {} });
    const { table_name: _t, column_name, ...rest } = r;
    t.columns[column_name as string] = { ...rest, checks: checks.filter((c) => c.tbl === r.table_name && c.col === column_name).map((c) => c.def) };
  }
  for (const ix of await d.all<{ tablename: string; indexname: string; indexdef: string }>(
    `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()`,
  )) {
    out[ix.tablename].indexes[ix.indexname] = ix.indexdef;
  }
  return out;
}

describe('migrations', () => {
  it('creates every table and index of the metadata, and a second run changes nothing', async () => {
    const first = await migrate(tables);
    expect(first.created.length).toBe(tables.length);
    expect(first.createdIndexes.length).toBe(tables.reduce((n, t) => n + t.indexes.length, 0));
    const second = await migrate(tables);
    expect(second).toEqual({ created: [], addedColumns: [], alteredColumns: [], createdIndexes: [], droppedIndexes: [], migrations: [], steps: [] });
    // the connection settings the data layer promises (durability on SQLite, UTC on PostgreSQL)
    if (db.kind === 'sqlite') {
      expect(await db.get('PRAGMA journal_mode')).toEqual({ journal_mode: 'wal' });
      expect(await db.get('PRAGMA synchronous')).toEqual({ synchronous: 2 }); // FULL
    } else {
      expect(await db.get('SHOW TimeZone')).toEqual({ TimeZone: 'UTC' });
    }
  });

  it('a new field adds a column and keeps the rows', async () => {
    await migrate([notice()]);
    await addNotice(db, 't');
    const t = notice();
    t.columns.push({ name: 'summary', fieldType: 'string', sqlType: 'TEXT', notNull: false, primaryKey: false, defaultSql: null });
    const r = await migrate([t]);
    expect(r.addedColumns).toEqual(['notice.summary']);
    expect(await columns('notice')).toContain('summary');
    expect(await db.get('SELECT COUNT(*) AS n FROM notice')).toEqual({ n: 1 });
  });

  it('a field removed from metadata is refused with a message naming table, entity, column and the migration op', async () => {
    await migrate([notice()]);
    const t = notice();
    t.columns = t.columns.filter((c) => c.name !== 'content');
    const err = await failure(migrate([t]));
    expect(err).toBeInstanceOf(MigrationRefused);
    expect(err.message).toMatch(
      /table "notice" \(entity "notice", metadata\/entities\/notice.json\): column "content" is no longer in the metadata \(migration op "dropColumn" or "renameColumn"\)/,
    );
    expect(await columns('notice')).toContain('content');
  });

  it('a renamed field is refused with a ready-to-paste renameColumn file, not an addColumn fill; the file applies it and the rows keep their values', async () => {
    await migrate([notice()]);
    await addNotice(db, 'kept');
    const t = notice();
    const content = col(t, 'content');
    t.columns = t.columns.map((c) => (c === content ? { ...c, name: 'body', notNull: true, defaultSql: null } : c));
    const err = await failure(migrate([t]));
    expect(err).toBeInstanceOf(MigrationRefused);
    const m =
      /column "content" is no longer in the metadata and "body" is new, of the same type\. If it was renamed, add metadata\/migrations\/([\w-]+)\.json: (\{.*?\}) \(the rows keep their values\); if not, drop it \(migration op "dropColumn"\)/.exec(
        err.message,
      );
    expect(m, err.message).not.toBeNull();
    // reported once, as a rename: no fill suggested for the "new" column
    expect(err.message).not.toMatch(/"op":"addColumn"|is required and has no default/);
    const file = JSON.parse(m![2]) as Migration;
    expect(file).toEqual({ id: m![1], steps: [{ op: 'renameColumn', table: 'notice', from: 'content', to: 'body' }] });
    await migrate([t], [file]);
    expect(await columns('notice')).toContain('body');
    expect(await db.get(`SELECT body FROM notice`)).toEqual({ body: 'c' });
  });

  it('a retyped field is refused; a migration file allows it', async () => {
    await migrate([notice()]);
    const t = notice();
    col(t, 'published_at').fieldType = 'date';
    await expect(migrate([t])).rejects.toThrow(/changes type from datetime to date \(migration op "retypeColumn"\)/);
    const r = await migrate([t], [{ id: '0001-published-date', steps: [{ op: 'retypeColumn', table: 'notice', column: 'published_at' }] }]);
    expect(r.migrations).toEqual(['0001-published-date']);
    await expect(migrate([t])).resolves.toBeTruthy();
  });

  it('a migration drops a column the metadata no longer has, once', async () => {
    await migrate([notice()]);
    const t = notice();
    t.columns = t.columns.filter((c) => c.name !== 'published_at');
    t.indexes = t.indexes.filter((i) => !i.columns.includes('published_at'));
    const m = [{ id: '0002-drop-published', steps: [{ op: 'dropColumn' as const, table: 'notice', column: 'published_at' }] }];
    expect((await migrate([t], m)).migrations).toEqual(['0002-drop-published']);
    expect(await columns('notice')).not.toContain('published_at');
    expect((await migrate([t], m)).migrations).toEqual([]);
  });

  it('a table whose entity is gone is refused unless dropped by a migration', async () => {
    await migrate(tables);
    const rest = tables.filter((t) => t.name !== 'hazard_receipt_document');
    await expect(migrate(rest)).rejects.toThrow(/table "hazard_receipt_document" holds data but no entity describes it any more/);
    await migrate(rest, [{ id: '0003-drop-docs', steps: [{ op: 'dropTable', table: 'hazard_receipt_document' }] }]);
    expect(await tableExists('hazard_receipt_document')).toBe(false);
  });

  it('a refused migration changes nothing (one transaction)', async () => {
    await migrate([notice()]);
    const t = notice();
    t.columns = t.columns.filter((c) => c.name !== 'content');
    t.columns.push({ name: 'extra', fieldType: 'string', sqlType: 'TEXT', notNull: false, primaryKey: false, defaultSql: null });
    await expect(migrate([t])).rejects.toThrow(MigrationRefused);
    expect(await columns('notice')).not.toContain('extra');
  });
});

describe('required fields', () => {
  const fee = () => table('consulting_fee_item');
  const withoutRate = () => {
    const t = fee();
    t.columns = t.columns.filter((c) => c.name !== 'management_rate');
    return t;
  };
  const fill = (value: unknown): Migration[] => [
    {
      id: '0007-fill-rate',
      file: 'metadata/migrations/0007-fill-rate.json',
      steps: [{ op: 'addColumn', table: 'consulting_fee_item', column: 'management_rate', value }],
    },
  ];

  it('a new required field without a default, on a table with rows, is refused: the message names entity, field, file and the fix', async () => {
    await migrate([withoutRate()]);
    await db.run(FEE_ROW, ['P1']);
    const err = await failure(migrate([fee()]));
    expect(err).toBeInstanceOf(MigrationRefused);
    expect(err.message).toContain(
      'table "consulting_fee_item" (entity "consultingFeeItem", field "managementRate", metadata/entities/consulting-fee-item.json): the new field "managementRate" is required and has no default, but 1 existing rows would have no value in column "management_rate". ' +
        'Give the field a "default" in the metadata, or add metadata/migrations/0001-fill-consulting-fee-item-management-rate.json: {"id":"0001-fill-consulting-fee-item-management-rate","steps":[{"op":"addColumn","table":"consulting_fee_item","column":"management_rate","value":"<value>"}]}',
    );
    expect(await columns('consulting_fee_item')).not.toContain('management_rate');
  });

  it('an addColumn migration adds it, fills the rows, and makes it NOT NULL as in a fresh database', async () => {
    await migrate([withoutRate()]);
    await db.run(FEE_ROW, ['P1']);
    await db.run(FEE_ROW, ['P2']);
    const r = await migrate([fee()], fill(0.05));
    expect(r.migrations).toEqual(['0007-fill-rate']);
    expect((await db.all<{ r: number }>('SELECT management_rate AS r FROM consulting_fee_item')).map((x) => Number(x.r))).toEqual([0.05, 0.05]);
    await expect(db.run(`UPDATE consulting_fee_item SET management_rate = NULL`)).rejects.toThrow();
    const fresh = await newDb();
    await migrate([fee()], fill(0.05), fresh);
    expect(await schemaOf(db)).toEqual(await schemaOf(fresh));
  });

  it('copyFrom fills the rows from another column; an empty source leaves rows without a value and fails, naming the file and step', async () => {
    const t = withoutRate();
    col(t, 'urgent_order_price').notNull = true;
    const old = withoutRate();
    old.columns = old.columns.filter((c) => c.name !== 'urgent_order_price');
    await migrate([old]);
    await db.run(FEE_ROW, ['P1']);
    await db.run(`UPDATE consulting_fee_item SET ordinary_sales_price = 12.5`);
    const copy = (id: string): Migration[] => [
      {
        id,
        file: `metadata/migrations/${id}.json`,
        steps: [{ op: 'addColumn', table: 'consulting_fee_item', column: 'urgent_order_price', copyFrom: 'standard_cost' }],
      },
    ];
    const err = await failure(migrate([t], copy('0008-copy-cost')));
    expect(err).toBeInstanceOf(MigrationFailed);
    expect(err.message).toMatch(
      /^The database migration failed while applying migration metadata\/migrations\/0008-copy-cost.json, step 1 \(addColumn "consulting_fee_item"."urgent_order_price" from "standard_cost"\): 1 rows still have no value/,
    );
    expect(await columns('consulting_fee_item')).not.toContain('urgent_order_price');
    const ok: Migration[] = [
      { id: '0008-copy-price', steps: [{ op: 'addColumn', table: 'consulting_fee_item', column: 'urgent_order_price', copyFrom: 'ordinary_sales_price' }] },
    ];
    await migrate([t], ok);
    expect(Number((await db.get<{ p: number }>('SELECT urgent_order_price AS p FROM consulting_fee_item'))!.p)).toBe(12.5);
  });

  it('on an empty table a new required field is added NOT NULL at once, as in a fresh database', async () => {
    await migrate([withoutRate()]);
    const r = await migrate([fee()]);
    expect(r.addedColumns).toEqual(['consulting_fee_item.management_rate']);
    const fresh = await newDb();
    await migrate([fee()], [], fresh);
    expect(await schemaOf(db)).toEqual(await schemaOf(fresh));
  });

  it('a field that becomes required: refused while rows have no value, filled with its default when it has one', async () => {
    const loose = notice();
    col(loose, 'content').notNull = false;
    await migrate([loose]);
    await db.run(`INSERT INTO notice (title, content, status, deleted, version) VALUES ('a', NULL, '0', ?, 1)`, [db.dialect.bool(false)]);
    await expect(migrate([notice()])).rejects.toThrow(/the field "content" is required and has no default, but 1 rows have no value in column "content"/);
    const withDefault = notice();
    col(withDefault, 'content').defaultSql = `'(none)'`;
    const r = await migrate([withDefault]);
    expect(r.alteredColumns).toEqual(['notice.content']);
    expect(r.steps).toContain(`filled 1 empty rows of "notice"."content" with its default '(none)' (the field is now required)`);
    expect(await db.get('SELECT content FROM notice')).toEqual({ content: '(none)' });
  });
});

describe('a migrated database has the schema of a fresh one', () => {
  it('an older schema with rows (columns missing, looser, narrower, other ranges and defaults, a table and indexes missing) follows the whole metadata', async () => {
    const old = structuredClone(tables) as TableDef[];
    const oldTable = (n: string) => old.find((t) => t.name === n)!;
    // consulting fee items: a required field and a ranged one are new, a range and a default differ
    const fee = oldTable('consulting_fee_item');
    fee.columns = fee.columns.filter((c) => c.name !== 'management_rate' && c.name !== 'urgent_order_price');
    col(fee, 'consulting_fee').range = { min: 0, max: 1000 };
    col(fee, 'state').defaultSql = null;
    fee.indexes = fee.indexes.slice(1);
    // notices: a required field that an older version added as nullable (the quiet lie), a
    // narrower title, an index the metadata no longer has
    const n = oldTable('notice');
    col(n, 'title').notNull = false;
    if (db.kind === 'postgres') col(n, 'title').sqlType = 'VARCHAR(50)';
    n.indexes.push({ name: 'ix_notice_content_old', columns: ['content'], unique: false });
    // a whole entity is new
    const withoutWarehouse = old.filter((t) => t.name !== 'warehouse');
    await migrate(withoutWarehouse);
    await db.run(FEE_ROW, ['P1']);
    await db.run(FEE_ROW, ['P2']);
    await db.run(FEE_ROW, ['P3']);
    await db.run(`DELETE FROM consulting_fee_item WHERE original_parts_code = 'P3'`);
    await addNotice(db, 'kept');

    const lines: string[] = [];
    const m: Migration[] = [
      {
        id: '0001-fill-rate',
        file: 'metadata/migrations/0001-fill-rate.json',
        steps: [{ op: 'addColumn', table: 'consulting_fee_item', column: 'management_rate', value: 0.1 }],
      },
    ];
    const r = await migrateDb(db, tables, m, { log: (l) => lines.push(l) });
    // every step is one line, in the order it happened
    expect(lines).toEqual(r.steps);
    expect(lines.every((l) => !l.includes('\n'))).toBe(true);
    expect(lines[0]).toBe(
      'migration metadata/migrations/0001-fill-rate.json, step 1 (addColumn "consulting_fee_item"."management_rate" = 0.1): added the column, filled 2 rows',
    );
    expect(lines).toContain(
      'created table "warehouse" (entity "warehouse", metadata/entities/warehouse.json): ' +
        `${tables.find((t) => t.name === 'warehouse')!.columns.length} columns, ${tables.find((t) => t.name === 'warehouse')!.indexes.length} indexes`,
    );
    // SQLite rebuilds notice (title becomes NOT NULL), and the index goes with the old table
    expect(lines).toContain(
      db.kind === 'sqlite'
        ? 'dropped index "ix_notice_content_old" of "notice" with the rebuilt table (the metadata no longer has it)'
        : 'dropped index "ix_notice_content_old" of "notice" (the metadata no longer has it)',
    );
    expect(lines.some((l) => /^(rebuilt table "consulting_fee_item"|changed column "consulting_fee_item"."consulting_fee")/.test(l))).toBe(true);
    expect(r.alteredColumns).toEqual(
      expect.arrayContaining(['consulting_fee_item.consulting_fee', 'consulting_fee_item.state', 'consulting_fee_item.management_rate', 'notice.title']),
    );

    const fresh = await newDb();
    await migrate(tables, m, fresh);
    expect(await schemaOf(db)).toEqual(await schemaOf(fresh));
    // the rows are all there, and ids are never handed out twice (P3's id stays used)
    expect((await db.all<{ p: string }>('SELECT original_parts_code AS p FROM consulting_fee_item ORDER BY id')).map((x) => x.p)).toEqual(['P1', 'P2']);
    await db.run(FEE_ROW.replace('consulting_fee,', 'consulting_fee, management_rate,').replace("1, 'S001'", "1, 0.2, 'S001'"), ['P4']);
    expect((await db.get<{ id: number }>(`SELECT id FROM consulting_fee_item WHERE original_parts_code = 'P4'`))!.id).toBe(4);
    expect(await db.get('SELECT title FROM notice')).toEqual({ title: 'kept' });
    // and nothing is left to do
    expect((await migrate(tables, m)).steps).toEqual([]);
  });

  it('a new optional field with a declared range gets its CHECK, as in a fresh table', async () => {
    const old = table('consulting_fee_item');
    old.columns = old.columns.filter((c) => c.name !== 'urgent_order_price');
    await migrate([old]);
    const r = await migrate([table('consulting_fee_item')]);
    expect(r.addedColumns).toEqual(['consulting_fee_item.urgent_order_price']);
    expect(r.alteredColumns).toEqual([]);
    const fresh = await newDb();
    await migrate([table('consulting_fee_item')], [], fresh);
    expect(await schemaOf(db)).toEqual(await schemaOf(fresh));
    await expect(db.run(`UPDATE consulting_fee_item SET urgent_order_price = -1`)).resolves.toBeTruthy(); // no rows yet
    await db.run(FEE_ROW.replace('consulting_fee,', 'consulting_fee, management_rate,').replace("1, 'S001'", "1, 0.2, 'S001'"), ['P1']);
    await expect(db.run(`UPDATE consulting_fee_item SET urgent_order_price = -1`)).rejects.toThrow(/CHECK|check/);
  });

  it('a migration on a database that does not have the table yet is skipped, and says so', async () => {
    const r = await migrate([notice()], [{ id: '0001-retype', steps: [{ op: 'retypeColumn', table: 'notice', column: 'published_at' }] }]);
    expect(r.steps[0]).toBe(
      'migration 0001-retype, step 1 (retypeColumn "notice"."published_at"): skipped, the table does not exist yet (it is created as the metadata says)',
    );
    expect(r.migrations).toEqual(['0001-retype']);
    expect(r.created).toEqual(['notice']);
  });
});

describe('a failing statement', () => {
  it('names the migration file and step, not a bare driver error, and changes nothing', async () => {
    await migrate([notice()]);
    const m: Migration[] = [
      {
        id: '0009-cleanup',
        file: 'metadata/migrations/0009-cleanup.json',
        steps: [
          { op: 'renameColumn', table: 'notice', from: 'content', to: 'body' },
          { op: 'dropColumn', table: 'notice', column: 'no_such_column' },
        ],
      },
    ];
    const err = await failure(migrate([notice()], m));
    expect(err).toBeInstanceOf(MigrationFailed);
    expect(err.message).toMatch(
      /^The database migration failed while applying migration metadata\/migrations\/0009-cleanup.json, step 2 \(dropColumn "notice"."no_such_column"\): .*no_such_column.*\. Nothing was changed/,
    );
    expect(err.message).not.toMatch(/\n\s+at /);
    // step 1 was rolled back with the rest
    expect(await columns('notice')).toContain('content');
    expect(await columns('notice')).not.toContain('body');
  });

  it('a step that fills a column the metadata does not declare is refused with the file and step', async () => {
    await migrate([notice()]);
    const err = await failure(
      migrate(
        [notice()],
        [{ id: '0010-x', file: 'metadata/migrations/0010-x.json', steps: [{ op: 'addColumn', table: 'notice', column: 'summary', value: 'x' }] }],
      ),
    );
    expect(err.message).toMatch(
      /applying migration metadata\/migrations\/0010-x.json, step 1 \(addColumn "notice"."summary" = "x"\): the metadata has no column "summary" in table "notice"/,
    );
  });
});
