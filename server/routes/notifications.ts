/**
 * The bell's calls (server/home/notifications.ts), the caller's own audience only:
 *   GET  /api/notifications              its newest events, with read marks and the unread count
 *   POST /api/notifications/:id/read     marks one read (another audience's event: 404)
 *   POST /api/notifications/read-all     marks all read
 *   GET  /api/notifications/stream       Server-Sent Events: `changed` whenever a new event exists
 *                                        (the page then reads its feed); ends when the token does
 */
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Engine } from '../engine/engine.ts';
import { NotificationHub } from '../home/notification-hub.ts';
import { feed, markRead, recordEvents } from '../home/notifications.ts';

export const notificationFeedSchema = {
  type: 'object',
  required: ['unread', 'items'],
  properties: {
    unread: { type: 'integer' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'label', 'title', 'at', 'read', 'path'],
        properties: {
          id: { type: 'integer' },
          label: { type: 'string' },
          title: { type: ['string', 'null'] },
          at: { type: 'string' },
          read: { type: 'boolean' },
          path: { type: 'string' },
        },
      },
    },
  },
};

/** a comment line every 25 s keeps proxies and the browser from closing an idle stream */
const KEEPALIVE_MS = 25_000;

export default async function notificationRoutes(app: FastifyInstance, opts: { engine: Engine; pollMs?: number }) {
  const { engine } = opts;
  // events are written in the transaction of the audited write that causes them
  engine.afterAudit = (q, p, e, ids, operation, now) => recordEvents(engine.meta, q, p, e, ids, operation, now, engine.db);
  const hub = new NotificationHub(engine.db, opts.pollMs);
  const streams = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const s of streams) s.end();
    await hub.stop();
  });
  const auth = app.authenticate();
  const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } } };

  app.get('/api/notifications', { onRequest: auth, schema: { response: { 200: notificationFeedSchema } } }, async (req) =>
    feed(engine.db, req.principal!, req.locale),
  );

  app.post('/api/notifications/read-all', { onRequest: auth }, async (req, reply) => {
    await markRead(engine.db, req.principal!, 'all');
    return reply.code(204).send();
  });

  app.post('/api/notifications/:id/read', { onRequest: auth, schema: { params: idParams } }, async (req, reply) => {
    await markRead(engine.db, req.principal!, (req.params as { id: number }).id);
    return reply.code(204).send();
  });

  app.get('/api/notifications/stream', { onRequest: auth }, async (req, reply) => {
    const p = req.principal!;
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    raw.write('retry: 2000\nevent: hello\ndata: {}\n\n');
    streams.add(raw);
    const unsubscribe = hub.subscribe((id) => raw.write(`event: changed\ndata: ${JSON.stringify({ id })}\n\n`));
    const keepalive = setInterval(() => raw.write(': keepalive\n\n'), KEEPALIVE_MS);
    // a stream outlives no token: the page reconnects with its refreshed one
    const expiry = setTimeout(() => raw.end(), Math.max(0, p.tokenExp * 1000 - Date.now()));
    raw.on('close', () => {
      streams.delete(raw);
      unsubscribe();
      clearInterval(keepalive);
      clearTimeout(expiry);
    });
  });
}
