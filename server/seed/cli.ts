/**
 * npm run seed -- [--scale N] [--seed S] [--db FILE] [--force]
 * Creates (or migrates) the database and fills it with demo data at the given scale (1 = the
 * everyday demo, about 600 order lines; 1700 = about 1,000,000 order lines for benchmarks).
 * Refuses a database that already has data unless --force (which deletes the file first).
 */
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../db/open.ts';
import { migrate } from '../db/migrate.ts';
import { metadata, tables, migrations } from '../generated/index.ts';
import { isEmpty, seedDatabase } from './index.ts';

const { values } = parseArgs({
  options: { scale: { type: 'string', default: '1' }, seed: { type: 'string', default: '20261122' }, db: { type: 'string' }, force: { type: 'boolean', default: false } },
});
const scale = Number(values.scale);
if (!Number.isFinite(scale) || scale <= 0) throw new Error(`--scale must be a positive number, not "${values.scale}"`);
const file = resolve(values.db ?? process.env.PORTAL_DB ?? 'data/portal.db');
if (values.force) for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) rmSync(f);
const db = openDatabase(file);
migrate(db, tables, migrations);
if (!isEmpty(db)) {
  console.error(`seed: ${file} already has data; use --force to start from an empty database`);
  process.exit(1);
}
const t0 = performance.now();
await seedDatabase(db, metadata, { scale, seed: Number(values.seed) });
const ms = performance.now() - t0;
const orders = (db.prepare('SELECT COUNT(*) AS n FROM "order"').get() as { n: number }).n;
db.pragma('wal_checkpoint(TRUNCATE)');
db.close();
console.log(`seed: ${file} at scale ${scale}: ${orders} order lines in ${(ms / 1000).toFixed(1)} s`);
