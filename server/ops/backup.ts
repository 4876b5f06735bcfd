/**
 * Backups that restore, for both databases (docs/operations.md "Backups").
 *
 * SQLite: an online copy while the portal serves, with better-sqlite3's backup() (SQLite's online
 * backup API, on a connection of its own: WAL writers go on), and the files folder beside it.
 * Stored files are never changed in place (new names for new content) and are removed only after
 * the row that named them is gone, so they are copied before the database (every file a row of
 * the copy can name is there) and once more after it (files saved meanwhile).
 * PostgreSQL: pg_dump's custom format of the whole database, files included (table _files),
 * taken in one exported snapshot that the manifest's row counts come from too.
 *
 * Each backup folder has manifest.json: format, backend, portal version, metadata hash, the
 * migrations applied, row counts per table, and a SHA-256 of every file in the folder. A restore
 * checks the checksums, refuses a backup whose database knows migrations this metadata does not
 * (a newer portal's), restores into a database that must be empty (or is replaced with force),
 * compares the row counts, then migrates it to this metadata: a backup of an older version comes
 * forward through its migrations, or the restore is refused as a start would be.
 *
 * A backup holds password hashes, TOTP seeds and (PostgreSQL) the generated JWT secret: its folder
 * is 0700 and every file in it 0600, whatever the umask (issue 37 point 1: they were 0644 in a 0755
 * folder); a restore names any part of the backup that others may read.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { openDb } from '../db/open.ts';
import { migrate } from '../db/migrate.ts';
import type { Migration } from '../db/migrate.ts';
import type { TableDef } from '../../codegen/runtime/dialect.ts';

export const MANIFEST = 'manifest.json';
const SQLITE_FILE = 'portal.db';
const PG_DUMP = 'portal.dump';
const FILES = 'files';

export interface Manifest {
  format: 1;
  backend: 'sqlite' | 'postgres';
  createdAt: string;
  portalVersion: string;
  metadataHash: string;
  /** ids of the migrations applied to the backed-up database */
  migrations: string[];
  /** rows of every table at the instant of the copy */
  rowCounts: Record<string, number>;
  /** path inside the backup folder -> { bytes, sha256 } */
  checksums: Record<string, { bytes: number; sha256: string }>;
}

/** What the portal running now is: its metadata hash, migrations and table model. */
export interface PortalModel {
  portalVersion: string;
  metadataHash: string;
  migrations: Migration[];
  tables: { sqlite: TableDef[]; postgres: TableDef[] };
}

export type BackupSource = { file: string; filesDir: string } | { url: string };

export class BackupRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefused';
  }
}

async function sha256(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

/** PostgreSQL's client programs: PG_BIN, else the newest of Debian's /usr/lib/postgresql/<version>/bin, else PATH. */
export function pgProgram(name: 'pg_dump' | 'pg_restore'): string {
  if (process.env.PG_BIN) return join(process.env.PG_BIN, name);
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', name)))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return join(root, versions[0], 'bin', name);
  }
  return name;
}

/** Runs a client program; its stderr (never the URL's password: it is passed in the environment) becomes the error. */
function run(program: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${program} failed (${code}): ${stderr.trim()}`))));
  });
}

/** The URL without its password, and the password for PGPASSWORD (so no process list shows it). */
function splitUrl(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { url: u.toString(), env: password ? { PGPASSWORD: password } : {} };
}

/** The tables of the model (views hold no rows of their own). */
const tableNames = (model: PortalModel, kind: 'sqlite' | 'postgres') => model.tables[kind].filter((t) => !t.view).map((t) => t.name);

async function sqliteBackup(src: { file: string; filesDir: string }, to: string, model: PortalModel): Promise<Omit<Manifest, 'checksums' | 'createdAt'>> {
  const filesOut = join(to, FILES);
  await mkdir(filesOut, { recursive: true });
  const copyNewFiles = async () => {
    const have = new Set(await readdir(filesOut));
    for (const f of filesUnder(src.filesDir)) if (!have.has(f)) await copyFile(join(src.filesDir, f), join(filesOut, f));
  };
  await copyNewFiles();
  const source = new Database(src.file, { readonly: true, fileMustExist: true });
  try {
    source.pragma('busy_timeout = 10000');
    // every remaining page in one step: a step that is interrupted by a write starts over, so
    // small steps could chase a busy database for ever
    await source.backup(join(to, SQLITE_FILE), { progress: ({ remainingPages }) => Math.max(remainingPages, 100) });
  } finally {
    source.close();
  }
  await copyNewFiles();
  const copy = new Database(join(to, SQLITE_FILE));
  try {
    // one self-contained file (the copy keeps the source's WAL mode, which would leave -wal and -shm beside it)
    copy.pragma('journal_mode = DELETE');
    const present = new Set((copy.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name));
    const rowCounts: Record<string, number> = {};
    for (const t of [...tableNames(model, 'sqlite'), '_migrations', '_mail_queue']) {
      if (present.has(t)) rowCounts[t] = (copy.prepare(`SELECT COUNT(*) AS n FROM "${t}"`).get() as { n: number }).n;
    }
    const migrations = present.has('_migrations') ? (copy.prepare(`SELECT id FROM _migrations ORDER BY id`).all() as { id: string }[]).map((r) => r.id) : [];
    return { format: 1, backend: 'sqlite', portalVersion: model.portalVersion, metadataHash: model.metadataHash, migrations, rowCounts };
  } finally {
    copy.close();
  }
}

async function postgresBackup(src: { url: string }, to: string, model: PortalModel): Promise<Omit<Manifest, 'checksums' | 'createdAt'>> {
  const client = new pg.Client({ connectionString: src.url });
  await client.connect();
  try {
    // one snapshot for the counts and the dump: the manifest describes exactly what was dumped
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = (await client.query<{ s: string }>('SELECT pg_export_snapshot() AS s')).rows[0].s;
    const present = new Set(
      (await client.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema()`)).rows.map((r) => r.t),
    );
    const rowCounts: Record<string, number> = {};
    for (const t of [...tableNames(model, 'postgres'), '_migrations', '_mail_queue', '_files']) {
      if (present.has(t)) rowCounts[t] = Number((await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "${t}"`)).rows[0].n);
    }
    const migrations = present.has('_migrations') ? (await client.query<{ id: string }>(`SELECT id FROM _migrations ORDER BY id`)).rows.map((r) => r.id) : [];
    const target = splitUrl(src.url);
    await run(
      pgProgram('pg_dump'),
      ['--format=custom', `--snapshot=${snapshot}`, '--no-owner', '--no-privileges', `--file=${join(to, PG_DUMP)}`, `--dbname=${target.url}`],
      target.env,
    );
    await client.query('COMMIT');
    return { format: 1, backend: 'postgres', portalVersion: model.portalVersion, metadataHash: model.metadataHash, migrations, rowCounts };
  } finally {
    await client.end();
  }
}

/** Writes a backup of `source` into the folder `to` (created; it must be empty). */
export async function backup(source: BackupSource, to: string, model: PortalModel): Promise<Manifest> {
  if (existsSync(to) && readdirSync(to).length) throw new BackupRefused(`${to} is not empty: give a new folder for each backup`);
  await mkdir(to, { recursive: true, mode: PRIVATE_DIR });
  // before anything is written: nobody else may enter the folder, whatever its files' modes meanwhile
  await chmod(to, PRIVATE_DIR);
  const createdAt = new Date().toISOString();
  const body = 'url' in source ? await postgresBackup(source, to, model) : await sqliteBackup(source, to, model);
  const checksums: Manifest['checksums'] = {};
  for (const f of filesUnder(to).sort()) checksums[f] = await sha256(join(to, f));
  const manifest: Manifest = { ...body, createdAt, checksums };
  await writeFile(join(to, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_FILE });
  await makePrivate(to);
  return manifest;
}

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/** The folder and everything under it readable by its owner only (SQLite, pg_dump and copies follow the umask). */
async function makePrivate(dir: string): Promise<void> {
  await chmod(dir, PRIVATE_DIR);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await makePrivate(path);
    else await chmod(path, PRIVATE_FILE);
  }
}

/** The parts of a backup folder that others than its owner may read or enter: path and mode, for a warning. */
export async function widerThanPrivate(dir: string, under = ''): Promise<string[]> {
  const info = await stat(join(dir, under));
  const mode = info.mode & 0o777;
  const out = mode & 0o077 ? [`${under || '.'} (${mode.toString(8).padStart(4, '0')})`] : [];
  if (info.isDirectory()) for (const name of await readdir(join(dir, under))) out.push(...(await widerThanPrivate(dir, under ? join(under, name) : name)));
  return out;
}

/** Reads and checks a backup folder: every file of the manifest there, byte for byte. */
export async function readBackup(from: string): Promise<Manifest> {
  const file = join(from, MANIFEST);
  if (!existsSync(file)) throw new BackupRefused(`${from} has no ${MANIFEST}: not a backup of this portal`);
  const manifest = JSON.parse(await readFile(file, 'utf8')) as Manifest;
  if (manifest.format !== 1) throw new BackupRefused(`${from}: unknown backup format ${String(manifest.format)}`);
  for (const [f, want] of Object.entries(manifest.checksums)) {
    if (!existsSync(join(from, f))) throw new BackupRefused(`${from}: ${f} is missing`);
    const got = await sha256(join(from, f));
    if (got.sha256 !== want.sha256 || got.bytes !== want.bytes) throw new BackupRefused(`${from}: ${f} does not match its checksum (damaged or changed)`);
  }
  return manifest;
}

/** Refuses a backup this portal cannot bring to its metadata: one made with migrations it does not know. */
export function checkCompatible(manifest: Manifest, model: PortalModel): void {
  if (manifest.metadataHash === model.metadataHash) return;
  const known = new Set(model.migrations.map((m) => m.id));
  const unknown = manifest.migrations.filter((id) => !known.has(id));
  if (unknown.length)
    throw new BackupRefused(
      `The backup was made by a portal with other metadata (${manifest.metadataHash.slice(0, 12)}, this one is ${model.metadataHash.slice(0, 12)}) and migrations this one does not have: ${unknown.join(', ')}. Restore it with the portal version that made it (${manifest.portalVersion}) or a newer one.`,
    );
}

export type RestoreTarget = { file: string; filesDir: string } | { url: string };

async function countRows(target: RestoreTarget, tables: string[]): Promise<Record<string, number>> {
  const db = await openDb(target);
  try {
    const counts: Record<string, number> = {};
    for (const t of tables) counts[t] = Number((await db.get<{ n: number | string }>(`SELECT COUNT(*) AS n FROM "${t}"`))!.n);
    return counts;
  } finally {
    await db.close();
  }
}

async function isEmpty(target: RestoreTarget): Promise<boolean> {
  if ('file' in target) return !existsSync(target.file);
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    return (await client.query(`SELECT 1 FROM pg_tables WHERE schemaname = current_schema() LIMIT 1`)).rowCount === 0;
  } finally {
    await client.end();
  }
}

/**
 * Restores the backup in `from` into `target` (the portal stopped). The target must be empty
 * (no SQLite file; a PostgreSQL database without tables) unless `force`: then it is replaced.
 * Returns the migration steps that brought it to this metadata.
 */
export async function restore(
  from: string,
  target: RestoreTarget,
  model: PortalModel,
  opts: { force?: boolean } = {},
): Promise<{ manifest: Manifest; steps: string[]; warnings: string[] }> {
  const manifest = await readBackup(from);
  const exposed = await widerThanPrivate(from);
  const warnings = exposed.length
    ? [`the backup in ${from} can be read by other users of this machine: ${exposed.join(', ')}. It holds password hashes and secrets: chmod -R go-rwx ${from}`]
    : [];
  const kind = 'file' in target ? 'sqlite' : 'postgres';
  if (manifest.backend !== kind) throw new BackupRefused(`The backup is of a ${manifest.backend} database; the target is ${kind}`);
  checkCompatible(manifest, model);
  if (!opts.force && !(await isEmpty(target)))
    throw new BackupRefused('The target database is not empty: restore into a new one, or pass --force to replace it');
  if ('file' in target) {
    // the new database is complete before it takes the old one's place
    const staged = `${target.file}.restoring`;
    await mkdir(dirname(target.file), { recursive: true });
    await copyFile(join(from, SQLITE_FILE), staged);
    for (const suffix of ['-wal', '-shm']) await rm(`${target.file}${suffix}`, { force: true });
    await rename(staged, target.file);
    await mkdir(target.filesDir, { recursive: true });
    for (const f of filesUnder(join(from, FILES))) await copyFile(join(from, FILES, f), join(target.filesDir, f));
  } else {
    const t = splitUrl(target.url);
    await run(
      pgProgram('pg_restore'),
      ['--no-owner', '--no-privileges', '--exit-on-error', ...(opts.force ? ['--clean', '--if-exists'] : []), `--dbname=${t.url}`, join(from, PG_DUMP)],
      t.env,
    );
  }
  const counts = await countRows(target, Object.keys(manifest.rowCounts));
  const differ = Object.entries(manifest.rowCounts).filter(([t, n]) => counts[t] !== n);
  if (differ.length)
    throw new BackupRefused(`The restored database does not hold the backup's rows: ${differ.map(([t, n]) => `${t} ${counts[t]} of ${n}`).join(', ')}`);
  const db = await openDb(target);
  try {
    const report = await migrate(db, model.tables[kind], model.migrations);
    return { manifest, steps: report.steps, warnings };
  } finally {
    await db.close();
  }
}
