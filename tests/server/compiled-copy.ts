/**
 * Server tests over metadata the repository does not ship: a copy of metadata/ changed by the test
 * (a fixture entity added, a hint edited), compiled by codegen in memory, and fresh databases of the
 * backend under test migrated to the copy's tables. Shared by the seed tests (generic-seed,
 * demo-files) so each says only what it changes and what it expects.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCodegen } from '../../codegen/index.ts';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { DialectName, TableDef } from '../../codegen/runtime/dialect.ts';
import { openDb } from '../../server/db/open.ts';
import type { Db } from '../../server/db/types.ts';
import { migrate } from '../../server/db/migrate.ts';
import { testDatabase, type TestApp } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');

export interface CompiledCopy {
  /** codegen's error messages (empty when the copy compiled) */
  errors: string[];
  model: CompiledMetadata;
  tables: Record<DialectName, TableDef[]>;
}

/** Copies metadata/ into a new folder under `parent`, lets `change` edit the copy's metadata folder, compiles it. */
export async function compileMetadataCopy(parent: string, change: (metadataDir: string) => void): Promise<CompiledCopy> {
  const copy = mkdtempSync(join(parent, 'meta-'));
  cpSync(join(ROOT, 'metadata'), join(copy, 'metadata'), { recursive: true });
  change(join(copy, 'metadata'));
  const r = await runCodegen(join(copy, 'metadata'), copy);
  const tables = r.files?.get('server/generated/tables.json');
  return { errors: r.errors.map((e) => e.message), model: r.model!, tables: tables ? JSON.parse(tables) : undefined };
}

export interface MigratedDatabase {
  db: Db;
  /** where its stored files go (the deployment's file store over this database) */
  options: TestApp['database'];
  /** closes the connection and removes the database */
  close(): Promise<void>;
}

/** A fresh database of the backend under test in a new folder under `parent`, with `tables` of its dialect (or those `only` keeps). */
export async function migratedDatabase(
  parent: string,
  tables: Record<DialectName, TableDef[]>,
  only: (t: TableDef) => boolean = () => true,
): Promise<MigratedDatabase> {
  const d = await testDatabase(mkdtempSync(join(parent, 'db-')));
  const db = await openDb('databaseUrl' in d.options && d.options.databaseUrl ? { url: d.options.databaseUrl } : { file: d.options.dbFile! });
  await migrate(db, tables[db.kind].filter(only), []);
  return {
    db,
    options: d.options,
    close: async () => {
      await db.close();
      await d.drop();
    },
  };
}
