/**
 * Logs an operator can follow (docs/operations.md "Logs"): every log line of a request carries
 * its request id (`reqId`), its route template (`route`) and, once the caller is known, the
 * account (`userId`, never a name, e-mail or token). The id is taken from `X-Request-Id` when the
 * proxy in front is trusted to set it (PORTAL_TRUST_REQUEST_ID=on) and it is well-formed, else
 * generated; it is echoed in every answer (`x-request-id`), so a user's report and a proxy's log
 * lead to the portal's lines. Each request ends with one line that names the records a write
 * touched (resource, id, action).
 */
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';

/** What a request id may look like: a proxy's UUID, trace id or the like; nothing that could forge a log line. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{8,128}$/;

/** Fastify's genReqId: the trusted proxy's X-Request-Id when well-formed, else a new UUID. */
export function requestIdOf(trustHeader: boolean): (req: IncomingMessage) => string {
  return (req) => {
    const given = req.headers['x-request-id'];
    return trustHeader && typeof given === 'string' && WELL_FORMED.test(given) ? given : randomUUID();
  };
}

/** The records a write names: the resource, the id in the path, the action (never a body value). */
function touched(req: FastifyRequest, resources: ReadonlySet<string>): Record<string, unknown> | null {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return null;
  const m = /^\/api\/([a-z0-9-]+)(?:\/:id)?(?:\/actions\/([A-Za-z0-9]+))?/.exec(req.routeOptions.url ?? '');
  if (!m || !resources.has(m[1])) return null;
  const params = (req.params ?? {}) as Record<string, string>;
  const body = req.body as { ids?: unknown } | undefined;
  const ids = Array.isArray(body?.ids) ? body.ids.filter((x) => typeof x === 'number' || typeof x === 'string').slice(0, 100) : undefined;
  return { resource: m[1], ...(params.id ? { id: params.id } : {}), ...(ids ? { ids } : {}), ...(m[2] ? { action: m[2] } : {}) };
}

async function requestLog(app: FastifyInstance, opts: { resources: Iterable<string> }) {
  const resources = new Set(opts.resources);
  // the route template from the start: a 404 or an early refusal is still attributable
  const withRoute: onRequestHookHandler = async (req, reply) => {
    req.log = reply.log = req.log.child({ route: req.routeOptions.url ?? 'unmatched' });
    reply.header('x-request-id', req.id);
  };
  app.addHook('onRequest', withRoute);
  // the account once the route's own preHandlers (authentication) have identified it: appended
  // to every route's list, so it runs after them
  const withAccount: preHandlerHookHandler = async (req, reply) => {
    if (req.principal) req.log = reply.log = req.log.child({ userId: req.principal.userId });
  };
  app.addHook('onRoute', (route) => {
    const own = route.preHandler ? [route.preHandler].flat() : [];
    route.preHandler = [...own, withAccount];
  });
  app.addHook('onResponse', async (req, reply) => {
    const records = touched(req, resources);
    reply.log.info(
      { event: 'request', method: req.method, status: reply.statusCode, ms: Math.round(reply.elapsedTime), ...(records ? { records } : {}) },
      'request completed',
    );
  });
}

/** Registered at the root (fastify-plugin) before the routes, so its hooks reach every route. */
export default fp(requestLog, { name: 'portal-request-log' });
