/**
 * The Fastify application, assembled from plugins and routes. `buildApp` opens (and migrates)
 * the database, wires the engine with the hand-written action handlers, and registers everything;
 * tests call it with a temporary database and use `app.inject`.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { metadata, schemas, tables, migrations } from './generated/index.ts';
import { openDatabase, type DB } from './db/open.ts';
import { migrate } from './db/migrate.ts';
import { Engine, type HandlerTable } from './engine/engine.ts';
import { handlers as businessHandlers } from './handlers/index.ts';
import type { ScryptParams } from './engine/passwords.ts';
import errorsPlugin from './plugins/errors.ts';
import authPlugin from './plugins/auth.ts';
import fileStorePlugin from './plugins/file-store.ts';
import exportDbPlugin from './plugins/export-db.ts';
import writeLimitPlugin from './plugins/write-limit.ts';
import connectRoutes from './routes/connect.ts';
import resourceRoutes from './routes/resources.ts';
import fileRoutes from './routes/files.ts';
import metaRoutes from './routes/meta.ts';
import exportRoutes from './routes/export.ts';

export interface AppOptions {
  dbFile: string;
  jwtSecret: string;
  filesDir: string;
  logger?: boolean | object;
  /** password hashing cost; production default unless a test database says otherwise */
  hashParams?: ScryptParams;
  /** login attempts per address and minute (tests raise it) */
  loginRateLimit?: number;
  /** login attempts per account and minute */
  accountAttemptsPerMinute?: number;
  /** creates, updates, deletes and actions per user and minute (default 600) */
  writesPerMinute?: number;
  /** serve the built admin from this folder (same origin as the API) */
  adminDir?: string;
  /** most rows one export may hold (default MAX_EXPORT_ROWS of routes/export.ts) */
  exportMaxRows?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: DB;
    engine: Engine;
  }
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const db = openDatabase(opts.dbFile);
  migrate(db, tables, migrations);
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 1024 * 1024,
    // request ids in logs; error ids in 5xx answers point at them
    genReqId: () => crypto.randomUUID(),
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: false } },
  });
  app.decorate('db', db);
  app.addHook('onClose', async () => db.close());

  // form-encoded bodies (the token call) without another dependency
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  await app.register(errorsPlugin);
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
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
  });
  // per address; applied to the login and profile routes (config.rateLimit), in memory per process
  await app.register(rateLimit, { global: false, max: opts.loginRateLimit ?? 20, timeWindow: '1 minute', keyGenerator: (req) => req.ip });
  await app.register(multipart, { limits: { fileSize: 1024 * 1024, files: 1, fields: 20, fieldSize: 2000, parts: 25, headerPairs: 100 } });
  await app.register(fileStorePlugin, { dir: opts.filesDir });
  await app.register(authPlugin, { db, secret: opts.jwtSecret });
  await app.register(writeLimitPlugin, { perMinute: opts.writesPerMinute ?? 600 });

  // answers of the API are never cached (they replace the legacy timeSpan parameter)
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/api/') || req.url.startsWith('/connect/') || req.url.startsWith('/supplierApi/')) {
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    }
    return payload;
  });

  const engine = new Engine(db, metadata, schemas, businessHandlers as unknown as HandlerTable);
  app.decorate('engine', engine);
  await app.register(connectRoutes, { db, ...(opts.hashParams ? { hashParams: opts.hashParams } : {}), ...(opts.accountAttemptsPerMinute ? { accountAttemptsPerMinute: opts.accountAttemptsPerMinute } : {}) });
  await app.register(metaRoutes);
  await app.register(resourceRoutes, { engine });
  await app.register(fileRoutes, { engine });
  // exports read on read-only connections of their own (plugins/export-db.ts)
  await app.register(exportDbPlugin, { file: opts.dbFile });
  await app.register(exportRoutes, { engine, ...(opts.exportMaxRows ? { maxRows: opts.exportMaxRows } : {}) });
  if (opts.adminDir) {
    const { default: adminStatic } = await import('./routes/admin-static.ts');
    await app.register(adminStatic, { dir: opts.adminDir });
  }
  return app;
}
