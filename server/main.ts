/**
 * npm start: the portal on one port: API and built admin, same origin. Reads the environment
 * (docs/environment.md); on first start creates the tables and fills them with demo data.
 *
 * PORTAL_WORKERS=N (N > 1) runs N server processes on the one port (node's cluster module: the
 * primary accepts connections and hands them round). The primary prepares the database once
 * (migration, demo data, the shared JWT secret) before it starts the workers, so they never race
 * each other for that; then it only supervises them: a worker that dies is replaced.
 *
 * A start that fails (a bad setting, broken or out-of-date metadata, a refused or failed
 * migration, a database that cannot be opened, a port in use) prints one paragraph saying what to
 * do (startup.ts) and exits with code 1; a worker that cannot listen tells the primary so, which
 * stops instead of starting it again and again.
 */
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config } from './config.ts';
import { describeTarget } from './db/open.ts';
import { checkMetadata, generatedHash, startupMessage, StartupError } from './startup.ts';
import { log, loggerOptions, prepare } from './prepare.ts';
import { drainAndClose } from './ops/health.ts';

/** A worker's exit code for "this will not get better by trying again" (EX_CONFIG). */
const EXIT_CANNOT_START = 78;

/** The project root: the nearest folder with package.json above this file (server/ when run by tsx, server/dist/ when compiled). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

async function serve(config: Config, secret: string): Promise<void> {
  const { buildApp } = await import('./app.ts');
  const app = await buildApp({
    ...('url' in config.database ? { databaseUrl: config.database.url } : { dbFile: config.database.file }),
    jwtSecret: secret,
    ...(config.filesDir ? { filesDir: config.filesDir } : {}),
    adminDir: join(projectRoot(), 'admin', 'dist'),
    // every process sends mail: the queue's claims keep two from sending one mail
    mail: { ...config.mail, loop: true },
    publicUrl: config.publicUrl,
    // the primary (or this single process) has migrated already
    migrate: false,
    // every serving process sends outbox messages; endpoints come from the environment (docs/environment.md)
    outbox: config.outbox,
    // secrets never reach the log, whatever a serializer adds later (prepare.ts)
    logger: loggerOptions(),
    ...(config.ops.metricsToken ? { metricsToken: config.ops.metricsToken } : {}),
    trustRequestId: config.ops.trustRequestId,
    // a worker's /metrics answers for every worker (server/ops/cluster-metrics.ts)
    clusterMetrics: cluster.isWorker,
  });
  // not ready first, then the requests in flight finish (server/ops/health.ts)
  const close = async () => {
    await drainAndClose(app, config.ops.drainMs);
    process.exit(0);
  };
  process.on('SIGINT', close);
  process.on('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
}

const whereOf = (config: Config | null) => (config ? { port: config.port, host: config.host, database: describeTarget(config.database) } : null);

/** Prints the paragraph for a failed start and ends the process. */
function cannotStart(err: unknown, config: Config | null, code = 1): never {
  process.stderr.write(`\n${startupMessage(err, whereOf(config))}\n\n`);
  if (/^(debug|trace)$/.test(process.env.LOG_LEVEL ?? '') && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  process.exit(code);
}

let config: Config | null = null;
try {
  try {
    config = loadConfig();
  } catch (err) {
    throw new StartupError(`${(err as Error).message} (docs/environment.md lists the settings).`);
  }
  checkMetadata(projectRoot(), generatedHash(projectRoot()));
} catch (err) {
  cannotStart(err, config);
}
const settings = config!;

if (!cluster.isWorker && !process.env.PORTAL_PUBLIC_URL && !['127.0.0.1', 'localhost', '::1'].includes(settings.host)) {
  log(`PORTAL_PUBLIC_URL is not set: links in e-mails (password reset, login) point at ${settings.publicUrl}; set it to the address users open`);
}

if (cluster.isWorker) {
  // the primary passed the secret it prepared; a worker that cannot listen tells the primary why
  // (which prints it once, however many workers fail alike) and ends
  await serve(settings, process.env.JWT_SECRET!).catch((err: unknown) => {
    if (!process.send) cannotStart(err, settings, EXIT_CANNOT_START);
    process.send({ cannotStart: startupMessage(err, whereOf(settings)) }, undefined, {}, () => process.exit(EXIT_CANNOT_START));
  });
} else {
  let secret = '';
  try {
    secret = await prepare(settings);
    if (settings.workers === 1) await serve(settings, secret);
  } catch (err) {
    cannotStart(err, settings);
  }
  if (settings.workers > 1) {
    let stopping = false;
    let failed = false;
    const start = () => cluster.fork({ JWT_SECRET: secret });
    if (settings.ops.metricsToken) (await import('./ops/cluster-metrics.ts')).answerClusterScrapes();
    for (let i = 0; i < settings.workers; i++) start();
    let reported = false;
    cluster.on('message', (_w, msg: { cannotStart?: string } | undefined) => {
      if (!msg?.cannotStart || reported) return;
      reported = true;
      process.stderr.write(`\n${msg.cannotStart}\n\n`);
    });
    let listening = 0;
    cluster.on('listening', () => {
      if (++listening === settings.workers) log(`${settings.workers} workers listening on http://${settings.host}:${settings.port}`);
    });
    const stop = () => {
      if (stopping) return;
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
      // the workers drain (PORTAL_DRAIN_MS) and finish their requests first
      setTimeout(() => process.exit(failed ? 1 : 0), settings.ops.drainMs + 10_000).unref();
    };
    cluster.on('exit', (worker, code, signal) => {
      // a worker that cannot start has printed why (the port is taken, ...): starting it again would only repeat it
      if (code === EXIT_CANNOT_START && !stopping) {
        failed = true;
        stop();
      }
      if (stopping) {
        if (!Object.values(cluster.workers ?? {}).some((w) => w && !w.isDead())) process.exit(failed ? 1 : 0);
        return;
      }
      log(`worker ${worker.process.pid} ended (${signal ?? code}); starting another`);
      // a worker that dies at once is not restarted in a tight loop
      setTimeout(() => {
        if (!stopping) start();
      }, 1000);
    });
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }
}
