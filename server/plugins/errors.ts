/**
 * The one error handler. A client gets { code, message, errors?, errorArgs? } where code is an
 * i18n key and message its translation in the caller's language. 5xx answers carry a generic
 * message and an error id that is also in the log; a stack, SQL text or driver message never leaves.
 */
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type MessageArgs } from '../engine/errors.ts';
import { translate } from '../engine/i18n.ts';
import type { FieldErrors } from '../../codegen/runtime/validation.ts';
import { dbErrorKind } from '../db/types.ts';

export interface ErrorBody {
  code: string;
  message: string;
  errors?: Record<string, string>;
  errorArgs?: Record<string, Record<string, string | number>>;
  errorId?: string;
}

export function errorBody(req: FastifyRequest, code: string, args: MessageArgs = {}, fieldErrors?: FieldErrors, messageKey = code): ErrorBody {
  const body: ErrorBody = { code, message: translate(req.locale, messageKey, args) };
  if (fieldErrors && Object.keys(fieldErrors).length) {
    body.errors = Object.fromEntries(Object.entries(fieldErrors).map(([f, e]) => [f, e.key]));
    const withArgs = Object.entries(fieldErrors).filter(([, e]) => e.args);
    if (withArgs.length) body.errorArgs = Object.fromEntries(withArgs.map(([f, e]) => [f, e.args!]));
  }
  return body;
}

/** Maps framework errors (body parsing, limits, rate limit) to our codes. */
function frameworkCode(err: FastifyError): { status: number; code: string } | null {
  const status = err.statusCode ?? 500;
  if (
    status === 413 ||
    err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ||
    err.code === 'FST_REQ_FILE_TOO_LARGE' ||
    err.code === 'FST_PARTS_LIMIT' ||
    err.code === 'FST_FILES_LIMIT' ||
    err.code === 'FST_FIELDS_LIMIT'
  )
    return { status: 413, code: 'error.payloadTooLarge' };
  if (status === 429) return { status: 429, code: 'error.rateLimited' };
  if (status === 415) return { status: 415, code: 'error.badRequest' };
  if (status >= 400 && status < 500) return { status, code: status === 404 ? 'error.notFound' : status === 401 ? 'error.unauthorized' : 'error.badRequest' };
  return null;
}

export default fp(
  async (app) => {
    app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', 'no-store');
      if (err instanceof AppError) {
        // refused authentication and authorisation are logged (ASVS 16.3.1, 16.3.2)
        if (err.statusCode === 401 || err.statusCode === 403)
          req.log.warn({ event: 'denied', code: err.code, userId: req.principal?.userId, method: req.method, url: req.url.split('?')[0] }, 'access denied');
        return reply.status(err.statusCode).send(errorBody(req, err.code, err.args, err.fieldErrors, err.messageKey));
      }
      // a value the database refused (PostgreSQL: out of range, NUL byte, bad date) is bad input; a
      // unique index that refused a value two processes wrote at once is a duplicate
      const db = dbErrorKind(err);
      if (db === 'badValue' || db === 'unique') {
        req.log.info({ dbCode: (err as { code?: string }).code }, 'request refused by the database');
        return reply.status(db === 'unique' ? 409 : 400).send(errorBody(req, db === 'unique' ? 'error.duplicate' : 'error.badRequest'));
      }
      const mapped = frameworkCode(err);
      if (mapped) {
        req.log.info({ code: err.code, status: mapped.status }, 'request refused');
        return reply.status(mapped.status).send(errorBody(req, mapped.code));
      }
      const errorId = randomUUID();
      req.log.error({ err, errorId }, 'unhandled error');
      return reply.status(500).send({ ...errorBody(req, 'error.internal'), errorId });
    });
    app.setNotFoundHandler((req, reply) => {
      // client-side routes of the admin (served by routes/admin-static.ts) get its index.html
      if (app.hasDecorator('adminIndex') && app.adminIndex && req.method === 'GET' && !/^\/(api|connect|supplierApi)(\/|\?|$)/.test(req.url)) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      reply.header('cache-control', 'no-store');
      return reply.status(404).send(errorBody(req, 'error.notFound'));
    });
  },
  { name: 'errors' },
);
