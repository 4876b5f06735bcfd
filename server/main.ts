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
import { loadConfig, type Config } from './config.ts';
import { buildApp } from './app.ts';
import { log, loggerOptions, prepare } from './prepare.ts';

/** The project root: the nearest folder with package.json above this file (server/ when run by tsx, server/dist/ when compiled). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

async function serve(config: Config, secret: string): Promise<void> {
  const app = await buildApp({
    ...('url' in config.database ? { databaseUrl: config.database.url } : { dbFile: config.database.file }),
    jwtSecret: secret,
    ...(config.filesDir ? { filesDir: config.filesDir } : {}),
    adminDir: join(projectRoot(), 'admin', 'dist'),
    // the primary (or this single process) has migrated already
    migrate: false,
    logger: loggerOptions(),
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
