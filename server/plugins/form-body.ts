/**
 * Form-encoded bodies (`application/x-www-form-urlencoded`: the token call), parsed without another
 * dependency. A field given twice is refused with 400 `error.badRequest` before any route reads it:
 * `password=wrong&password=<right>` logged in, the last value winning (issue 37 point 3), and RFC
 * 6749 (3.2) says a parameter must not be sent more than once. JSON bodies refuse the same trick by
 * their schemas (a string field given an array).
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../engine/errors.ts';

/** the largest form body taken: the token call's fields are a few hundred bytes */
export const FORM_BODY_LIMIT = 16 * 1024;

/** The fields of a form body, or null when one of them is given more than once. */
export function parseFormBody(text: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(out, name)) return null;
    out[name] = value;
  }
  return out;
}

export function formBodies(app: FastifyInstance): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
    const fields = parseFormBody(body as string);
    if (!fields) return done(new AppError(400, 'error.badRequest'), undefined);
    return done(null, fields);
  });
}
