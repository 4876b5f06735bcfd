/**
 * npm start: the portal on one port: API and built admin, same origin. Reads the environment
 * (README "Environment"); on first start creates the tables and fills them with demo data.
 *
 * PORTAL_WORKERS=N (N > 1) runs N server processes on the one port (node's cluster module: the
 * primary accepts connections and hands them round). The primary prepares the database once
 * (migration, demo data, the shared JWT secret) before it starts the workers, so they never race
 * each other for that; then it only supervises them: a worker that dies is replaced.
 */
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, resolveSecret, type Config } from './config.ts';
import { buildApp } from './app.ts';
import { isEmpty, seedDatabase } from './seed/index.ts';
import { fileStoreFor } from './plugins/file-store.ts';
import { metadata, tables, migrations } from './generated/index.ts';
import { describeTarget, openDb } from './db/open.ts';
import { migrate } from './db/migrate.ts';

/** The project root: the nearest folder with package.json above this file (server/ when run by tsx, server/dist/ when compiled). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

const log = (msg: string) => console.log(JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg }));

/** Migration, demo data on an empty database, the shared secret: once, before any process serves. */
async function prepare(config: Config): Promise<string> {
  const db = await openDb(config.database);
  try {
    const report = await migrate(db, tables[db.kind], migrations);
    if (report.created.length || report.addedColumns.length || report.migrations.length) log(`database ${describeTarget(config.database)}: ${report.created.length} tables created, ${report.addedColumns.length} columns added, migrations ${report.migrations.join(', ') || 'none'}`);
    if (config.seed === 'demo' && (await isEmpty(db))) {
      const t0 = performance.now();
      await seedDatabase(db, metadata, { files: fileStoreFor(db, config.filesDir) });
      log(`demo data written to ${describeTarget(config.database)} in ${Math.round(performance.now() - t0)} ms`);
    }
    return await resolveSecret(config, db);
  } finally {
    await db.close();
  }
}

async function serve(config: Config, secret: string): Promise<void> {
  const app = await buildApp({
    ...('url' in config.database ? { databaseUrl: config.database.url } : { dbFile: config.database.file }),
    jwtSecret: secret,
    ...(config.filesDir ? { filesDir: config.filesDir } : {}),
    adminDir: join(projectRoot(), 'admin', 'dist'),
    // the primary (or this single process) has migrated already
    migrate: false,
    // secrets never reach the log, whatever a serializer adds later (ASVS 16.2.5)
    logger: { level: process.env.LOG_LEVEL ?? 'info', redact: ['req.headers.authorization', 'req.headers.cookie', 'req.body.password', 'req.body.newPassword', 'req.body.oldPassword'] },
  });
  const close = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', close);
  process.on('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
}

const config = loadConfig();
if (cluster.isWorker) {
  // the primary passed the secret it prepared
  await serve(config, process.env.JWT_SECRET!);
} else {
  const secret = await prepare(config);
  if (config.workers === 1) await serve(config, secret);
  else {
    let stopping = false;
    const start = () => cluster.fork({ JWT_SECRET: secret });
    for (let i = 0; i < config.workers; i++) start();
    let listening = 0;
    cluster.on('listening', () => {
      if (++listening === config.workers) log(`${config.workers} workers listening on http://${config.host}:${config.port}`);
    });
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) return;
      log(`worker ${worker.process.pid} ended (${signal ?? code}); starting another`);
      // a worker that dies at once (bad configuration, port taken) is not restarted in a tight loop
      setTimeout(() => {
        if (!stopping) start();
      }, 1000);
    });
    const stop = () => {
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      setTimeout(() => process.exit(0), 5000).unref();
      cluster.on('exit', () => {
        if (!Object.values(cluster.workers ?? {}).some((w) => w && !w.isDead())) process.exit(0);
      });
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
}
