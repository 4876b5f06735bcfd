/**
 * npm run seed -- [--scale N] [--seed S] [--db FILE | --url postgres://...] [--force]
 * Creates (or migrates) the database and fills it with demo data at the given scale (1 = the
 * everyday demo, about 600 order lines; 1700 = about 1,000,000 order lines for benchmarks).
 * The database is DATABASE_URL (PostgreSQL) when set, else PORTAL_DB (SQLite), unless --url or
 * --db says otherwise. Refuses a database that already has data unless --force (which deletes the
 * SQLite file first, or every table of the PostgreSQL schema).
 */
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeTarget, isPostgresUrl, openDb, type DbTarget } from '../db/open.ts';
import { migrate } from '../db/migrate.ts';
import { metadata, tables, migrations } from '../generated/index.ts';
import { isEmpty, seedDatabase } from './index.ts';
import { fileStoreFor } from '../plugins/file-store.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    seed: { type: 'string', default: '20261122' },
    db: { type: 'string' },
    url: { type: 'string' },
    force: { type: 'boolean', default: false },
  },
});
const scale = Number(values.scale);
if (!Number.isFinite(scale) || scale <= 0) throw new Error(`--scale must be a positive number, not "${values.scale}"`);
const url = values.url ?? (values.db ? undefined : process.env.DATABASE_URL);
const target: DbTarget = isPostgresUrl(url) ? { url } : { file: resolve(values.db ?? process.env.PORTAL_DB ?? 'data/portal.db') };
if (values.force && 'file' in target) for (const f of [target.file, `${target.file}-wal`, `${target.file}-shm`]) if (existsSync(f)) rmSync(f);
const db = await openDb(target);
if (values.force && 'url' in target) await db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
await migrate(db, tables[db.kind], migrations, { log: (line) => console.log(`seed: ${line}`) });
if (!(await isEmpty(db))) {
  console.error(`seed: ${describeTarget(target)} already has data; use --force to start from an empty database`);
  await db.close();
  process.exit(1);
}
const t0 = performance.now();
// the claims' photos go where the portal keeps files: beside the SQLite file, or in the database
await seedDatabase(db, metadata, { scale, seed: Number(values.seed), files: fileStoreFor(db, 'file' in target ? join(dirname(target.file), 'files') : null) });
const ms = performance.now() - t0;
const orders = Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM "order"'))!.n);
await db.close();
console.log(`seed: ${describeTarget(target)} at scale ${scale}: ${orders} order lines in ${(ms / 1000).toFixed(1)} s`);
