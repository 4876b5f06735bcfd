/**
 * Tables follow the metadata: new entities and fields appear by themselves, data-losing changes
 * are refused with a clear message until a migration says what to do. On the backend under test
 * (SQLite or PostgreSQL, helpers.ts), with that dialect's table model.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../../server/db/open.ts';
import type { Db } from '../../server/db/types.ts';
import { migrate as migrateDb, MigrationRefused, type Migration } from '../../server/db/migrate.ts';
import { tables as allTables } from '../../server/generated/index.ts';
import type { TableDef } from '../../codegen/runtime/dialect.ts';
import { BACKEND, testDatabase } from './helpers.ts';

const tables = allTables[BACKEND];
let dir: string;
let db: Db;
let drop: () => Promise<void>;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'migrate-'));
  const t = await testDatabase(dir);
  drop = t.drop;
  db = await openDb(t.options.databaseUrl ? { url: t.options.databaseUrl } : { file: t.options.dbFile! });
});
afterEach(async () => {
  await db.close();
  await drop();
  rmSync(dir, { recursive: true, force: true });
});

const migrate = (t: TableDef[], m?: Migration[]) => migrateDb(db, t, m);
const notice = () => structuredClone(tables.find((t) => t.name === 'notice')!) as TableDef;
const columns = async (t: string) => {
  const q = db.dialect.columnsQuery(t);
  return (await db.all<{ name: string }>(q.sql, q.params)).map((c) => c.name);
};
const tableExists = async (t: string) => {
  const q = db.dialect.tableExistsQuery(t);
  return !!(await db.get(q.sql, q.params));
};

describe('migrations', () => {
  it('creates every table and index of the metadata, and a second run changes nothing', async () => {
    const first = await migrate(tables);
    expect(first.created.length).toBe(tables.length);
    expect(first.createdIndexes.length).toBe(tables.reduce((n, t) => n + t.indexes.length, 0));
    const second = await migrate(tables);
    expect(second).toEqual({ created: [], addedColumns: [], createdIndexes: [], droppedIndexes: [], migrations: [] });
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
    await db.run(`INSERT INTO notice (title, content, status, deleted, version) VALUES ('t', 'c', '0', ?, 1)`, [db.dialect.bool(false)]);
    const t = notice();
    t.columns.push({ name: 'summary', fieldType: 'string', sqlType: 'TEXT', notNull: false, primaryKey: false, defaultSql: null });
    const r = await migrate([t]);
    expect(r.addedColumns).toEqual(['notice.summary']);
    expect(await columns('notice')).toContain('summary');
    expect(await db.get('SELECT COUNT(*) AS n FROM notice')).toEqual({ n: 1 });
  });

  it('a field removed from metadata is refused with a message naming table, column and the migration op', async () => {
    await migrate([notice()]);
    const t = notice();
    t.columns = t.columns.filter((c) => c.name !== 'content');
    let err: unknown;
    try {
      await migrate([t]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MigrationRefused);
    expect(String((err as Error).message)).toMatch(/table "notice": column "content" is no longer in the metadata \(migration op "dropColumn" or "renameColumn"\)/);
    expect(await columns('notice')).toContain('content');
  });

  it('a retyped field is refused; a migration file allows it', async () => {
    await migrate([notice()]);
    const t = notice();
    t.columns.find((c) => c.name === 'published_at')!.fieldType = 'date';
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
