/**
 * The OpenAPI 3.1 document of the API, built from the routes the server has actually registered
 * (collected by an onRoute hook) and the compiled metadata. Each route is described from one of
 * two sources:
 *  - the generic routes of an entity (list, get, create, update, delete, actions, upload,
 *    download, export, import template) from the metadata: the list's sort fields and filter keys,
 *    and as bodies and answers the very JSON Schemas codegen emits for the validator
 *    (server/generated/schemas.json: record, create, update, one per action input);
 *  - every other route from its entry in fixed-routes.ts (summary, answers), with the request
 *    schemas the route itself validates with (its Fastify schema).
 * A route that neither describes is listed as undocumented (tests/server/openapi.test.ts fails on
 * it), so the document cannot silently fall behind the server.
 *
 * The schemas keep the validator's own keywords next to the standard ones: `notBlank`,
 * `maxBytes`, `maxDecimals`, `notBeforeToday` (OpenAPI 3.1's JSON Schema treats unknown keywords as
 * annotations; `info.description` explains them), and `$comment: "rule:<name>"` names the
 * metadata rule behind a constraint.
 */
import type { CompiledAction, CompiledEntity, CompiledField, CompiledMetadata, Catalogues, Operation as EntityOperation } from '../../codegen/runtime/model.ts';
import type { EntitySchemas, JsonSchema } from '../../codegen/runtime/field-schema.ts';
import { fixedRouteDocs, type FixedRouteDoc } from './fixed-routes.ts';

export interface RouteInfo {
  method: string;
  url: string;
  schema?: { body?: unknown; querystring?: unknown; params?: unknown; consumes?: string[] } & Record<string, unknown>;
}

export interface OpenApiResult {
  document: JsonSchema;
  /** "METHOD url" of API routes that no source describes */
  undocumented: string[];
  /**
   * "METHOD url" of generic routes whose operation the metadata grants to no profile (creating or
   * deleting accounts: they answer 403 to everyone): left out, so that client generators offer no call that cannot succeed
   */
  refusedToAll: string[];
}

/** The generic routes of an entity and the operation each needs a grant of. */
const GENERIC_OPERATIONS: Record<string, EntityOperation> = { 'POST ': 'create', 'PUT /:id': 'update', 'DELETE /:id': 'delete', 'GET /export': 'export' };
/** metadataOperation's answer for a generic route that no profile is granted */
const REFUSED_TO_ALL = 'refusedToAll' as const;

/** The prefixes of the API; other routes (the admin's static files) are not part of the contract. */
export const API_PREFIXES = ['/api/', '/connect/', '/supplierApi/', '/healthz', '/readyz', '/metrics'];
export const isApiRoute = (url: string): boolean => API_PREFIXES.some((p) => url.startsWith(p));

const pascal = (s: string): string => s.replace(/(^|[-_\s])([a-z])/g, (_m, _p, c: string) => c.toUpperCase()).replace(/^[a-z]/, (c) => c.toUpperCase());
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
/**
 * A fixed-length array (sort, range): `prefixItems` plus an `items` that admits nothing more. Strict
 * 3.1 tools (@readme/openapi-parser) require every array to have an `items` schema and take
 * `items: false` for none, so it is written `{ not: {} }`, which means the same to a validator.
 */
const tuple = (...items: unknown[]) => ({ type: 'array', prefixItems: items, items: { not: {} }, minItems: items.length, maxItems: items.length });
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** One described operation, before it is put under its path. */
interface Operation {
  tags: string[];
  summary: string;
  description?: string;
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}

const errorResponses = (...codes: number[]) => Object.fromEntries(codes.map((c) => [String(c), { $ref: `#/components/responses/E${c}` }]));
const ERROR_TEXT: Record<number, string> = {
  400: 'Bad input: `code` is an i18n key (error.validation, error.malformedQuery, error.unknownFilter, ...); field errors in `errors` (field -> message key) with placeholder values in `errorArgs`',
  401: 'No token, or a dead one (error.unauthorized, error.sessionExpired, error.userLocked)',
  403: 'Not allowed (error.forbidden, error.notClaimWarehouse, error.passwordMustChange, error.mfaEnrolmentRequired)',
  404: "Unknown, or outside the caller's row scope (error.notFound)",
  409: 'Illegal state transition, stale version (error.staleVersion) or duplicate (error.duplicate)',
  413: 'Too large (error.fileTooLarge, error.payloadTooLarge)',
  429: 'Rate limited (error.rateLimited)',
};

const ID_PARAM = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } };

/** The value a filter key takes for a field (the list protocol of server/engine/query.ts). */
function filterValueSchema(f: CompiledField, meta: CompiledMetadata): JsonSchema {
  switch (f.type) {
    case 'integer':
    case 'ref':
    case 'decimal':
      return { type: ['number', 'string'], description: 'a number (or its decimal text)' };
    case 'boolean':
      return { type: ['boolean', 'string'], enum: [true, false, 'true', 'false', '0', '1'] };
    case 'date':
    case 'datetime':
      return { type: 'string', description: 'yyyy-MM-dd, or an ISO 8601 date-time; an end date (_lte) of a date-time field includes the whole day' };
    case 'code':
      return { type: 'string', enum: meta.codeTables[f.codeTable!].values.map((v) => v.code) };
    default:
      return { type: 'string', maxLength: 200 };
  }
}

/** The `filter` query parameter of an entity's list: every key the entity declares. */
export function filterSchema(e: CompiledEntity, meta: CompiledMetadata): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const n of e.fieldOrder) {
    const f = e.fields[n];
    if (f.private) continue;
    const v = filterValueSchema(f, meta);
    const scalar = f.filter.includes('eq') || f.filter.includes('in');
    const list = f.filter.includes('in') || n === 'id';
    if (scalar && list)
      properties[n] = { oneOf: [v, { type: 'array', items: v, maxItems: meta.app.maxPageSize }], description: 'equals; an array means "one of"' };
    else if (scalar) properties[n] = { ...v, description: 'equals' };
    else if (list) properties[n] = { type: 'array', items: v, maxItems: meta.app.maxPageSize, description: 'one of (getMany)' };
    if (f.filter.includes('contains')) properties[`${n}_like`] = { type: 'string', maxLength: 200, description: 'contains (case-insensitive)' };
    if (f.filter.includes('range')) {
      properties[`${n}_gte`] = { ...v, description: 'at least' };
      properties[`${n}_lte`] = { ...v, description: 'at most' };
    }
  }
  const search = e.fieldOrder.filter((n) => e.fields[n].search);
  if (search.length) properties.q = { type: 'string', maxLength: 200, description: `quick search: contains, over ${search.join(', ')}` };
  if (e.softDelete) properties.includeDeleted = { type: 'boolean', description: `also rows whose ${e.softDelete} is set` };
  return { type: 'object', additionalProperties: false, properties };
}

/** The fields a list may sort on: declared sortable, the entity's default sort, and id. */
export function sortFields(e: CompiledEntity): string[] {
  return e.fieldOrder.filter((n) => !e.fields[n].private && (e.fields[n].sort || n === e.defaultSort.field || n === 'id'));
}

class Builder {
  readonly components: { schemas: Record<string, JsonSchema>; responses: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  readonly tags = new Map<string, { name: string; description: string }>();

  constructor(
    private readonly meta: CompiledMetadata,
    private readonly schemas: Record<string, EntitySchemas>,
    private readonly messages: Catalogues,
  ) {
    const error = {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'an i18n key: error.*' },
        message: { type: 'string', description: "the code translated into the caller's language (Accept-Language: zh-CN or en-US)" },
        errors: { type: 'object', additionalProperties: { type: 'string' }, description: 'field -> message key' },
        errorArgs: { type: 'object', additionalProperties: { type: 'object' }, description: 'field -> placeholder values of its message' },
        errorId: { type: 'string', description: 'of a 5xx: the id of the log entry' },
      },
    };
    this.components = {
      schemas: { Error: error },
      responses: Object.fromEntries([...Object.entries(ERROR_TEXT)].map(([c, d]) => [`E${c}`, { description: d, content: json(ref('Error')) }])),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'the access_token of POST /connect/token' } },
    };
  }

  label(key: string, locale: 'en-US' | 'zh-CN' = 'en-US'): string {
    return this.messages[locale]?.[key] ?? key;
  }

  /** Registers the entity's schemas and tag once; returns the component names. */
  entity(e: CompiledEntity) {
    const base = pascal(e.name);
    if (!this.components.schemas[base]) {
      const s = this.schemas[e.name];
      this.components.schemas[base] = this.withCodeLabels(s.record, e.fields);
      this.components.schemas[`${base}Create`] = this.withCodeLabels(s.create, e.fields);
      this.components.schemas[`${base}Update`] = this.withCodeLabels(s.update, e.fields);
      for (const [a, schema] of Object.entries(s.actions))
        this.components.schemas[`${base}${pascal(a)}Input`] = this.withCodeLabels(schema, e.actions[a].input);
      this.tags.set(e.resource, { name: e.resource, description: `${this.label(e.labelKey)} / ${this.label(e.labelKey, 'zh-CN')} (entity ${e.name})` });
    }
    return { record: base, create: `${base}Create`, update: `${base}Update`, input: (a: string) => `${base}${pascal(a)}Input` };
  }

  /**
   * The validator's schema with the labels of its code fields beside their codes
   * (`x-enum-descriptions`, one per `enum` entry, "English / 中文"; null: "(empty)"), which client
   * generators turn into documented enums. A copy: the validator's own schemas stay as they are.
   */
  private withCodeLabels(schema: JsonSchema, fields: Record<string, CompiledField>): JsonSchema {
    const props = schema.properties as Record<string, JsonSchema> | undefined;
    if (!props) return schema;
    const labelled = Object.fromEntries(
      Object.entries(props).map(([n, p]) => {
        const table = fields[n]?.type === 'code' ? this.meta.codeTables[fields[n].codeTable!] : undefined;
        if (!table || !Array.isArray(p.enum)) return [n, p];
        const text = (code: unknown) => {
          const v = table.values.find((x) => x.code === code);
          return code === null ? '(empty)' : v ? `${v.label['en-US']} / ${v.label['zh-CN']}` : String(code);
        };
        return [n, { ...p, 'x-enum-descriptions': (p.enum as unknown[]).map(text) }];
      }),
    );
    return { ...schema, properties: labelled };
  }

  /** The operation of a generic route of entity `e`, null when the URL is not one of them, REFUSED_TO_ALL when no profile may call it. */
  metadataOperation(method: string, url: string): Operation | typeof REFUSED_TO_ALL | null {
    const m = /^\/api\/([a-z][a-z0-9-]*)(\/.*)?$/.exec(url);
    const entityName = m ? this.meta.resources[m[1]] : undefined;
    if (!m || !entityName) return null;
    const e = this.meta.entities[entityName];
    const rest = m[2] ?? '';
    const names = this.entity(e);
    const label = this.label(e.labelKey);
    const tags = [e.resource];
    const readSecurity: Record<string, string[]>[] = e.public ? [{}, { bearer: [] }] : [{ bearer: [] }];
    const write: Record<string, string[]>[] = [{ bearer: [] }];
    const id = `${e.name}`;
    let a: CompiledAction | undefined;
    const key = `${method} ${rest}`;
    const op = GENERIC_OPERATIONS[key];
    if (op && !Object.keys(e.access[op] ?? {}).length) return REFUSED_TO_ALL;
    switch (true) {
      case key === 'GET ':
        return {
          tags,
          operationId: `${id}.list`,
          security: readSecurity,
          summary: `List ${label} (ra-data-simple-rest)`,
          description: `A page of rows in the caller's scope, as JSON array; header \`Content-Range: ${e.resource} <start>-<end>/<total>\` (\`<total>+\`: more than that many). Page size at most ${this.meta.app.maxPageSize}.`,
          parameters: [
            {
              name: 'sort',
              in: 'query',
              description: `\`["field","ASC"|"DESC"]\`; default ${JSON.stringify([e.defaultSort.field, e.defaultSort.order])}`,
              content: json(tuple({ enum: sortFields(e) }, { enum: ['ASC', 'DESC'] })),
            },
            {
              name: 'range',
              in: 'query',
              description: `\`[start, end]\`, both included; default [0, ${this.meta.app.pageSize - 1}]`,
              content: json(tuple({ type: 'integer', minimum: 0 }, { type: 'integer', minimum: 0 })),
            },
            { name: 'filter', in: 'query', description: 'the conditions, all of which must hold', content: json(filterSchema(e, this.meta)) },
            {
              name: 'screen',
              in: 'query',
              description:
                'a list screen of this resource the caller may open: the rows carry only the fields that screen needs (a lean page); without it, every field',
              schema: { type: 'string', enum: [...this.meta.screens.filter((s) => s.kind === 'list' && s.resource === e.resource).map((s) => s.name), ''] },
            },
          ],
          responses: {
            '200': {
              description: 'the page',
              headers: { 'Content-Range': { schema: { type: 'string' }, description: `${e.resource} 0-499/1234` } },
              content: json({ type: 'array', items: ref(names.record) }),
            },
            ...errorResponses(400, 401, 403, 404),
          },
        };
      case key === 'GET /:id':
        return {
          tags,
          operationId: `${id}.get`,
          security: readSecurity,
          summary: `Get one ${label}`,
          parameters: [ID_PARAM],
          responses: { '200': { description: 'the record', content: json(ref(names.record)) }, ...errorResponses(401, 403, 404) },
        };
      case key === 'POST ':
        return {
          tags,
          operationId: `${id}.create`,
          security: write,
          summary: `Create a ${label}`,
          description: 'Read-only fields are set by the server (scope, session defaults, numbers); unknown fields are refused.',
          requestBody: { required: true, content: json(ref(names.create)) },
          responses: { '201': { description: 'the new record', content: json(ref(names.record)) }, ...errorResponses(400, 401, 403, 409, 429) },
        };
      case key === 'PUT /:id':
        return {
          tags,
          operationId: `${id}.update`,
          security: write,
          summary: `Update a ${label}`,
          description: `The whole record may be sent back: read-only fields unchanged are ignored, changed ones refused (validation.readOnly).${e.versioned ? ' `version` is required; a stale one is a 409 error.staleVersion.' : ''}`,
          parameters: [ID_PARAM],
          requestBody: { required: true, content: json(ref(names.update)) },
          responses: { '200': { description: 'the updated record', content: json(ref(names.record)) }, ...errorResponses(400, 401, 403, 404, 409, 429) },
        };
      case key === 'DELETE /:id':
        return {
          tags,
          operationId: `${id}.delete`,
          security: write,
          summary: `Delete a ${label}${e.softDelete ? ` (sets ${e.softDelete})` : ''}`,
          parameters: [ID_PARAM],
          responses: { '200': { description: 'the deleted record', content: json(ref(names.record)) }, ...errorResponses(401, 403, 404, 409, 429) },
        };
      case key === 'GET /export':
        return this.exportOperation(e, tags);
      case key === 'POST /upload' && !!e.file:
        return this.uploadOperation(e, names.record, tags);
      case key === 'GET /:id/download' && !!e.file:
        return {
          tags,
          operationId: `${id}.download`,
          security: write,
          summary: `Download the file of a ${label}`,
          parameters: [
            ID_PARAM,
            { name: 'inline', in: 'query', schema: { type: 'boolean' }, description: 'images and PDFs shown in the browser instead of saved' },
          ],
          responses: {
            '200': {
              description: 'the file, named in Content-Disposition',
              content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
            },
            ...errorResponses(401, 403, 404),
          },
        };
    }
    let am = /^POST \/:id\/actions\/([A-Za-z0-9]+)$/.exec(key);
    if (am && (a = e.actions[am[1]]) && !a.internal && !a.collection) return this.actionOperation(e, a, names, tags, false);
    am = /^POST \/actions\/([A-Za-z0-9]+)$/.exec(key);
    if (am && (a = e.actions[am[1]]) && !a.internal && (a.bulk || a.collection)) return this.actionOperation(e, a, names, tags, true);
    am = /^GET \/actions\/([A-Za-z0-9]+)\/template$/.exec(key);
    if (am && (a = e.actions[am[1]]) && a.upload?.template) {
      return {
        tags,
        operationId: `${id}.${a.name}.template`,
        security: write,
        summary: `The import template of "${this.label(a.labelKey)}": a header row of the creatable fields, in the caller's language`,
        responses: {
          '200': {
            description: 'an .xlsx workbook',
            content: {
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
                schema: { type: 'string', contentMediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
              },
            },
          },
          ...errorResponses(401, 403),
        },
      };
    }
    return null;
  }

  private actionOperation(e: CompiledEntity, a: CompiledAction, names: ReturnType<Builder['entity']>, tags: string[], many: boolean): Operation {
    const input = ref(names.input(a.name));
    const from = a.from && a.statusField ? this.codeLabels(e.fields[a.statusField].codeTable!, a.from) : null;
    const to = a.to && a.statusField ? this.codeLabels(e.fields[a.statusField].codeTable!, a.to) : null;
    const description = [
      from
        ? `From ${from}${to ? ` to ${to}${a.to!.length > 1 ? ' (the caller chooses with `target`)' : ''}` : ''}; in any other state a 409 ${a.illegalTransitionKey}.`
        : to
          ? `To ${to}.`
          : '',
      many
        ? a.collection
          ? 'On the collection (no records): `{ data: [], result, message }`.'
          : 'On the records of `ids`, all or nothing, in one transaction: `{ data: [records], message }`.'
        : 'On one record: the updated record, or a file (Content-Disposition).',
      a.upload ? `Takes one file as multipart part \`file\`, checked against rule "${a.upload.rule}", the inputs as the other parts.` : '',
      a.handler ? 'Business logic beyond the state change (server/handlers).' : '',
    ]
      .filter(Boolean)
      .join(' ');
    const content: Record<string, unknown> = a.upload
      ? {
          'multipart/form-data': {
            schema: { type: 'object', properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } }, required: ['file'] },
          },
          ...json(input),
        }
      : json(input);
    const ok = many
      ? {
          description: 'done',
          content: json({
            type: 'object',
            required: ['data', 'message'],
            properties: { data: { type: 'array', items: ref(names.record) }, result: {}, message: { type: 'string' } },
          }),
        }
      : {
          description: 'the updated record (or a file)',
          content: { ...json(ref(names.record)), 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
        };
    return {
      tags,
      operationId: `${e.name}.${a.name}${many ? '.bulk' : ''}`,
      security: [{ bearer: [] }],
      summary: `${this.label(a.labelKey)}${many && !a.collection ? ' (several records)' : ''}`,
      description,
      ...(many ? {} : { parameters: [ID_PARAM] }),
      // required when the input has a required field, carries the file, or names the records (ids)
      requestBody: {
        required: !!(this.schemas[e.name].actions[a.name]?.required as string[] | undefined)?.length || !!a.upload || (many && !a.collection),
        content,
      },
      responses: { '200': ok, ...errorResponses(400, 401, 403, 404, 409, 413, 429) },
    };
  }

  private codeLabels(table: string, codes: string[]): string {
    return codes.map((c) => `${c} (${this.meta.codeTables[table].values.find((v) => v.code === c)?.key ?? '?'})`).join(', ');
  }

  private uploadOperation(e: CompiledEntity, record: string, tags: string[]): Operation {
    const rule = this.meta.rules[e.file!.rule];
    const writable = this.schemas[e.name].create;
    return {
      tags,
      operationId: `${e.name}.upload`,
      security: [{ bearer: [] }],
      summary: `Upload a file as a new ${this.label(e.labelKey)}`,
      description: `Multipart: part \`file\` (${(rule.fileTypes ?? []).join(', ')}; name at most ${rule.maxNameLength} characters; at most ${rule.maxSizeKiB} KiB; the type is judged by content and name together) and the entity's writable fields as further parts. A file of the same name${e.file!.overwriteKey.length ? ` under the same ${e.file!.overwriteKey.join(', ')}` : ''} answers 409 error.fileExists unless overwrite=true.`,
      parameters: [{ name: 'overwrite', in: 'query', schema: { type: 'boolean' } }],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              ...writable,
              title: undefined,
              required: ['file'],
              properties: { ...(writable.properties as object), file: { type: 'string', contentMediaType: 'application/octet-stream' } },
            },
          },
        },
      },
      responses: { '201': { description: 'the new record', content: json(ref(record)) }, ...errorResponses(400, 401, 403, 409, 413, 429) },
    };
  }

  private exportOperation(e: CompiledEntity, tags: string[]): Operation {
    const screens = this.meta.screens.filter((s) => s.resource === e.resource && s.kind === 'list' && s.buttons.includes('export'));
    return {
      tags,
      operationId: `${e.name}.export`,
      security: [{ bearer: [] }],
      summary: `Export a list screen of ${this.label(e.labelKey)} as .xlsx`,
      description:
        "The screen's columns in order, labels in the caller's language; the rows of the list for the same filter and sort, plus the screen's fixed filter and tab. At most 1,000,000 rows; 4 exports at once.",
      parameters: [
        {
          name: 'screen',
          in: 'query',
          required: true,
          schema: { type: 'string', enum: screens.map((s) => s.name) },
          description: 'a list screen of this resource with the export button',
        },
        { name: 'filter', in: 'query', content: json(filterSchema(e, this.meta)) },
        {
          name: 'sort',
          in: 'query',
          content: json(tuple({ enum: sortFields(e) }, { enum: ['ASC', 'DESC'] })),
        },
        { name: 'tab', in: 'query', schema: { type: 'string' }, description: 'a tab key of the screen' },
        { name: 'tz', in: 'query', schema: { type: 'string' }, description: "IANA time zone of the date-times (default: the server's)" },
      ],
      responses: {
        '200': {
          description: 'a streamed workbook, named in Content-Disposition',
          content: {
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
              schema: { type: 'string', contentMediaType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
            },
          },
        },
        ...errorResponses(400, 401, 403, 404, 429),
      },
    };
  }

  /** A hand-written route: its fixed-routes.ts entry plus the request schemas the route validates with. */
  fixedOperation(route: RouteInfo, doc: FixedRouteDoc): Operation {
    const s = route.schema ?? {};
    const parameters: unknown[] = [];
    for (const [where, schema] of [
      ['query', s.querystring],
      ['path', s.params],
    ] as const) {
      const props = (schema as { properties?: Record<string, unknown>; required?: string[] } | undefined)?.properties ?? {};
      for (const [name, ps] of Object.entries(props))
        parameters.push({ name, in: where, required: where === 'path' || !!(schema as { required?: string[] }).required?.includes(name), schema: ps });
    }
    const mediaType = s.consumes?.[0] ?? doc.consumes ?? 'application/json';
    this.tags.set(doc.tag, { name: doc.tag, description: TAG_TEXT[doc.tag] ?? doc.tag });
    return {
      tags: [doc.tag],
      operationId: doc.operationId,
      security: doc.anonymous ? [] : doc.optionalAuth ? [{}, { bearer: [] }] : [{ bearer: [] }],
      summary: doc.summary,
      ...(doc.description ? { description: doc.description } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(s.body ? { requestBody: { required: true, content: { [mediaType]: { schema: s.body } } } } : doc.requestBody ? { requestBody: doc.requestBody } : {}),
      responses: { ...doc.responses, ...errorResponses(...(doc.errors ?? [])) },
    };
  }
}

const TAG_TEXT: Record<string, string> = {
  session: 'Login, logout and the session (the legacy calls of the spec, with their envelope `{ status, data }`)',
  account: "The caller's own account: user info, profile, password, two-step verification",
  metadata: 'The compiled metadata and this document',
  operations: 'For load balancers, supervisors and monitoring: liveness, readiness, Prometheus metrics (docs/operations.md)',
  interfaces: 'Inbound interfaces: what external systems (machine clients) post to the portal (metadata/interfaces.json "inbound")',
  home: "The caller's home page: work tiles, saved views, record history, notifications",
};

export function buildOpenApi(opts: {
  meta: CompiledMetadata;
  schemas: Record<string, EntitySchemas>;
  messages: Catalogues;
  routes: RouteInfo[];
}): OpenApiResult {
  const b = new Builder(opts.meta, opts.schemas, opts.messages);
  const paths: Record<string, Record<string, Operation>> = {};
  const undocumented: string[] = [];
  const refusedToAll: string[] = [];
  const fixed = fixedRouteDocs();
  const seen = new Set<string>();
  for (const r of opts.routes) {
    const method = r.method.toUpperCase();
    // HEAD answers of GET routes are Fastify's own (exposeHeadRoutes); OpenAPI lists the GET
    if (method === 'HEAD' || !isApiRoute(r.url)) continue;
    const key = `${method} ${r.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const op = fixed[key] ? b.fixedOperation(r, fixed[key]) : b.metadataOperation(method, r.url);
    if (!op) {
      undocumented.push(key);
      continue;
    }
    if (op === REFUSED_TO_ALL) {
      refusedToAll.push(key);
      continue;
    }
    (paths[openApiPath(r.url)] ??= {})[method.toLowerCase()] = op;
  }
  const sortedPaths = Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((p) => [p, paths[p]]),
  );
  const document: JsonSchema = {
    openapi: '3.1.0',
    info: {
      title: `${b.label(opts.meta.app.titleKey)} API`,
      version: opts.meta.hash,
      description: [
        'The API of the supplier portal, generated from its metadata: every resource, filter, sort, action, upload and export the server serves, with the JSON Schemas its validator uses. `info.version` is the hash of the metadata it was made from.',
        'Generic resources speak ra-data-simple-rest (`GET /api/<resource>?sort=&range=&filter=` with `Content-Range`); actions are `POST /api/<resource>/<id>/actions/<action>` and `POST /api/<resource>/actions/<action>` (`{ ids }`). Errors are `{ code, message, errors?, errorArgs? }`, `code` an i18n key; `Accept-Language` (zh-CN, en-US) chooses the language of `message`.',
        'Schema keywords of the portal\'s validator besides standard JSON Schema: `notBlank` (a required text is not only spaces), `maxBytes` (UTF-8 length), `maxDecimals` (digits after the point), `notBeforeToday` (a date not before the server\'s today); `$comment: "rule:<name>"` names the metadata rule behind the constraints next to it.',
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    tags: [...b.tags.values()].sort((x, y) => x.name.localeCompare(y.name)),
    paths: sortedPaths,
    components: b.components,
  };
  return { document, undocumented, refusedToAll };
}
