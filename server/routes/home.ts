/**
 * GET /api/home/tiles?screen=<dashboard>: the counts of a dashboard's work tiles for the caller
 * (server/home/tiles.ts). Only tiles the caller may open are answered; a screen that is not a
 * dashboard the caller may open is a 404. Also registers the saved views (saved-views.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../engine/engine.ts';
import { screenRefusal } from '../../codegen/runtime/access-rules.ts';
import { notFound } from '../engine/errors.ts';
import { countTiles } from '../home/tiles.ts';
import savedViewRoutes from './saved-views.ts';

export const tileCountSchema = {
  type: 'object',
  required: ['key', 'labelKey', 'screen', 'path', 'search', 'count', 'more', 'severity'],
  additionalProperties: false,
  properties: {
    key: { type: 'string' },
    labelKey: { type: 'string' },
    screen: { type: 'string' },
    path: { type: 'string' },
    tab: { type: 'string' },
    search: { type: 'object', additionalProperties: true },
    count: { type: 'integer' },
    more: { type: 'boolean' },
    severity: { enum: ['info', 'warning', 'error'] },
  },
};

export default async function homeRoutes(app: FastifyInstance, opts: { engine: Engine }) {
  const { engine } = opts;
  await app.register(savedViewRoutes, { engine });
  app.get(
    '/api/home/tiles',
    {
      onRequest: app.authenticate(),
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { screen: { type: 'string', pattern: '^[a-z][A-Za-z0-9]*$', maxLength: 100 } },
        },
        response: { 200: { type: 'object', required: ['tiles'], properties: { tiles: { type: 'array', items: tileCountSchema } } } },
      },
    },
    async (req) => {
      const p = req.principal!;
      const name = (req.query as { screen?: string }).screen ?? 'dashboard';
      const dashboard = engine.meta.screens.find((s) => s.name === name && s.kind === 'dashboard');
      if (!dashboard || screenRefusal(dashboard, p)) throw notFound();
      return { tiles: await countTiles(engine, dashboard, p) };
    },
  );
}
