/**
 * Serves the built admin (admin/dist) from the API's own origin, so no CORS is needed. Paths that
 * are not files fall back to index.html (client-side routes such as /orderShip/list) through the
 * not-found handler of plugins/errors.ts; API paths never do.
 */
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

declare module 'fastify' {
  interface FastifyInstance {
    /** true when a built admin is served: unknown GET paths answer its index.html */
    adminIndex: boolean;
  }
}

export default fp(
  async (app, opts: { dir: string; preCompressed?: boolean }) => {
    const ok = existsSync(join(opts.dir, 'index.html'));
    app.decorate('adminIndex', ok);
    if (!ok) {
      app.log.warn(`admin not built (${opts.dir}/index.html missing): run "npm run build"`);
      return;
    }
    await app.register(fastifyStatic, {
      root: opts.dir,
      wildcard: false,
      // the build's .br / .gz twins (admin/precompress.ts), chosen by Accept-Encoding; never compressed again
      preCompressed: opts.preCompressed !== false,
      // hashed assets may be cached for long; index.html never
      setHeaders: (res, path) => res.header('cache-control', path.endsWith('index.html') ? 'no-cache' : 'public, max-age=31536000, immutable'),
    });
  },
  { name: 'admin-static' },
);
