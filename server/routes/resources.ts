/**
 * The generic API: for every entity of the metadata, the ra-data-simple-rest routes and its
 * declared actions, each with a full JSON schema (params, query, body, response). Responses are
 * serialised through the record schema, so a field that is not declared visible can never leak;
 * list pages are written with the schema's keys only (engine/json-types.ts, recordKeys).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CompiledEntity } from '../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import type { Engine } from '../engine/engine.ts';
import { jsonContentRange, listJson } from '../engine/list-json.ts';
import { listRowsJson } from '../engine/rows-json.ts';
import { translate } from '../engine/i18n.ts';
import type { FileResult, UploadedFile } from '../engine/handler-types.ts';
import type { CompiledAction } from '../../codegen/runtime/model.ts';
import type { FastifyRequest } from 'fastify';
import { schemas, messages } from '../generated/index.ts';
import { AppError } from '../engine/errors.ts';
import { fieldOf } from '../engine/records.ts';
import { checkFile } from './files.ts';
import { readMultipart } from './multipart.ts';
import { leanFields } from './lean-list.ts';
import { entityTemplate } from '../documents/entity-sheet.ts';
import { XLSX_CONTENT_TYPE } from '../documents/xlsx.ts';
import { JSON_TYPE, recordKeys } from '../engine/json-types.ts';

export function responseSchema(e: CompiledEntity) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      // the visible fields, then the name of the person whose user ID a field holds (engine/person-names.ts)
      recordKeys(e).map((k) => [
        k.key,
        k.field
          ? { type: [JSON_TYPE[k.field.type], 'null'] }
          : { type: ['string', 'null'], description: `the name of the person whose user ID ${k.nameOf} holds (the ID when no account has it)` },
      ]),
    ),
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
  properties: {
    sort: { type: 'string', maxLength: 200 },
    range: { type: 'string', maxLength: 100 },
    filter: { type: 'string', maxLength: 20000 },
    // a lean page: only the fields this list screen needs (routes/lean-list.ts)
    screen: { type: 'string', maxLength: 100 },
  },
};
const anyBody = { type: 'object' };
const errorResponse = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    message: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'string' } },
    errorArgs: { type: 'object', additionalProperties: { type: 'object', additionalProperties: true } },
    errorId: { type: 'string' },
  },
};
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };

/**
 * The body of an action call: JSON, or for actions that take a file (metadata "upload") a
 * multipart form whose part "file" is checked against the action's file rule and whose other
 * parts are the input fields (converted by their declared types).
 */
async function actionBody(req: FastifyRequest, e: CompiledEntity, a: CompiledAction): Promise<{ body: Record<string, unknown>; file?: UploadedFile }> {
  if (!a.upload || !req.isMultipart()) return { body: (req.body ?? {}) as Record<string, unknown> };
  const rule = metadata.rules[a.upload.rule];
  const form = await readMultipart(req, rule, (n) => (Object.hasOwn(a.input, n) ? a.input[n] : fieldOf(e, n)));
  if (!form.file) return { body: form.fields };
  const checked = await checkFile(rule, form.file.name, form.file.data);
  return { body: form.fields, file: { fileName: checked.fileName, data: form.file.data } };
}

export default async function resourceRoutes(app: FastifyInstance, opts: { engine: Engine }) {
  const { engine } = opts;
  for (const e of Object.values(metadata.entities)) {
    const base = `/api/${e.resource}`;
    const record = responseSchema(e);
    const readAuth = e.public ? app.optionalAuth : app.authenticate();
    const auth = [app.authenticate(), app.writeLimit];

    app.get(
      base,
      { preHandler: readAuth, schema: { querystring: listQuery, response: { 200: { type: 'array', items: record }, ...errors } } },
      async (req, reply) => {
        const { screen, ...query } = req.query as Record<string, unknown>;
        const fields = leanFields(e, screen, req.principal);
        // the bytes the records would make through the response schema, written without records:
        // SQLite writes the page's JSON itself (engine/list-json.ts, about a sixth less CPU:
        // docs/performance.md); on PostgreSQL node writes it from the row arrays
        // (engine/rows-json.ts), which costs node and database together the least (docs/scaling-out.md).
        // A string or buffer with a JSON content type is sent as it is.
        const j =
          engine.d.name === 'sqlite' ? await listJson(engine, req.principal, e, query, fields) : await listRowsJson(engine, req.principal, e, query, fields);
        reply.header('content-range', jsonContentRange(e.resource, j)).header('content-type', 'application/json; charset=utf-8');
        return j.body;
      },
    );
    app.get(`${base}/:id`, { preHandler: readAuth, schema: { params: idParams, response: { 200: record, ...errors } } }, async (req) =>
      engine.getOne(req.principal, e, (req.params as { id: number }).id),
    );
    app.post(base, { preHandler: auth, schema: { body: anyBody, response: { 201: record, ...errors } } }, async (req, reply) => {
      const rec = await engine.create(req.principal!, e, req.body);
      return reply.status(201).send(rec);
    });
    app.put(`${base}/:id`, { preHandler: auth, schema: { params: idParams, body: anyBody, response: { 200: record, ...errors } } }, async (req) =>
      engine.update(req.principal!, e, (req.params as { id: number }).id, req.body),
    );
    app.delete(`${base}/:id`, { preHandler: auth, schema: { params: idParams, response: { 200: record, ...errors } } }, async (req) => {
      const { record: rec, removedFiles } = await engine.remove(req.principal!, e, (req.params as { id: number }).id);
      if (removedFiles.length) await app.fileStore.removeAll(removedFiles);
      return rec;
    });

    for (const a of Object.values(e.actions)) {
      if (a.internal) continue;
      // a collection action's result may fill the message's placeholders (a new client's secret, shown once)
      const done = (req: { locale: typeof metadata.app.defaultLocale }, result?: unknown) =>
        translate(
          req.locale,
          a.successKey,
          result && typeof result === 'object'
            ? Object.fromEntries(Object.entries(result).filter((kv): kv is [string, string | number] => typeof kv[1] === 'string' || typeof kv[1] === 'number'))
            : {},
        );
      const bodySchema = a.upload ? {} : { body: { type: ['object', 'null'] } };
      if (!a.collection) {
        app.post(`${base}/:id/actions/${a.name}`, { preHandler: auth, schema: { params: idParams, ...bodySchema } }, async (req, reply) => {
          const id = (req.params as { id: number }).id;
          // who may not run the action learns so before the body is read
          engine.assertMayRun(req.principal!, e, a.name);
          const { body, file } = await actionBody(req, e, a);
          const r = await engine.action(req.principal!, e, a.name, [id], body, file);
          if (r.file) return sendFile(reply, r.file);
          return reply.send(r.records[0]);
        });
      }
      if (a.bulk || a.collection) {
        app.post(`${base}/actions/${a.name}`, { preHandler: auth, schema: { ...bodySchema } }, async (req, reply) => {
          engine.assertMayRun(req.principal!, e, a.name);
          const { body, file } = await actionBody(req, e, a);
          const r = await engine.action(req.principal!, e, a.name, null, body, file);
          if (r.file) return sendFile(reply, r.file);
          return reply.send({ data: r.records, ...(r.result !== undefined ? { result: r.result } : {}), message: done(req, r.result) });
        });
      }
      if (a.collection && a.upload?.template) {
        // the import template: a header row of the entity's creatable fields in the caller's language
        app.get(`${base}/actions/${a.name}/template`, { preHandler: auth, schema: {} }, async (req, reply) => {
          if (!a.allow[req.principal!.profile] && req.principal!.role !== 'admin') throw new AppError(403, 'error.forbidden');
          const body = entityTemplate({ entity: e, createSchema: schemas[e.name].create, catalogues: messages }, req.locale);
          const title = messages[req.locale][e.labelKey] ?? e.name;
          return sendFile(reply, { fileName: `${title}-${messages[req.locale][a.labelKey] ?? a.name}.xlsx`, contentType: XLSX_CONTENT_TYPE, body });
        });
      }
    }
  }
}
