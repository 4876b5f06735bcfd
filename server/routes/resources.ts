/**
 * The generic API: for every entity of the metadata, the ra-data-simple-rest routes and its
 * declared actions, each with a full JSON schema (params, query, body, response). Responses are
 * serialised through the record schema, so a field that is not declared visible can never leak.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CompiledEntity, FieldType } from '../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import type { Engine } from '../engine/engine.ts';
import { translate } from '../engine/i18n.ts';
import type { FileResult } from '../engine/handler-types.ts';

const JSON_TYPE: Record<FieldType, string> = { string: 'string', text: 'string', code: 'string', date: 'string', datetime: 'string', integer: 'integer', ref: 'integer', decimal: 'number', boolean: 'boolean' };

export function responseSchema(e: CompiledEntity) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(e.fieldOrder.filter((n) => !e.fields[n].private).map((n) => [n, { type: [JSON_TYPE[e.fields[n].type], 'null'] }])),
  };
}

/** RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name (Chinese file names survive). */
export function contentDisposition(fileName: string, inline = false): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export function sendFile(reply: FastifyReply, f: FileResult, inline = false) {
  return reply.header('content-type', f.contentType).header('content-disposition', contentDisposition(f.fileName, inline)).send(f.body);
}

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } } };
const listQuery = {
  type: 'object',
  properties: { sort: { type: 'string', maxLength: 200 }, range: { type: 'string', maxLength: 100 }, filter: { type: 'string', maxLength: 20000 } },
};
const anyBody = { type: 'object' };
const errorResponse = { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, errors: { type: 'object', additionalProperties: { type: 'string' } }, errorArgs: { type: 'object', additionalProperties: { type: 'object', additionalProperties: true } }, errorId: { type: 'string' } } };
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

export default async function resourceRoutes(app: FastifyInstance, opts: { engine: Engine }) {
  const { engine } = opts;
  for (const e of Object.values(metadata.entities)) {
    const base = `/api/${e.resource}`;
    const record = responseSchema(e);
    const readAuth = e.public ? app.optionalAuth : app.authenticate();
    const auth = app.authenticate();
    const tags = [e.resource];

    app.get(base, { preHandler: readAuth, schema: { tags, querystring: listQuery, response: { 200: { type: 'array', items: record }, ...errors } } }, async (req, reply) => {
      const r = engine.list(req.principal, e, req.query as Record<string, unknown>);
      reply.header('content-range', r.records.length ? `${e.resource} ${r.start}-${r.end}/${r.total}` : `${e.resource} */${r.total}`);
      return r.records;
    });
    app.get(`${base}/:id`, { preHandler: readAuth, schema: { tags, params: idParams, response: { 200: record, ...errors } } }, async (req) => engine.getOne(req.principal, e, (req.params as { id: number }).id));
    app.post(base, { preHandler: auth, schema: { tags, body: anyBody, response: { 201: record, ...errors } } }, async (req, reply) => {
      const rec = engine.create(req.principal!, e, req.body);
      return reply.status(201).send(rec);
    });
    app.put(`${base}/:id`, { preHandler: auth, schema: { tags, params: idParams, body: anyBody, response: { 200: record, ...errors } } }, async (req) => engine.update(req.principal!, e, (req.params as { id: number }).id, req.body));
    app.delete(`${base}/:id`, { preHandler: auth, schema: { tags, params: idParams, response: { 200: record, ...errors } } }, async (req) => {
      const { record: rec, removedFiles } = engine.remove(req.principal!, e, (req.params as { id: number }).id);
      if (removedFiles.length) await app.fileStore.removeAll(removedFiles);
      return rec;
    });

    for (const a of Object.values(e.actions)) {
      const done = (req: { locale: typeof metadata.app.defaultLocale }) => translate(req.locale, a.successKey);
      if (!a.collection) {
        app.post(`${base}/:id/actions/${a.name}`, { preHandler: auth, schema: { tags, params: idParams, body: { type: ['object', 'null'] } } }, async (req, reply) => {
          const id = (req.params as { id: number }).id;
          const r = await engine.action(req.principal!, e, a.name, [id], req.body ?? {});
          if (r.file) return sendFile(reply, r.file);
          return reply.send(r.records[0]);
        });
      }
      if (a.bulk || a.collection) {
        app.post(`${base}/actions/${a.name}`, { preHandler: auth, schema: { tags, body: { type: ['object', 'null'] } } }, async (req, reply) => {
          const body = (req.body ?? {}) as Record<string, unknown>;
          const r = await engine.action(req.principal!, e, a.name, null, body);
          if (r.file) return sendFile(reply, r.file);
          return reply.send({ data: r.records, ...(r.result !== undefined ? { result: r.result } : {}), message: done(req) });
        });
      }
    }
  }
}
