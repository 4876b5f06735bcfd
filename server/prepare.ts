/**
 * What happens to the database once, before any process serves: migration (every step logged),
 * demo data on an empty database (or, in one that has demo data, for the tables a migration just
 * created), the shared JWT secret. `npm start` (main.ts) runs it in the primary process; the dev
 * server (dev.ts) at start and after each metadata change. The generated metadata is imported
 * when it runs, not when this module loads, so that main.ts can report a start without generated
 * files before anything reads them.
 */
import { resolveSecret, type Config } from './config.ts';
import { describeTarget, openDb } from './db/open.ts';

export const log = (msg: string) => console.log(JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg }));

/** pino options of a serving process: secrets never reach the log, whatever a serializer adds later (ASVS 16.2.5) */
export const loggerOptions = (level = process.env.LOG_LEVEL ?? 'info') => ({
  level,
  redact: [
    'req.headers.authorization',
    'req.headers.cookie',
    'req.body.password',
    'req.body.newPassword',
    'req.body.oldPassword',
    'req.body.confirmPassword',
    'req.body.token',
  ],
});

/** Migration, demo data, the shared secret; returns the secret. */
export async function prepare(config: Config): Promise<string> {
  const { migrate } = await import('./db/migrate.ts');
  const { metadata, tables, migrations } = await import('./generated/index.ts');
  const { isEmpty, seedDatabase } = await import('./seed/index.ts');
  const { seedOwedTables } = await import('./seed/pending.ts');
  const { fileStoreFor } = await import('./plugins/file-store.ts');
  const db = await openDb(config.database);
  try {
    // every step on a line of its own (migrate.ts MigrateReport.steps)
    const report = await migrate(db, tables[db.kind], migrations, { log: (line) => log(`database ${describeTarget(config.database)}: ${line}`) });
    if (config.seed === 'demo' && (await isEmpty(db))) {
      const t0 = performance.now();
      await seedDatabase(db, metadata, { files: fileStoreFor(db, config.filesDir) });
      log(`demo data written to ${describeTarget(config.database)} in ${Math.round(performance.now() - t0)} ms`);
    } else if (config.seed === 'demo') {
      // an entity added to a portal that has demo data gets demo rows of its own (seed/generic.ts),
      // retried on each start until they are written (seed/pending.ts)
      const seeded = await seedOwedTables(db, metadata, report.created, log);
      if (seeded.length) log(`demo data written for the new ${seeded.join(', ')}`);
    }
    // substring searches' trigram indexes, built after the demo data (one pass instead of a trigger per row)
    const { ensureTrigramIndexes } = await import('./db/trigram.ts');
    for (const line of await ensureTrigramIndexes(db, metadata, (msg) => log(msg))) log(`database ${describeTarget(config.database)}: ${line}`);
    // the charts' sums, after the demo data and the migration (server/home/chart-sums-build.ts)
    const { ensureChartSums, tablesMigrated } = await import('./home/chart-sums-build.ts');
    for (const line of await ensureChartSums(db, metadata, tablesMigrated(report, migrations))) log(`database ${describeTarget(config.database)}: ${line}`);
    return await resolveSecret(config, db);
  } finally {
    await db.close();
  }
}
