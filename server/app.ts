/**
 * The Fastify application, assembled from plugins and routes. `buildApp` opens (and migrates)
 * the database (SQLite file or PostgreSQL URL), wires the engine with the hand-written action
 * handlers, and registers everything; tests call it with a temporary database and use
 * `app.inject`. Nothing in it is per-process state another process needs: tokens, revocations,
 * counters, number series and files live in the database (or the directory beside SQLite).
 */
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { dirname, join, resolve } from 'node:path';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import { metadata, schemas, tables, migrations } from './generated/index.ts';
import { openDb, type DbTarget } from './db/open.ts';
import type { Db } from './db/types.ts';
import { migrate, type MigrateReport } from './db/migrate.ts';
import { ensureTrigramIndexes } from './db/trigram.ts';
import { ensureChartSums, tablesMigrated } from './home/chart-sums-build.ts';
import { Engine, type HandlerTable } from './engine/engine.ts';
import { createHandlers } from './handlers/index.ts';
import { hooks as lifecycleHooks } from './hooks/index.ts';
import type { HookTable } from './engine/hooks.ts';
import type { ScryptParams } from './engine/passwords.ts';
import type { Profile } from '../codegen/runtime/model.ts';
import errorsPlugin from './plugins/errors.ts';
import authPlugin from './plugins/auth.ts';
import fileStorePlugin, { fileStoreFor } from './plugins/file-store.ts';
import rateLimitPlugin from './plugins/rate-limit.ts';
import compressionPlugin from './plugins/compression.ts';
import connectRoutes from './routes/connect.ts';
import resourceRoutes from './routes/resources.ts';
import fileRoutes from './routes/files.ts';
import metaRoutes from './routes/meta.ts';
import exportRoutes from './routes/export.ts';
import homeRoutes from './routes/home.ts';
import openapiRoutes, { collectRoutes } from './openapi/routes.ts';
import inboundRoutes from './inbound/routes.ts';
import mailPlugin, { type MailOptions } from './mail/plugin.ts';
import { cachedSerializers, cachedValidators, type CompileCache } from './plugins/compile-cache.ts';
import { limitJsonDepth } from './plugins/json-depth.ts';
import { formBodies } from './plugins/form-body.ts';
import { strictBodyCompiler } from './plugins/strict-bodies.ts';
import type { HashPool, HashPoolOptions } from './auth/hash-pool.ts';
import passwordResetRoutes, { type PasswordResetOptions } from './auth/password-reset.ts';
import { OutboxDispatcher, type DispatcherOptions } from './outbox/dispatcher.ts';
import healthRoutes from './ops/health.ts';
import metricsPlugin from './ops/metrics.ts';
import { adminInlineScriptHashes } from './plugins/inline-script-hashes.ts';
import requestLog, { requestIdOf } from './ops/request-log.ts';

/** The outbox dispatcher's settings (JSON, so a forked test server can take them too). */
export type OutboxAppOptions = Omit<DispatcherOptions, 'clock' | 'random' | 'log'> & {
  /** run the dispatch loop in this process (npm start: unless PORTAL_OUTBOX=off; tests: off unless set) */
  enabled?: boolean;
  /** pause between two passes when nothing was due (default 2000 ms) */
  intervalMs?: number;
};

export interface AppOptions {
  /** an open database (the app takes it over and closes it), or where to open one */
  db?: Db;
  /** SQLite file (PORTAL_DB) */
  dbFile?: string;
  /** PostgreSQL URL (DATABASE_URL); wins over dbFile */
  databaseUrl?: string;
  jwtSecret: string;
  /** uploaded files in this directory; without it (and always on PostgreSQL) they live in the database */
  filesDir?: string;
  /** create and migrate tables (default true; the workers of a cluster leave it to the primary) */
  migrate?: boolean;
  logger?: boolean | object;
  /** password hashing cost; production default unless a test database says otherwise */
  hashParams?: ScryptParams;
  /** login attempts per address and minute (tests raise it) */
  loginRateLimit?: number;
  /** login attempts per account and minute */
  accountAttemptsPerMinute?: number;
  /** the bound on password hashing at login (server/auth/hash-pool.ts) */
  hashPool?: HashPoolOptions | HashPool;
  /** creates, updates, deletes and actions per user and minute (default 600) */
  writesPerMinute?: number;
  /** serve the built admin from this folder (same origin as the API) */
  adminDir?: string;
  /** compressed answers and precompressed assets (default true; the bench's "before" turns it off) */
  compression?: boolean;
  /** most rows one export may hold (default MAX_EXPORT_ROWS of routes/export.ts) */
  exportMaxRows?: number;
  /** profiles that must use two-step verification (default: metadata app.mfa.requiredFor) */
  mfaRequiredFor?: Profile[];
  /** Fastify's serverFactory: the dev server (server/dev.ts) takes each app's request handler and serves it from one port */
  serverFactory?: FastifyServerOptions['serverFactory'];
  /** compiled validators and serializers shared with earlier apps of this process (the dev server's rebuilds; server/plugins/compile-cache.ts) */
  compileCache?: CompileCache;
  /** e-mail: SMTP or .eml files, the sender loop (off unless asked: npm start turns it on) */
  mail?: MailOptions;
  /** the portal's address in mails (PORTAL_PUBLIC_URL; default http://127.0.0.1:3000) */
  publicUrl?: string;
  /** limits of the self-service password reset */
  passwordReset?: PasswordResetOptions;
  /** the outbox of the external exchange (server/outbox/): where its interfaces' endpoints are, and whether this process sends */
  outbox?: OutboxAppOptions;
  /** GET /metrics answers scrapes that send this bearer token (PORTAL_METRICS_TOKEN); unset: no metrics route (server/ops/metrics.ts) */
  metricsToken?: string;
  /** a worker of a cluster (PORTAL_WORKERS > 1): /metrics answers the whole cluster's figures, gathered by the primary */
  clusterMetrics?: boolean;
  /** take a well-formed X-Request-Id from the proxy in front as the request id (PORTAL_TRUST_REQUEST_ID=on) */
  trustRequestId?: boolean;
}

/** Where .eml files go without SMTP: PORTAL_MAIL_DIR, else `mail/` beside the SQLite file, else `data/mail`. */
export function mailDirOf(opts: Pick<AppOptions, 'mail' | 'dbFile' | 'databaseUrl'>): string {
  if (opts.mail?.dir) return resolve(opts.mail.dir);
  if (opts.dbFile && !opts.databaseUrl) return join(dirname(resolve(opts.dbFile)), 'mail');
  return resolve('data', 'mail');
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    engine: Engine;
    /** what the start-up migration did (empty when this process did not migrate) */
    migration: MigrateReport | null;
    /** the outbox dispatcher of this process (null when metadata declares no interfaces); tests call runOnce() */
    outbox: OutboxDispatcher | null;
  }
}

/** The database the options name: an open one, a PostgreSQL URL, or a SQLite file. */
export function targetOf(opts: Pick<AppOptions, 'dbFile' | 'databaseUrl'>): DbTarget {
  if (opts.databaseUrl) return { url: opts.databaseUrl };
  if (opts.dbFile) return { file: opts.dbFile };
  throw new Error('buildApp needs db, databaseUrl or dbFile');
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const db = opts.db ?? (await openDb(targetOf(opts)));
  let migration: MigrateReport | null = null;
  try {
    if (opts.migrate !== false) {
      migration = await migrate(db, tables[db.kind], migrations);
      // substring searches' trigram indexes (server/db/trigram.ts)
      migration.steps.push(...(await ensureTrigramIndexes(db, metadata)));
      // the charts' sums: built for a new or changed chart, or a table the migration changed (server/home/chart-sums-build.ts)
      migration.steps.push(...(await ensureChartSums(db, metadata, tablesMigrated(migration, migrations))));
    }
  } catch (err) {
    await db.close();
    throw err;
  }
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 1024 * 1024,
    // request ids in logs (a trusted proxy's X-Request-Id, or new); error ids in 5xx answers point at them
    genReqId: requestIdOf(opts.trustRequestId ?? false),
    // one line per request from server/ops/request-log.ts instead: route template, never the raw URL and its query
    logController: new LogController({ disableRequestLogging: true }),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
    ...(opts.serverFactory ? { serverFactory: opts.serverFactory } : {}),
    ...(opts.compileCache ? { schemaController: cachedSerializers(opts.compileCache) } : {}),
  });
  // bodies with exact types, no coercion (server/plugins/strict-bodies.ts)
  app.setValidatorCompiler(opts.compileCache ? cachedValidators(strictBodyCompiler(), opts.compileCache) : strictBodyCompiler());
  // every route registered from here on is recorded: the OpenAPI document is built from them
  const routes = collectRoutes(app);
  app.decorate('db', db);
  app.decorate('migration', migration);
  // every step of the migration, one line each (an empty list when nothing changed)
  for (const line of migration?.steps ?? []) app.log.info({ event: 'migration' }, line);
  app.addHook('onClose', async () => db.close());

  // JSON bodies: no deeper than any the portal takes (server/plugins/json-depth.ts)
  limitJsonDepth(app);
  // form-encoded bodies (the token call): a field given twice is a 400 (server/plugins/form-body.ts)
  formBodies(app);

  await app.register(errorsPlugin);
  // before every route and the static files (issue 21, docs/performance-wan.md)
  if (opts.compression !== false) await app.register(compressionPlugin);
  // /healthz, /readyz and /metrics (server/ops/): before the routes, so every route is measured
  await app.register(healthRoutes, { db, migrationIds: () => migrations.map((m) => m.id) });
  await app.register(metricsPlugin, { db, metadata, cluster: opts.clusterMetrics ?? false, ...(opts.metricsToken ? { token: opts.metricsToken } : {}) });
  await app.register(requestLog, { resources: Object.values(metadata.entities).map((e) => e.resource) });
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // MUI (emotion) injects style elements at run time
        styleSrc: ["'self'", "'unsafe-inline'"],
        // plus the admin's one inline script, by its hash (plugins/inline-script-hashes.ts)
        scriptSrc: ["'self'", ...adminInlineScriptHashes(opts.adminDir)],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
  });
  await app.register(multipart, { limits: { fileSize: 1024 * 1024, files: 1, fields: 20, fieldSize: 2000, parts: 25, headerPairs: 100 } });
  const store = fileStoreFor(db, opts.filesDir);
  await app.register(fileStorePlugin, { store });
  await app.register(authPlugin, { db, secret: opts.jwtSecret, ...(opts.mfaRequiredFor ? { mfaRequiredFor: opts.mfaRequiredFor } : {}) });
  // per address (login, profile) and per user (writes), counted in the database: shared by every process
  await app.register(rateLimitPlugin, { db, loginPerMinute: opts.loginRateLimit ?? 20, writesPerMinute: opts.writesPerMinute ?? 600 });

  // answers of the API are never cached (they replace the legacy timeSpan parameter)
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/api/') || req.url.startsWith('/connect/') || req.url.startsWith('/supplierApi/')) {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    }
    return payload;
  });

  // mail before the routes that queue it (they wake the sender)
  await app.register(mailPlugin, { ...opts.mail, db, dir: mailDirOf(opts), publicUrl: opts.publicUrl ?? 'http://127.0.0.1:3000' });

  const engine = new Engine(
    db,
    metadata,
    schemas,
    createHandlers({ ...(opts.hashParams ? { hashParams: opts.hashParams } : {}) }) as unknown as HandlerTable,
    lifecycleHooks as unknown as HookTable,
  );
  app.decorate('engine', engine);
  const outbox = metadata.outbox ? new OutboxDispatcher(db, metadata, { ...opts.outbox, log: app.log }) : null;
  app.decorate('outbox', outbox);
  if (outbox && opts.outbox?.enabled) {
    // every process sends (several at once are safe: claims are leased); it stops before the database closes
    app.addHook('onReady', async () => outbox.start(opts.outbox?.intervalMs ?? 2000));
    app.addHook('preClose', async () => outbox.stop());
  }
  await app.register(connectRoutes, {
    db,
    ...(opts.hashParams ? { hashParams: opts.hashParams } : {}),
    ...(opts.accountAttemptsPerMinute ? { accountAttemptsPerMinute: opts.accountAttemptsPerMinute } : {}),
    ...(opts.hashPool ? { hashPool: opts.hashPool } : {}),
  });
  await app.register(passwordResetRoutes, { db, ...opts.passwordReset, ...(opts.hashParams ? { hashParams: opts.hashParams } : {}) });
  await app.register(metaRoutes);
  await app.register(resourceRoutes, { engine });
  // inbound interfaces: machine clients only (server/inbound/)
  await app.register(inboundRoutes, { engine });
  await app.register(fileRoutes, { engine });
  await app.register(homeRoutes, { engine });
  // exports read on connections of their own (db.readSnapshot)
  await app.register(exportRoutes, { engine, ...(opts.exportMaxRows ? { maxRows: opts.exportMaxRows } : {}) });
  await app.register(openapiRoutes, { routes });
  if (opts.adminDir) {
    const { default: adminStatic } = await import('./routes/admin-static.ts');
    await app.register(adminStatic, { dir: opts.adminDir, preCompressed: opts.compression !== false });
  }
  return app;
}
