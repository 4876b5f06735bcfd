/**
 * GET /api/home/tiles?screen=<dashboard>: the counts of a dashboard's work tiles for the caller
 * (server/home/tiles.ts); GET /api/home/charts?screen=<dashboard>: its charts' data (charts.ts). Only tiles the caller may open are answered; a screen that is not a
 * dashboard the caller may open is a 404. Also registers the saved views (saved-views.ts).
 * The bell's notifications (notifications.ts). GET /api/history/<resource>/<id>: the record's history (server/home/history.ts), scoped like the record.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CompiledScreen } from '../../codegen/runtime/model.ts';
import type { Engine } from '../engine/engine.ts';
import { screenRefusal } from '../../codegen/runtime/access-rules.ts';
import { notFound } from '../engine/errors.ts';
import { countTiles } from '../home/tiles.ts';
import { chartData } from '../home/charts.ts';
import { recordHistory } from '../home/history.ts';
import savedViewRoutes from './saved-views.ts';
import notificationRoutes from './notifications.ts';

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

export const chartDataSchema = {
  type: 'object',
  required: ['key', 'title', 'valueLabel', 'groupLabel', 'kind', 'bucket', 'points'],
  additionalProperties: false,
  properties: {
    key: { type: 'string' },
    title: { type: 'string' },
    valueLabel: { type: 'string' },
    groupLabel: { type: 'string' },
    kind: { enum: ['bar', 'line'] },
    bucket: { enum: ['code', 'day'] },
    points: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['key', 'label', 'value'],
        properties: { key: { type: 'string' }, label: { type: 'string' }, value: { type: 'number' } },
      },
    },
  },
};

export const historyEntrySchema = {
  type: 'object',
  required: ['at', 'userId', 'userName', 'operation', 'operationLabel', 'changes'],
  additionalProperties: false,
  properties: {
    at: { type: 'string' },
    userId: { type: 'string' },
    userName: { type: 'string', description: 'the name of the person who did it (the user ID when no account has it any more)' },
    operation: { type: 'string' },
    operationLabel: { type: 'string' },
    fileName: { type: 'string' },
    changes: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['field', 'label', 'before', 'after'],
        properties: { field: { type: 'string' }, label: { type: 'string' }, before: { type: ['string', 'null'] }, after: { type: ['string', 'null'] } },
      },
    },
  },
};

export default async function homeRoutes(app: FastifyInstance, opts: { engine: Engine }) {
  const { engine } = opts;
  await app.register(savedViewRoutes, { engine });
  await app.register(notificationRoutes, { engine });
  const dashboardQuery = {
    type: 'object',
    additionalProperties: false,
    properties: { screen: { type: 'string', pattern: '^[a-z][A-Za-z0-9]*$', maxLength: 100 } },
  };
  /** the dashboard a home call names (default "dashboard"); one the caller may not open is a 404 */
  const dashboardOf = (req: FastifyRequest): CompiledScreen => {
    const name = (req.query as { screen?: string }).screen ?? 'dashboard';
    const dashboard = engine.meta.screens.find((s) => s.name === name && s.kind === 'dashboard');
    if (!dashboard || screenRefusal(dashboard, req.principal!)) throw notFound();
    return dashboard;
  };
  app.get(
    '/api/home/tiles',
    {
      onRequest: app.authenticate(),
      schema: {
        querystring: dashboardQuery,
        response: { 200: { type: 'object', required: ['tiles'], properties: { tiles: { type: 'array', items: tileCountSchema } } } },
      },
    },
    async (req) => ({ tiles: await countTiles(engine, dashboardOf(req), req.principal!) }),
  );
  app.get(
    '/api/home/charts',
    {
      onRequest: app.authenticate(),
      schema: {
        querystring: dashboardQuery,
        response: { 200: { type: 'object', required: ['charts'], properties: { charts: { type: 'array', items: chartDataSchema } } } },
      },
    },
    async (req) => ({ charts: await chartData(engine, dashboardOf(req), req.principal!, req.locale) }),
  );

  app.get(
    '/api/history/:resource/:id',
    {
      onRequest: app.authenticate(),
      schema: {
        params: {
          type: 'object',
          required: ['resource', 'id'],
          properties: {
            resource: { type: 'string', pattern: '^[a-z][a-z0-9-]*$', maxLength: 100 },
            id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
          },
        },
        response: { 200: { type: 'array', items: historyEntrySchema } },
      },
    },
    async (req) => {
      const { resource, id } = req.params as { resource: string; id: number };
      return recordHistory(engine, req.principal!, engine.entityOf(resource), id, req.locale);
    },
  );
}
