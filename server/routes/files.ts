/**
 * Upload and download for every file entity (metadata: "file": { "rule": ... }).
 *   POST /api/<resource>/upload[?overwrite=true]   multipart: the entity's writable fields + one part "file"
 *   GET  /api/<resource>/<id>/download
 * A file is checked against its rule from metadata/rules: not empty, name length, size, and type by
 * its content (magic bytes) and name together. The client's name and MIME type are never trusted.
 */
import type { FastifyInstance } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import type { CompiledRule } from '../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import type { Engine } from '../engine/engine.ts';
import { AppError, badRequest, fileNameTooLong, fileTypeRefused } from '../engine/errors.ts';
import { contentDisposition, responseSchema } from './resources.ts';
import { fieldOf } from '../engine/records.ts';
import { readMultipart } from './multipart.ts';
import { SINGLE_LINE_RULE } from '../../codegen/runtime/field-schema.ts';

/** extension -> what the content must look like (file-type's extension names) */
const CONTENT_OF: Record<string, { detected: string[]; mime: string }> = {
  pdf: { detected: ['pdf'], mime: 'application/pdf' },
  png: { detected: ['png'], mime: 'image/png' },
  jpg: { detected: ['jpg'], mime: 'image/jpeg' },
  jpeg: { detected: ['jpg'], mime: 'image/jpeg' },
  zip: { detected: ['zip'], mime: 'application/zip' },
  xlsx: { detected: ['xlsx'], mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  docx: { detected: ['docx'], mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xls: { detected: ['cfb', 'xls'], mime: 'application/vnd.ms-excel' },
  doc: { detected: ['cfb', 'doc'], mime: 'application/msword' },
};

/** Keeps the last path segment and drops control characters: "..\\..\\a.pdf" -> "a.pdf". */
export function cleanFileName(raw: string): string {
  const last = raw.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  return last.replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

/** The engine's single-line rule (metadata/rules/text.json): no control characters, no bidirectional overrides. */
const singleLine = new RegExp(metadata.rules[SINGLE_LINE_RULE].pattern!, 'u');

export async function checkFile(rule: CompiledRule, rawName: string, data: Buffer): Promise<{ fileName: string; mimeType: string }> {
  // a name that could fool a reader (x<U+202E>lmth.jpg shows as "xgpj.html") is refused, not cleaned
  if (!singleLine.test(rawName)) throw badRequest('error.fileNameCharacters');
  const fileName = cleanFileName(rawName);
  if (!fileName || fileName === '.' || fileName === '..') throw fileTypeRefused(rule);
  if (data.length === 0) throw badRequest('error.fileEmpty');
  if (rule.maxNameLength && [...fileName].length > rule.maxNameLength) throw fileNameTooLong(rule);
  if (rule.maxSizeKiB && data.length > rule.maxSizeKiB * 1024) throw new AppError(413, 'error.fileTooLarge', { max: rule.maxSizeKiB });
  const ext = (/\.([A-Za-z0-9]+)$/.exec(fileName)?.[1] ?? '').toLowerCase();
  const allowed = (rule.fileTypes ?? []).flatMap((t) => (t === 'jpg' ? ['jpg', 'jpeg'] : [t]));
  const expect = CONTENT_OF[ext];
  if (!allowed.includes(ext) || !expect) throw fileTypeRefused(rule);
  const detected = await fileTypeFromBuffer(data);
  if (!detected || !expect.detected.includes(detected.ext)) throw fileTypeRefused(rule);
  return { fileName, mimeType: expect.mime };
}

export default async function fileRoutes(app: FastifyInstance, opts: { engine: Engine }) {
  const { engine } = opts;
  for (const e of Object.values(metadata.entities)) {
    if (!e.file) continue;
    const rule = metadata.rules[e.file.rule];
    const base = `/api/${e.resource}`;
    app.post(
      `${base}/upload`,
      {
        preHandler: [app.authenticate(), app.writeLimit],
        schema: { querystring: { type: 'object', properties: { overwrite: { type: 'boolean' } } }, response: { 201: responseSchema(e) } },
      },
      async (req, reply) => {
        // who may not upload here learns so before the body is read
        engine.assertMayCreate(req.principal!, e);
        const { fields, file } = await readMultipart(req, rule, (n) => fieldOf(e, n));
        if (!file) throw badRequest('error.fileEmpty');
        const checked = await checkFile(rule, file.name, file.data);
        const overwrite = (req.query as { overwrite?: boolean }).overwrite === true;
        const storageName = await app.fileStore.save(file.data);
        try {
          const { record, replaced } = await engine.recordFile(req.principal!, e, fields, { ...checked, fileSize: file.data.length }, storageName, overwrite);
          if (replaced) await app.fileStore.remove(replaced);
          return reply.status(201).send(record);
        } catch (err) {
          await app.fileStore.remove(storageName);
          throw err;
        }
      },
    );
    app.get(
      `${base}/:id/download`,
      {
        preHandler: app.authenticate(),
        schema: {
          params: { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1 } } },
          querystring: { type: 'object', properties: { inline: { type: 'boolean' } } },
        },
      },
      async (req, reply) => {
        const f = await engine.fileOf(req.principal!, e, (req.params as { id: number }).id);
        const data = await app.fileStore.read(f.storageName);
        const inline = (req.query as { inline?: boolean }).inline === true && /^(image\/|application\/pdf)/.test(f.mimeType);
        return reply
          .header('content-type', f.mimeType)
          .header('content-disposition', contentDisposition(f.fileName, inline))
          .header('x-content-type-options', 'nosniff')
          .send(data);
      },
    );
  }
}
