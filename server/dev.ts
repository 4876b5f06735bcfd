/**
 * The server of `npm run dev`: one port, and the metadata reloaded in this process when codegen
 * rewrites server/generated/ (no restart, no moment without a server, sessions untouched).
 *
 * On a change of the generated metadata (its hash), the new JSON files are read, the generated
 * module's bindings are swapped (replaceGenerated), the database follows (migration; demo rows for
 * tables just created), and a new Fastify app is built and made ready beside the running one. Only
 * then does the port's handler switch to it; the old app finishes what it was doing and closes.
 * A change that fails (a migration refused, a route that will not build) is logged and the old
 * app keeps serving the old metadata. The code itself (server/, codegen/runtime/) is tsx watch's
 * business: it restarts this process, and the admin waits for it (httpClient's reconnecting).
 *
 * The page swaps an edited screen in as soon as codegen has written it (admin/vite.config.ts), so
 * requests that arrive while a reload is under way wait for the new app: the page never talks to
 * an API older than the metadata it draws. A new screen still waits for GET /api/meta's new hash.
 */
import http from 'node:http';
import { existsSync, readFileSync, watch } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { log, loggerOptions, prepare } from './prepare.ts';
import { refusalParagraph } from './dev-log.ts';
import { newCompileCache } from './plugins/compile-cache.ts';
import { databaseShape } from './dev-database-shape.ts';
import * as generated from './generated/index.ts';
import { replaceGenerated, type GeneratedBundle } from './generated/index.ts';

const GENERATED = join(dirname(fileURLToPath(import.meta.url)), 'generated');
/** How long a replaced app may finish the requests it has (then it closes) */
const DRAIN_MS = 3000;

/** The bundle this process serves now (the generated module's live bindings). */
const inUse = (): GeneratedBundle => ({
  metadata: generated.metadata,
  schemas: generated.schemas,
  messages: generated.messages,
  tables: generated.tables,
  migrations: generated.migrations,
});

/** The generated JSON files as codegen wrote them (the generated module reads the same ones). */
function readBundle(): GeneratedBundle {
  const read = (f: string) => JSON.parse(readFileSync(join(GENERATED, f), 'utf8')) as Record<string, unknown>;
  return {
    metadata: read('metadata.json') as unknown as GeneratedBundle['metadata'],
    schemas: read('schemas.json') as unknown as GeneratedBundle['schemas'],
    messages: read('messages.json') as unknown as GeneratedBundle['messages'],
    tables: read('tables.json') as unknown as GeneratedBundle['tables'],
    migrations: (read('migrations.json') as { migrations: GeneratedBundle['migrations'] }).migrations,
  };
}

const config = loadConfig();
let secret = await prepare(config);

const compileCache = newCompileCache();

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;
/** Builds an app over the configured database and returns it with its request handler. */
async function appWithHandler(): Promise<{ app: FastifyInstance; handler: Handler }> {
  let handler: Handler | null = null;
  const app = await buildApp({
    ...('url' in config.database ? { databaseUrl: config.database.url } : { dbFile: config.database.file }),
    jwtSecret: secret,
    ...(config.filesDir ? { filesDir: config.filesDir } : {}),
    // as npm start: this process sends mail and outbox messages (a replaced app stops before it closes)
    mail: { ...config.mail, loop: true },
    publicUrl: config.publicUrl,
    outbox: config.outbox,
    migrate: false,
    logger: loggerOptions(process.env.LOG_LEVEL ?? 'warn'),
    // the app never listens itself: the one server below hands it the requests
    // the routes' compiled schemas kept from one app to the next: an edit recompiles only what it changed
    compileCache,
    serverFactory: (h) => {
      handler = h as Handler;
      return http.createServer();
    },
  });
  await app.ready();
  return { app, handler: handler! };
}

/**
 * Requests that arrive while codegen's files are being loaded wait for the new app (at most
 * HOLD_MS): the page swaps an edited screen in as soon as codegen has written it, before this
 * reload is done (admin/vite.config.ts), and its next call (a new button's action, a list with a
 * new column) must meet the same metadata.
 */
const HOLD_MS = 10_000;
let held: Promise<void> = Promise.resolve();
let release: (() => void) | null = null;
function holdRequests(): void {
  if (release) return;
  const waited = new Promise<void>((resolve) => (release = resolve));
  held = Promise.race([waited, new Promise<void>((resolve) => setTimeout(resolve, HOLD_MS).unref())]);
}
function releaseRequests(): void {
  release?.();
  release = null;
  held = Promise.resolve();
}

let current = await appWithHandler();
let hash = generated.metadata.hash;
let databaseNow = databaseShape(inUse());
let loaded = JSON.stringify(inUse());
const server = http.createServer((req, res) => void held.then(() => current.handler(req, res)));
await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
log(`dev server on http://${config.host}:${config.port} (metadata ${hash}; reloads it in place when codegen writes server/generated/)`);

async function reload(): Promise<void> {
  let next: GeneratedBundle;
  try {
    next = readBundle();
  } catch {
    return; // codegen is still writing: the next change event comes
  }
  // the whole bundle, not only the hash: files read halfway through codegen's writing are loaded again once complete
  const signature = JSON.stringify(next);
  if (signature === loaded) return;
  const t0 = performance.now();
  const previous = inUse();
  replaceGenerated(next);
  try {
    const shape = databaseShape(next);
    if (shape !== databaseNow) secret = await prepare(config);
    const t1 = performance.now();
    const replacement = await appWithHandler();
    const old = current;
    current = replacement;
    hash = next.metadata.hash;
    databaseNow = shape;
    loaded = signature;
    setTimeout(() => void old.app.close(), DRAIN_MS).unref();
    const t2 = performance.now();
    log(`metadata ${hash} reloaded in ${Math.round(t2 - t0)} ms (database ${Math.round(t1 - t0)} ms, app ${Math.round(t2 - t1)} ms)`);
  } catch (err) {
    replaceGenerated(previous);
    process.stderr.write(refusalParagraph(`metadata ${next.metadata.hash} NOT loaded, still serving ${hash}:`, (err as Error).message));
  }
}

// changes come in bursts (codegen writes a dozen files): one reload after the burst, one at a time
let timer: NodeJS.Timeout | undefined;
let running: Promise<void> = Promise.resolve();
if (existsSync(GENERATED)) {
  watch(GENERATED, () => {
    holdRequests();
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      running = running.then(reload).finally(() => {
        if (!timer) releaseRequests();
      });
    }, 30);
  });
}

async function stop(): Promise<void> {
  server.close();
  await current.app.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
