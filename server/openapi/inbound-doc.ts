/**
 * The OpenAPI description of POST /api/interfaces/{code} (server/inbound/routes.ts): one route for
 * every inbound interface, so its request body is a oneOf of each interface's request schema, with
 * the payload schema codegen emitted from metadata/interfaces.json ("inbound") in place.
 */
import { metadata } from '../generated/index.ts';
import type { FixedRouteDoc } from './fixed-routes.ts';

const json = (schema: unknown) => ({ 'application/json': { schema } });

const refusal = {
  type: 'object',
  required: ['idempotencyKey', 'result', 'status', 'code', 'message'],
  properties: {
    idempotencyKey: { type: 'string' },
    result: { const: 'refused' },
    status: {
      type: 'integer',
      description: '400 invalid values, 409 the record is in a state the interface may not change (error.inboundStateLocked) or a transition it does not allow',
    },
    code: { type: 'string', description: 'i18n key' },
    message: { type: 'string' },
    errors: { type: 'object', additionalProperties: { type: 'string' }, description: 'field -> i18n key' },
    errorArgs: { type: 'object', additionalProperties: { type: 'object' } },
  },
};
const accepted = {
  type: 'object',
  required: ['idempotencyKey', 'result', 'operation', 'id', 'reference'],
  properties: {
    idempotencyKey: { type: 'string' },
    result: { const: 'accepted' },
    operation: { type: 'string', description: 'created, updated, unchanged, or the declared action (cancel)' },
    id: { type: 'integer' },
    reference: { type: 'string', description: 'the business key joined with /' },
  },
};
const duplicate = {
  type: 'object',
  required: ['idempotencyKey', 'result', 'first'],
  properties: { idempotencyKey: { type: 'string' }, result: { const: 'duplicate' }, first: accepted },
};

export function inboundRouteDoc(): FixedRouteDoc {
  const inbound = metadata.outbox?.inbound ?? {};
  const list = Object.values(inbound)
    .map(
      (i) =>
        `\`${i.code}\` ${i.entity} by ${i.businessKey.join(' + ')}, at most ${i.batchLimit} messages${i.actions.length ? `, actions: ${i.actions.join(', ')}` : ''}`,
    )
    .join('; ');
  return {
    tag: 'interfaces',
    operationId: 'interfaces.inbound',
    summary: 'Inbound interface: a batch of messages from a machine client',
    description: `Machine clients only (a token of \`grant_type=client_credentials\` on /connect/token; a person's token is 403 error.clientOnly). Each message creates or updates the record its business key names (only declared fields, only in declared states) or runs a declared action; it is applied whole (a savepoint of its own in the batch's transaction) or refused with reasons and rolled back. A repeated idempotency key is answered from its first answer and changes nothing. Interfaces: ${list}.`,
    requestBody: {
      required: true,
      content: json({
        oneOf: Object.values(inbound).map((i) => {
          const r = i.requestSchema as { properties: { messages: { items: { properties: Record<string, unknown> } } } };
          const messages = r.properties.messages;
          return {
            ...r,
            title: i.code,
            properties: {
              messages: {
                ...messages,
                maxItems: i.batchLimit,
                items: { ...messages.items, properties: { ...messages.items.properties, payload: i.payloadSchema } },
              },
            },
          };
        }),
      }),
    },
    responses: {
      '200': {
        description: 'one result per message, in the order sent',
        content: json({
          type: 'object',
          properties: {
            interface: { type: 'string' },
            accepted: { type: 'integer' },
            duplicate: { type: 'integer' },
            refused: { type: 'integer' },
            results: { type: 'array', items: { oneOf: [accepted, duplicate, refusal] } },
          },
        }),
      },
    },
    errors: [400, 401, 403, 404, 413],
  };
}
