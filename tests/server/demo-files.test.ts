/**
 * Demo files for file entities (server/seed/demo-files.ts): a copy of the metadata whose notice
 * attachments say `"seed": { "files": 2 }` is compiled and seeded into a fresh database of the
 * backend under test with the deployment's file store: the first notices get two stored PDF files
 * each (real bytes of the rule's first type), rows that name them; the hint on an entity without
 * files is a codegen error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import { seedDatabase } from '../../server/seed/index.ts';
import { MAX_PARENTS } from '../../server/seed/demo-files.ts';
import { fileStoreFor, type FileStore } from '../../server/plugins/file-store.ts';
import { TEST_PARAMS } from '../../server/engine/passwords.ts';
import { compileMetadataCopy, migratedDatabase, type MigratedDatabase } from './compiled-copy.ts';

let dir: string;
let database: MigratedDatabase;
let store: FileStore;
let meta: CompiledMetadata;

/** A copy of the metadata with one entity file edited, compiled. */
const compileWith = (entityFile: string, edit: (e: Record<string, unknown>) => void) =>
  compileMetadataCopy(dir, (metadataDir) => {
    const p = join(metadataDir, 'entities', entityFile);
    const e = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
    edit(e);
    writeFileSync(p, JSON.stringify(e));
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'demo-files-'));
  const r = await compileWith('notice-attachment.json', (e) => (e.seed = { files: 2 }));
  expect(r.errors).toEqual([]);
  meta = r.model;
  database = await migratedDatabase(dir, r.tables);
  store = fileStoreFor(database.db, database.options.filesDir);
  await seedDatabase(database.db, meta, { hashParams: TEST_PARAMS, files: store });
}, 300_000);

afterAll(async () => {
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('demo files for file entities', () => {
  it('gives the first parents two stored PDF files each, named by their rows', async () => {
    const att = meta.entities.noticeAttachment;
    const col = (f: string) => quote(att.fields[f].column);
    const notices = Number((await database.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${quote(meta.entities.notice.table)}`))!.n);
    expect(notices).toBeGreaterThan(0);
    const rows = await database.db.all<{ parent: number; name: string; size: number; mime: string; stored: string }>(
      `SELECT ${col('noticeId')} AS parent, ${col('fileName')} AS name, ${col('fileSize')} AS size, ${col('mimeType')} AS mime, ${col('storageName')} AS stored FROM ${quote(att.table)} ORDER BY ${quote('id')}`,
    );
    expect(rows).toHaveLength(2 * Math.min(notices, MAX_PARENTS));
    expect(new Set(rows.map((r) => Number(r.parent))).size).toBe(Math.min(notices, MAX_PARENTS));
    for (const r of rows.slice(0, 4)) {
      const data = await store.read(r.stored);
      expect(data.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(data.toString('latin1')).toContain('%%EOF');
      expect(Number(r.size)).toBe(data.length);
      expect(r.mime).toBe('application/pdf');
      expect(r.name).toMatch(/\.pdf$/);
    }
  });

  it('the hint on an entity that stores no files is a codegen error', async () => {
    const r = await compileWith('notice.json', (e) => (e.seed = { files: 1 }));
    expect(r.errors.join('\n')).toContain('demo files are for file entities');
  }, 300_000);
});
