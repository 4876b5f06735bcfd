/**
 * Inbound messages in the interface log (entity interfaceMessage, direction inbound), beside the
 * outbound ones and under the same access rules: who sent it, its key, payload and result, and the
 * reasons of a refusal. Written in the batch's transaction: an accepted message's row inside its
 * savepoint (the log never shows a change that was rolled back), a refused one's after its rollback.
 */
import { randomUUID } from 'node:crypto';
import type { CompiledInbound, CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { Queryable } from '../db/types.ts';
import type { ClientPrincipal } from '../auth/client-credentials.ts';
import { outboxStore } from '../outbox/emit.ts';
import type { AcceptedAnswer, InboundMessage, RefusedAnswer } from './apply.ts';

const codeOf = (meta: CompiledMetadata, table: string, key: string): string => {
  const v = meta.codeTables[table]?.values.find((x) => x.key === key);
  if (!v) throw new Error(`inbound log: code table ${table} has no key ${key} (codegen checks this)`);
  return v.code;
};

export async function logInbound(
  q: Queryable,
  meta: CompiledMetadata,
  m: {
    decl: CompiledInbound;
    client: ClientPrincipal;
    msg: InboundMessage;
    now: string;
    answer: AcceptedAnswer | RefusedAnswer;
    recordId: number | null;
    reference: string;
  },
): Promise<void> {
  const s = outboxStore(meta);
  const e = meta.entities[m.decl.entity];
  const accepted = m.answer.result === 'accepted';
  const refusal = m.answer.result === 'refused' ? { code: m.answer.code, args: m.answer.args, fieldErrors: m.answer.fieldErrors } : null;
  await s.insert(q, s.message, {
    interfaceCode: m.decl.code,
    direction: codeOf(meta, 'interfaceDirection', 'inbound'),
    sender: s.fit(s.message, 'sender', m.client.clientId),
    senderKey: s.fit(s.message, 'senderKey', m.msg.idempotencyKey),
    messageType: `${e.name}.${m.msg.action && m.msg.action !== 'upsert' ? m.msg.action : 'upsert'}`,
    reference: s.fit(s.message, 'reference', m.reference),
    resource: e.resource,
    recordId: m.recordId,
    // the log's own key (unique); the sender's is senderKey
    idempotencyKey: randomUUID(),
    payload: JSON.stringify(m.msg.payload),
    status: codeOf(meta, 'interfaceMessageStatus', accepted ? 'accepted' : 'refused'),
    attempts: 0,
    lastError: refusal ? s.fit(s.message, 'lastError', JSON.stringify(refusal)) : null,
    lastAnswer: JSON.stringify(m.answer),
    createdAt: m.now,
    createdBy: m.client.clientId,
    updatedAt: m.now,
    updatedBy: m.client.clientId,
  });
}
