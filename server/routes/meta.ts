/**
 * GET /api/meta: the compiled metadata a client needs (app constants, code tables with both
 * labels, screens, entities without private fields, rules, permission buttons). It carries no data
 * and the admin bundle holds the same, so it is public; its ETag is the metadata hash.
 */
import type { FastifyInstance } from 'fastify';
import { metadata } from '../generated/index.ts';

export function publicMetadata() {
  const entities = Object.fromEntries(
    Object.entries(metadata.entities).map(([n, e]) => {
      const fields = Object.fromEntries(Object.entries(e.fields).filter(([, f]) => !f.private));
      return [n, { ...e, fields, fieldOrder: e.fieldOrder.filter((f) => fields[f]) }];
    }),
  );
  return { hash: metadata.hash, app: metadata.app, access: metadata.access, codeTables: metadata.codeTables, rules: metadata.rules, entities, resources: metadata.resources, screens: metadata.screens };
}

export default async function metaRoutes(app: FastifyInstance) {
  const body = JSON.stringify(publicMetadata());
  const etag = `"${metadata.hash}"`;
  app.get('/api/meta', async (req, reply) => {
    reply.header('etag', etag).header('cache-control', 'no-cache').type('application/json');
    if (req.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply.send(body);
  });
}
