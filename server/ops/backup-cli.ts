/**
 * npm run backup -- --to DIR [--db FILE | --url postgres://...]
 * npm run restore -- --from DIR [--db FILE | --url postgres://...] [--force]
 *
 * The database is DATABASE_URL (PostgreSQL) when set, else PORTAL_DB (SQLite, default
 * data/portal.db, files in files/ beside it), unless --url or --db says otherwise: the same one
 * `npm start` serves. A backup runs while the portal serves; a restore wants it stopped (and an
 * empty target unless --force). What each does and checks: server/ops/backup.ts; the schedule and
 * the restore drill: docs/operations.md.
 */
import { dirname, join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isPostgresUrl } from '../db/open.ts';
import { metadata, tables, migrations } from '../generated/index.ts';
import { backup, restore, type PortalModel } from './backup.ts';

const [command, ...rest] = process.argv.slice(2);
const { values } = parseArgs({
  args: rest,
  options: {
    to: { type: 'string' },
    from: { type: 'string' },
    db: { type: 'string' },
    url: { type: 'string' },
    force: { type: 'boolean', default: false },
  },
});

const url = values.url ?? (values.db ? undefined : process.env.DATABASE_URL);
const file = resolve(values.db ?? process.env.PORTAL_DB ?? 'data/portal.db');
const target = isPostgresUrl(url) ? { url } : { file, filesDir: join(dirname(file), 'files') };
const where = 'url' in target ? 'the PostgreSQL database' : file;
const root = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');
const model: PortalModel = {
  portalVersion: (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version,
  metadataHash: metadata.hash,
  migrations,
  tables,
};

try {
  if (command === 'backup' && values.to) {
    const started = performance.now();
    const m = await backup(target, resolve(values.to), model);
    const bytes = Object.values(m.checksums).reduce((n, c) => n + c.bytes, 0);
    console.log(
      `backup: ${where} -> ${resolve(values.to)}: ${Object.keys(m.checksums).length} files, ${bytes} bytes, ${Object.values(m.rowCounts).reduce((a, b) => a + b, 0)} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } else if (command === 'restore' && values.from) {
    const { manifest, steps, warnings } = await restore(resolve(values.from), target, model, { force: values.force });
    for (const w of warnings) console.warn(`restore: warning: ${w}`);
    for (const s of steps) console.log(`restore: migration: ${s}`);
    console.log(`restore: ${resolve(values.from)} (made ${manifest.createdAt}) -> ${where}: checksums and row counts match; start the portal`);
  } else {
    console.error('usage: npm run backup -- --to DIR [--db FILE | --url URL]\n       npm run restore -- --from DIR [--db FILE | --url URL] [--force]');
    process.exit(2);
  }
} catch (err) {
  // a refusal says what to do; anything else is one line, never a stack or the URL's password
  console.error(`${command}: ${(err as Error).message}`);
  process.exit(1);
}
