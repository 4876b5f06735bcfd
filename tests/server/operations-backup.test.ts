/**
 * Backups that restore (server/ops/backup.ts), on the backend of the project: a backup taken
 * while a writer goes on, restored into a fresh database, holds every write acknowledged before
 * it began, only whole writes (a prefix of the writer's sequence: row and file together), and
 * every file byte-identical. A damaged backup, one from a newer portal (migrations this one does
 * not know) and a non-empty target are refused, leaving the target as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { metadata, migrations, tables } from '../../server/generated/index.ts';
import { openDb } from '../../server/db/open.ts';
import { fileStoreFor } from '../../server/plugins/file-store.ts';
import { backup, BackupRefused, MANIFEST, restore, type Manifest, type PortalModel, type RestoreTarget } from '../../server/ops/backup.ts';
import { createTestDatabase } from '../support/postgres.ts';
import { BACKEND, build, pgServerUrl, type TestApp } from './helpers.ts';

const model: PortalModel = { portalVersion: 'test', metadataHash: metadata.hash, migrations, tables };
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let t: TestApp;
let scratch: string;
const drops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  t = await build();
  scratch = mkdtempSync(join(tmpdir(), 'portal-backup-'));
});
afterAll(async () => {
  await t.close();
  for (const d of drops) await d();
  rmSync(scratch, { recursive: true, force: true });
});

/** A fresh, empty place to restore into. */
async function freshTarget(name: string): Promise<RestoreTarget> {
  if (BACKEND === 'postgres') {
    const db = await createTestDatabase(pgServerUrl(), 'portal_restore');
    drops.push(db.drop);
    return { url: db.url };
  }
  return { file: join(scratch, name, 'portal.db'), filesDir: join(scratch, name, 'files') };
}

const source = () => (t.database.databaseUrl ? { url: t.database.databaseUrl } : { file: t.database.dbFile!, filesDir: t.database.filesDir! });

describe('backup and restore', () => {
  let dir: string;
  const written: { title: string; file: string; bytes: Buffer }[] = [];
  let ackedBeforeBackup = 0;

  it('backs up under write load and restores every acknowledged write and file, byte-identical', async () => {
    // the writer: a file, then the row that names it (as an upload does), one after another
    let stop = false;
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        const bytes = randomBytes(1000 + (i % 7) * 3000);
        const file = await t.app.fileStore.save(bytes);
        const title = `backup-load-${String(i).padStart(5, '0')}`;
        await t.app.db.transaction((tx) => tx.run(`INSERT INTO notice (title, content) VALUES (?, ?)`, [title, `${file} ${sha(bytes)}`]));
        written.push({ title, file, bytes });
      }
    })();
    while (written.length < 20) await new Promise((res) => setTimeout(res, 10));
    ackedBeforeBackup = written.length;
    dir = join(scratch, 'backup-1');
    const manifest = await backup(source(), dir, model);
    const ackedAfterBackup = written.length;
    stop = true;
    await writer;
    // the writer really wrote while the backup ran
    expect(ackedAfterBackup).toBeGreaterThan(ackedBeforeBackup);

    expect(manifest.backend).toBe(BACKEND);
    expect(manifest.metadataHash).toBe(metadata.hash);
    expect(manifest.migrations).toEqual(migrations.map((m) => m.id).sort());
    expect(manifest.rowCounts.notice).toBeGreaterThanOrEqual(ackedBeforeBackup);
    expect(Object.keys(manifest.checksums).length).toBeGreaterThan(0);

    const target = await freshTarget('restore-1');
    const { steps } = await restore(dir, target, model);
    expect(steps).toEqual([]);
    const db = await openDb(target);
    try {
      const rows = await db.all<{ title: string; content: string }>(`SELECT title, content FROM notice WHERE title LIKE 'backup-load-%' ORDER BY title`);
      // a consistent instant: the first k writes, whole, with k at least what was acknowledged before the backup began
      expect(rows.length).toBeGreaterThanOrEqual(ackedBeforeBackup);
      expect(rows.map((r) => r.title)).toEqual(written.slice(0, rows.length).map((w) => w.title));
      const store = fileStoreFor(db, 'filesDir' in target ? target.filesDir : null);
      for (const [i, r] of rows.entries()) {
        const [name, digest] = r.content.split(' ');
        expect(name).toBe(written[i].file);
        const restored = await store.read(name);
        expect(restored.equals(written[i].bytes), r.title).toBe(true);
        expect(sha(restored)).toBe(digest);
      }
      // every table holds the rows the manifest counted
      for (const [table, n] of Object.entries(manifest.rowCounts))
        expect(Number((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM "${table}"`))!.n), table).toBe(n);
    } finally {
      await db.close();
    }
  });

  it('refuses a target that is not empty, unless forced', async () => {
    const target = await freshTarget('restore-2');
    await restore(dir, target, model);
    await expect(restore(dir, target, model)).rejects.toThrow(/not empty/);
    const again = await restore(dir, target, model, { force: true });
    expect(again.manifest.backend).toBe(BACKEND);
  });

  /** A copy of the backup whose manifest is changed by `edit` (the checksums cover the data files, not the manifest). */
  function variant(name: string, edit: (m: Manifest) => void): string {
    const copy = join(scratch, name);
    rmSync(copy, { recursive: true, force: true });
    cpSync(dir, copy, { recursive: true });
    const m = JSON.parse(readFileSync(join(copy, MANIFEST), 'utf8')) as Manifest;
    edit(m);
    writeFileSync(join(copy, MANIFEST), JSON.stringify(m));
    return copy;
  }

  it('refuses a backup from other metadata with migrations this portal does not know; takes one whose migrations it has', async () => {
    const newer = variant('newer', (m) => {
      m.metadataHash = 'f'.repeat(64);
      m.migrations.push('9999-from-a-newer-portal');
    });
    const target = await freshTarget('restore-3');
    const refused = restore(newer, target, model);
    await expect(refused).rejects.toBeInstanceOf(BackupRefused);
    await expect(refused).rejects.toThrow(/9999-from-a-newer-portal/);
    // nothing was written
    if ('file' in target) expect(existsSync(target.file)).toBe(false);
    else {
      const db = await openDb(target);
      expect(await db.all(`SELECT tablename FROM pg_tables WHERE schemaname = current_schema()`)).toEqual([]);
      await db.close();
    }
    // another metadata version whose migrations this portal has: restored, then migrated forward
    const older = variant('older', (m) => {
      m.metadataHash = 'e'.repeat(64);
    });
    const ok = await restore(older, target, model);
    expect(ok.manifest.metadataHash).toBe('e'.repeat(64));
  });

  it('refuses a damaged backup', async () => {
    const damaged = variant('damaged', (m) => {
      const [first] = Object.keys(m.checksums);
      m.checksums[first] = { ...m.checksums[first], sha256: '0'.repeat(64) };
    });
    await expect(restore(damaged, await freshTarget('restore-4'), model)).rejects.toThrow(/checksum/);
  });

  it('a backup is readable by its owner only (folder 0700, files 0600) whatever the umask; a restore names what others could read (issue 37 point 1)', async () => {
    const to = join(scratch, 'private-backup');
    const before = process.umask(0o002);
    try {
      await backup(source(), to, model);
    } finally {
      process.umask(before);
    }
    const modes: Record<string, string> = {};
    const walk = (rel: string) => {
      const m = statSync(join(to, rel)).mode;
      modes[rel || '.'] = (m & 0o777).toString(8);
      if (statSync(join(to, rel)).isDirectory()) for (const e of readdirSync(join(to, rel))) walk(rel ? join(rel, e) : e);
    };
    walk('');
    expect(Object.keys(modes)).toEqual(expect.arrayContaining(['.', MANIFEST, BACKEND === 'postgres' ? 'portal.dump' : 'portal.db']));
    expect(Object.entries(modes).filter(([rel, m]) => m !== (statSync(join(to, rel)).isDirectory() ? '700' : '600'))).toEqual([]);
    const clean = await restore(to, await freshTarget('restore-private'), model);
    expect(clean.warnings).toEqual([]);
    // widened by hand (a copy with cp -r under umask 022, say): the restore still works and says so
    chmodSync(to, 0o755);
    chmodSync(join(to, MANIFEST), 0o644);
    const warned = await restore(to, await freshTarget('restore-wide'), model);
    expect(warned.warnings).toHaveLength(1);
    expect(warned.warnings[0]).toMatch(/can be read by other users.*\. \(0755\).*manifest\.json \(0644\).*chmod -R go-rwx/);
  });

  it('npm run backup / npm run restore (the runbook commands) do the same, and exit 1 with one line on a refusal', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const k of ['DATABASE_URL', 'PORTAL_DB']) delete env[k];
    const run = (args: string[], extra: NodeJS.ProcessEnv) =>
      spawnSync('npm', ['run', '--silent', ...args], {
        cwd: join(import.meta.dirname, '..', '..'),
        env: { ...env, ...extra },
        encoding: 'utf8',
        timeout: 120_000,
      });
    const where = t.database.databaseUrl ? { DATABASE_URL: t.database.databaseUrl } : { PORTAL_DB: t.database.dbFile! };
    const to = join(scratch, 'cli-backup');
    const b = run(['backup', '--', '--to', to], where);
    expect(b.status, b.stderr).toBe(0);
    expect(b.stdout).toMatch(/^backup: .* -> .*cli-backup: \d+ files, \d+ bytes, \d+ rows in [\d.]+ s$/m);
    const target = await freshTarget('cli-restore');
    const into = 'url' in target ? ['--url', target.url] : ['--db', target.file];
    const r = run(['restore', '--', '--from', to, ...into], {});
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checksums and row counts match/);
    const again = run(['restore', '--', '--from', to, ...into], {});
    expect(again.status).toBe(1);
    expect(again.stderr.trim()).toBe('restore: The target database is not empty: restore into a new one, or pass --force to replace it');
  });
});
