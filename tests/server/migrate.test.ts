/**
 * Tables follow the metadata: new entities and fields appear by themselves, data-losing changes
 * are refused with a clear message until a migration says what to do.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type DB } from '../../server/db/open.ts';
import { migrate, MigrationRefused } from '../../server/db/migrate.ts';
import { tables } from '../../server/generated/index.ts';
import type { TableDef } from '../../codegen/runtime/dialect.ts';

let dir: string;
let db: DB;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'migrate-'));
  db = openDatabase(join(dir, 'x.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const notice = () => structuredClone(tables.find((t) => t.name === 'notice')!) as TableDef;
const columns = (t: string) => (db.prepare(`PRAGMA table_info("${t}")`).all() as { name: string }[]).map((c) => c.name);

describe('migrations', () => {
  it('creates every table and index of the metadata, and a second run changes nothing', () => {
    const first = migrate(db, tables);
    expect(first.created.length).toBe(tables.length);
    const second = migrate(db, tables);
    expect(second).toEqual({ created: [], addedColumns: [], createdIndexes: [], droppedIndexes: [], migrations: [] });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
  });

  it('a new field adds a column and keeps the rows', () => {
    migrate(db, [notice()]);
    db.prepare(`INSERT INTO notice (title, content, status, deleted, version) VALUES ('t', 'c', '0', 0, 1)`).run();
    const t = notice();
    t.columns.push({ name: 'summary', fieldType: 'string', sqlType: 'TEXT', notNull: false, primaryKey: false, defaultSql: null });
    const r = migrate(db, [t]);
    expect(r.addedColumns).toEqual(['notice.summary']);
    expect(columns('notice')).toContain('summary');
    expect(db.prepare('SELECT COUNT(*) AS n FROM notice').get()).toEqual({ n: 1 });
  });

  it('a field removed from metadata is refused with a message naming table, column and the migration op', () => {
    migrate(db, [notice()]);
    const t = notice();
    t.columns = t.columns.filter((c) => c.name !== 'content');
    let err: unknown;
    try {
      migrate(db, [t]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MigrationRefused);
    expect(String((err as Error).message)).toMatch(/table "notice": column "content" is no longer in the metadata \(migration op "dropColumn" or "renameColumn"\)/);
    expect(columns('notice')).toContain('content');
  });

  it('a retyped field is refused; a migration file allows it', () => {
    migrate(db, [notice()]);
    const t = notice();
    t.columns.find((c) => c.name === 'published_at')!.fieldType = 'date';
    expect(() => migrate(db, [t])).toThrow(/changes type from datetime to date \(migration op "retypeColumn"\)/);
    const r = migrate(db, [t], [{ id: '0001-published-date', steps: [{ op: 'retypeColumn', table: 'notice', column: 'published_at' }] }]);
    expect(r.migrations).toEqual(['0001-published-date']);
    expect(() => migrate(db, [t])).not.toThrow();
  });

  it('a migration drops a column the metadata no longer has, once', () => {
    migrate(db, [notice()]);
    const t = notice();
    t.columns = t.columns.filter((c) => c.name !== 'published_at');
    t.indexes = t.indexes.filter((i) => !i.columns.includes('published_at'));
    const m = [{ id: '0002-drop-published', steps: [{ op: 'dropColumn' as const, table: 'notice', column: 'published_at' }] }];
    expect(migrate(db, [t], m).migrations).toEqual(['0002-drop-published']);
    expect(columns('notice')).not.toContain('published_at');
    expect(migrate(db, [t], m).migrations).toEqual([]);
  });

  it('a table whose entity is gone is refused unless dropped by a migration', () => {
    migrate(db, tables);
    const rest = tables.filter((t) => t.name !== 'hazard_receipt_document');
    expect(() => migrate(db, rest)).toThrow(/table "hazard_receipt_document" holds data but no entity describes it any more/);
    migrate(db, rest, [{ id: '0003-drop-docs', steps: [{ op: 'dropTable', table: 'hazard_receipt_document' }] }]);
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name = 'hazard_receipt_document'`).get()).toBeUndefined();
  });

  it('a refused migration changes nothing (one transaction)', () => {
    migrate(db, [notice()]);
    const t = notice();
    t.columns = t.columns.filter((c) => c.name !== 'content');
    t.columns.push({ name: 'extra', fieldType: 'string', sqlType: 'TEXT', notNull: false, primaryKey: false, defaultSql: null });
    expect(() => migrate(db, [t])).toThrow(MigrationRefused);
    expect(columns('notice')).not.toContain('extra');
  });
});
