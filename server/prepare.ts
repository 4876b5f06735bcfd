/**
 * What happens to the database once, before any process serves: migration, demo data on an
 * empty database (or for the tables a migration just created in one that has demo data), the
 * shared JWT secret. `npm start` (main.ts) runs it in the primary process; the dev server
 * (dev.ts) runs it at start and after each metadata change.
 */
import { resolveSecret, type Config } from './config.ts';
import { isEmpty, seedDatabase, seedNewTables } from './seed/index.ts';
import { metadata, tables, migrations } from './generated/index.ts';
import { describeTarget, openDb } from './db/open.ts';
import { migrate } from './db/migrate.ts';

/** pino options of a serving process: secrets never reach the log, whatever a serializer adds later (ASVS 16.2.5) */
export const loggerOptions = (level = process.env.LOG_LEVEL ?? 'info') => ({
  level,
  redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password', 'req.body.newPassword', 'req.body.oldPassword'],
});

export const log = (msg: string) => console.log(JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg }));

/** Migration, demo data, the shared secret; returns the secret. */
export async function prepare(config: Config): Promise<string> {
  const db = await openDb(config.database);
  try {
    const report = await migrate(db, tables[db.kind], migrations);
    if (report.created.length || report.addedColumns.length || report.migrations.length) log(`database ${describeTarget(config.database)}: ${report.created.length} tables created, ${report.addedColumns.length} columns added, migrations ${report.migrations.join(', ') || 'none'}`);
    if (config.seed === 'demo' && (await isEmpty(db))) {
      const t0 = performance.now();
      await seedDatabase(db, metadata);
      log(`demo data written to ${describeTarget(config.database)} in ${Math.round(performance.now() - t0)} ms`);
    } else if (config.seed === 'demo' && report.created.length) {
      // an entity added to a portal that has demo data gets demo rows of its own (seed/generic.ts)
      const seeded = await seedNewTables(db, metadata, report.created);
      if (seeded.length) log(`demo data written for the new ${seeded.join(', ')}`);
    }
    return await resolveSecret(config, db);
  } finally {
    await db.close();
  }
}
