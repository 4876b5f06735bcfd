/**
 * GET /api/openapi.json (the document, for any logged-in caller: like /api/meta it describes the
 * whole API, which anonymous callers do not learn) and the page that shows it, GET /api/docs with
 * its script and style sheet (files of their own, so it works under the Content-Security-Policy:
 * no inline script, no eval, nothing from another origin).
 *
 * `collectRoutes` must be called on the root instance before any route is registered: its
 * onRoute hook records every route the server registers, which the document is built from.
 */
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { metadata, schemas, messages } from '../generated/index.ts';
import { buildOpenApi, type RouteInfo } from './document.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** every route registered, in order (the OpenAPI document is built from them; tests compare) */
    registeredRoutes: readonly RouteInfo[];
  }
}

export function collectRoutes(app: FastifyInstance): RouteInfo[] {
  const routes: RouteInfo[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routes.push({ method: String(method), url: r.url ?? r.path, schema: r.schema as RouteInfo['schema'] });
  });
  return routes;
}

/** server/openapi/docs, from the sources (tsx) or beside the compiled server (server/dist): found from the project root. */
function docsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'server', 'openapi', 'docs');
}

export default async function openapiRoutes(app: FastifyInstance, opts: { routes: RouteInfo[] }) {
  let body: string | null = null;
  // built on first request: by then every route is registered (the server is ready)
  const document = () => (body ??= JSON.stringify(buildOpenApi({ meta: metadata, schemas, messages, routes: opts.routes }).document));
  app.get('/api/openapi.json', { preHandler: app.authenticate() }, async (_req, reply) => reply.type('application/json; charset=utf-8').send(document()));

  const dir = docsDir();
  const files = {
    '/api/docs': ['index.html', 'text/html; charset=utf-8'],
    '/api/docs/docs.js': ['docs.js', 'text/javascript; charset=utf-8'],
    '/api/docs/docs.css': ['docs.css', 'text/css; charset=utf-8'],
  } as const;
  for (const [url, [file, type]] of Object.entries(files)) {
    const content = readFileSync(join(dir, file), 'utf8');
    app.get(url, async (_req, reply) => reply.type(type).send(content));
  }
}
