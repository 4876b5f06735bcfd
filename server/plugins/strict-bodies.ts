/**
 * Request bodies are validated with exact types (issue 25 point 6). Fastify's own Ajv coerces
 * types ('array': `{"token": ["abc"]}` passed as the string "abc", `{"username": 123}` as "123"),
 * which a query string needs (every value arrives as text) but a JSON or form body does not: a
 * body with a wrong type is refused with 400 before any handler sees it.
 *
 * One Ajv per part: bodies without coercion, querystring, params and headers with Fastify's
 * coercion, otherwise the options Fastify uses (defaults filled in, additional properties kept,
 * ajv-formats).
 */
import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const COMMON: Options = { removeAdditional: false, useDefaults: true, allErrors: false, addUsedSchema: false };

function ajvWith(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({ ...COMMON, coerceTypes });
  addFormats(ajv);
  return ajv;
}

/** The validator compiler of every route: strict bodies, coerced query strings, params and headers. */
export function strictBodyCompiler(): FastifySchemaCompiler<unknown> {
  const strict = ajvWith(false);
  const coercing = ajvWith('array');
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object);
}
