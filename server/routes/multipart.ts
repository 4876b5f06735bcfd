/**
 * Reading a multipart form (uploads, actions that take a file) the same way everywhere: at most
 * one part named "file" under the file rule's size limit, text fields converted by the declared
 * type of the field they name, and a body that is not well-formed multipart (no or wrong boundary,
 * an early end) answered as 400 error.badRequest: the parser's own error never reaches the client
 * as a 500. Callers check the caller's permission BEFORE reading the body.
 */
import type { FastifyRequest } from 'fastify';
import type { CompiledField, CompiledRule } from '../../codegen/runtime/model.ts';
import { AppError, badRequest } from '../engine/errors.ts';

export interface MultipartForm {
  fields: Record<string, unknown>;
  file: { name: string; data: Buffer } | null;
}

/** A text part as the field's declared type: multipart carries text only. */
function typed(f: CompiledField | undefined, v: string): unknown {
  if (f?.type === 'integer' || f?.type === 'ref' || f?.type === 'decimal') return v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
  if (f?.type === 'boolean') return v === 'true';
  return v;
}

export async function readMultipart(req: FastifyRequest, rule: CompiledRule, fieldOf: (name: string) => CompiledField | undefined): Promise<MultipartForm> {
  if (!req.isMultipart()) throw badRequest('error.badRequest');
  const form: MultipartForm = { fields: {}, file: null };
  try {
    for await (const part of req.parts({ limits: { fileSize: (rule.maxSizeKiB ?? 1024) * 1024 + 1, files: 1, fields: 20, fieldSize: 2000, parts: 25 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || form.file) throw badRequest('error.badRequest');
        const data = await part.toBuffer();
        if (part.file.truncated) throw new AppError(413, 'error.fileTooLarge', { max: rule.maxSizeKiB ?? 0 });
        form.file = { name: part.filename, data };
      } else {
        form.fields[part.fieldname] = typed(fieldOf(part.fieldname), String(part.value));
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    // a file over the rule's size: the message names the limit (not a bare "too large")
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'error.fileTooLarge', { max: rule.maxSizeKiB ?? 0 });
    // the plugin's own limits keep their status (413 too many parts, ...); anything else is a body that is not multipart
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500 && status !== 406) throw err;
    req.log.info({ err: (err as Error).message }, 'malformed multipart body');
    throw badRequest('error.badRequest');
  }
  return form;
}
