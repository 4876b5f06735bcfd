/**
 * Inbound messages in the interface log (entity interfaceMessage, direction inbound), beside the
 * outbound ones and under the same access rules: who sent it, its key, payload and result, and the
 * reasons of a refusal. A batch's rows are written together at its end, in its transaction (one
 * multi-row insert instead of a statement per message): an accepted message's row only once its
 * savepoint was released (the log never shows a change that was rolled back).
 */
import { randomUUID } from 'node:crypto';
import type { CompiledInbound, CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { Db, Queryable } from '../db/types.ts';
import type { ClientPrincipal } from '../auth/client-credentials.ts';
import { outboxStore } from '../outbox/emit.ts';
import type { AcceptedAnswer, InboundMessage, RefusedAnswer } from './apply.ts';

const codeOf = (meta: CompiledMetadata, table: string, key: string): string => {
  const v = meta.codeTables[table]?.values.find((x) => x.key === key);
  if (!v) throw new Error(`inbound log: code table ${table} has no key ${key} (codegen checks this)`);
  return v.code;
};

type Rec = Record<string, unknown>;

/** The log row of one message (by field name); writeInboundLog stores a batch's rows at once. */
export function inboundLogRow(
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
): Rec {
  const s = outboxStore(meta);
  const e = meta.entities[m.decl.entity];
  const accepted = m.answer.result === 'accepted';
  const refusal = m.answer.result === 'refused' ? { code: m.answer.code, args: m.answer.args, fieldErrors: m.answer.fieldErrors } : null;
  return {
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
  };
}

/** A batch's log rows in one multi-row insert (every row has the same fields: inboundLogRow). */
export async function writeInboundLog(db: Db, q: Queryable, meta: CompiledMetadata, rows: Rec[]): Promise<void> {
  if (!rows.length) return;
  const e = outboxStore(meta).message;
  const names = Object.keys(rows[0]);
  await db.insertMany(
    e.table,
    names.map((n) => e.fields[n].column),
    rows.map((r) => names.map((n) => r[n])),
    q,
  );
}
