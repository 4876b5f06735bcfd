/**
 * POST /api/interfaces/<CODE>: one contract for every inbound interface (metadata/interfaces.json
 * "inbound"). A machine client (server/auth/client-credentials.ts) posts a batch
 * `{ messages: [{ idempotencyKey, action?, payload }] }` of at most the interface's batch limit (a
 * larger batch is refused whole: 413 naming the limit); each message is applied in its own
 * transaction or refused with reasons (server/inbound/apply.ts), and the answer lists one result per
 * message in the order sent, so the sender retries only what failed:
 *   accepted  { idempotencyKey, result, operation: created | updated | unchanged | <action>, id, reference }
 *   duplicate { idempotencyKey, result, first: <the accepted answer of the first time> }
 *   refused   { idempotencyKey, result, status, code, message, errors?, errorArgs? }
 * Messages of one batch run one after the other; batches from several connections run in parallel.
 */
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../engine/engine.ts';
import { AppError, notFound, validationFailed } from '../engine/errors.ts';
import { errorBody } from '../plugins/errors.ts';
import { assertGranted, authenticateClient, clientActor } from '../auth/client-credentials.ts';
import { InboundApplier, type InboundMessage } from './apply.ts';

export const INBOUND_ROUTE = '/api/interfaces/:code';

export default async function inboundRoutes(app: FastifyInstance, opts: { engine: Engine }) {
  const { engine } = opts;
  const meta = engine.meta;
  const applier = new InboundApplier(engine, meta);
  app.decorateRequest('client', null);

  app.post(
    INBOUND_ROUTE,
    // a batch of 150 messages with child rows is larger than a screen's body
    {
      preHandler: authenticateClient(app, engine.db),
      bodyLimit: 4 * 1024 * 1024,
      schema: { params: { type: 'object', properties: { code: { type: 'string', maxLength: 20, description: 'an inbound interface code (INTF0002, ...)' } } } },
    },
    async (req) => {
      const client = req.client!;
      const code = (req.params as { code: string }).code;
      const decl = meta.outbox?.inbound[code];
      if (!decl) throw notFound();
      assertGranted(client, code);
      const body = req.body as { messages?: unknown } | undefined;
      // the limit first: a batch over it is refused whole, whatever its messages say
      if (body && Array.isArray(body.messages) && body.messages.length > decl.batchLimit)
        throw new AppError(413, 'error.batchTooLarge', { max: decl.batchLimit });
      const invalid = engine.validator.validate(decl.requestSchema, body ?? null);
      if (invalid) throw validationFailed(invalid);
      const messages = (body as { messages: InboundMessage[] }).messages;
      for (const m of messages)
        if (m.action && m.action !== 'upsert' && !decl.actions.includes(m.action)) throw validationFailed({ messages: { key: 'validation.invalid' } });
      const actor = clientActor(client, req.locale);
      const results: Record<string, unknown>[] = [];
      const counts = { accepted: 0, duplicate: 0, refused: 0 };
      for (const a of await applier.applyBatch(decl, client, actor, messages)) {
        counts[a.result]++;
        if (a.result === 'refused') {
          const { fieldErrors, args, ...rest } = a;
          results.push({ ...rest, ...errorBody(req, a.code, args, fieldErrors) });
        } else results.push({ ...a });
      }
      req.log.info({ event: 'inbound', interface: code, clientId: client.clientId, ...counts }, 'inbound batch');
      return { interface: code, ...counts, results };
    },
  );
}
