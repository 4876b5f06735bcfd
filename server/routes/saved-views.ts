/**
 * Saved views of list screens (server/home/saved-views.ts), the caller's own only:
 *   GET    /api/views?screen=<list screen>   its views of that screen
 *   POST   /api/views                        { screen, name, state, isDefault? } -> 201
 *   PUT    /api/views/:id                    { name?, state?, isDefault? }
 *   DELETE /api/views/:id                    -> 204
 * A screen the caller may not open, and another account's view, are 404.
 */
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../engine/engine.ts';
import { checkName, checkState, SavedViews, viewScreen } from '../home/saved-views.ts';

export const savedViewSchema = {
  type: 'object',
  required: ['id', 'screen', 'name', 'state', 'isDefault', 'updatedAt'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer' },
    screen: { type: 'string' },
    name: { type: 'string' },
    state: {
      type: 'object',
      additionalProperties: false,
      properties: {
        filter: { type: 'object', additionalProperties: true },
        sort: { type: 'object', properties: { field: { type: 'string' }, order: { enum: ['ASC', 'DESC'] } } },
        columns: { type: 'array', items: { type: 'string' } },
        tab: { type: 'string' },
      },
    },
    isDefault: { type: 'boolean' },
    updatedAt: { type: 'string' },
  },
};
const screenName = { type: 'string', pattern: '^[a-z][A-Za-z0-9]*$', maxLength: 100 };
const stateBody = { type: 'object', maxProperties: 4 };
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } } };

export default async function savedViewRoutes(app: FastifyInstance, opts: { engine: Engine }) {
  const { engine } = opts;
  const views = new SavedViews(engine.db);
  const auth = app.authenticate();

  app.get(
    '/api/views',
    {
      preHandler: auth,
      schema: {
        querystring: { type: 'object', required: ['screen'], additionalProperties: false, properties: { screen: screenName } },
        response: { 200: { type: 'array', items: savedViewSchema } },
      },
    },
    async (req) => {
      const { screen } = viewScreen(engine.meta, req.principal!, (req.query as { screen: string }).screen);
      return views.list(req.principal!, screen.name);
    },
  );

  app.post(
    '/api/views',
    {
      preHandler: auth,
      schema: {
        body: {
          type: 'object',
          required: ['screen', 'name', 'state'],
          additionalProperties: false,
          properties: { screen: screenName, name: { type: 'string', maxLength: 200 }, state: stateBody, isDefault: { type: 'boolean' } },
        },
        response: { 201: savedViewSchema },
      },
    },
    async (req, reply) => {
      const body = req.body as { screen: string; name: unknown; state: unknown; isDefault?: boolean };
      const { screen, entity } = viewScreen(engine.meta, req.principal!, body.screen);
      const view = await views.create(req.principal!, screen.name, checkName(body.name), checkState(screen, entity, body.state), !!body.isDefault);
      return reply.code(201).send(view);
    },
  );

  app.put(
    '/api/views/:id',
    {
      preHandler: auth,
      schema: {
        params: idParams,
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: { name: { type: 'string', maxLength: 200 }, state: stateBody, isDefault: { type: 'boolean' } },
        },
        response: { 200: savedViewSchema },
      },
    },
    async (req) => {
      const p = req.principal!;
      const { id } = req.params as { id: number };
      const body = req.body as { name?: unknown; state?: unknown; isDefault?: boolean };
      const current = await views.own(p, id);
      const { screen, entity } = viewScreen(engine.meta, p, current.screen);
      return views.update(p, id, {
        ...(body.name !== undefined ? { name: checkName(body.name) } : {}),
        ...(body.state !== undefined ? { state: checkState(screen, entity, body.state) } : {}),
        ...(body.isDefault !== undefined ? { isDefault: body.isDefault } : {}),
      });
    },
  );

  app.delete('/api/views/:id', { preHandler: auth, schema: { params: idParams } }, async (req, reply) => {
    await views.remove(req.principal!, (req.params as { id: number }).id);
    return reply.code(204).send();
  });
}
