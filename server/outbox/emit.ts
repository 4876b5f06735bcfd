/**
 * Writes outbox messages for a successful action, inside the action's own transaction
 * (Engine.action calls it after the handler or the transition): a rolled-back action leaves no
 * message, a committed one always has its messages. Which actions write which messages is
 * metadata (metadata/interfaces.json, compiled into meta.outbox.emitters): one message per record
 * and declared interface, carrying the declared fields of the record as it is after the action,
 * plus declared child rows. Nothing here names an entity.
 */
import { randomUUID } from 'node:crypto';
import type { CompiledAction, CompiledEntity, CompiledInterfaceMessage, CompiledMetadata } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { Queryable } from '../db/types.ts';
import type { Principal } from '../engine/principal.ts';
import { toRecord } from '../engine/records.ts';
import { OutboxStore } from './store.ts';

type Rec = Record<string, unknown>;

const stores = new WeakMap<CompiledMetadata, OutboxStore>();
export function outboxStore(meta: CompiledMetadata): OutboxStore {
  let s = stores.get(meta);
  if (!s) {
    s = new OutboxStore(meta);
    stores.set(meta, s);
  }
  return s;
}

/** The business reference people search the log by: the declared fields joined with '/'. */
export const referenceOf = (m: CompiledInterfaceMessage, record: Rec): string =>
  m.reference.map((f) => (record[f] === null || record[f] === undefined ? '' : String(record[f]))).join('/');

/** The payload: the declared fields of the record (stored codes, as the record has them) and the declared child rows. */
export async function payloadOf(q: Queryable, meta: CompiledMetadata, m: CompiledInterfaceMessage, record: Rec): Promise<Rec> {
  const out: Rec = {};
  for (const f of m.fields) out[f] = record[f] ?? null;
  for (const c of m.children) {
    const ce = meta.entities[c.entity];
    const cols = c.fields.map((f) => `${quote(ce.fields[f].column)} AS ${quote(f)}`).join(', ');
    const rows = await q.all<Rec>(`SELECT ${cols} FROM ${quote(ce.table)} WHERE ${quote(ce.fields[c.parentField].column)} = ? ORDER BY ${quote('id')}`, [
      record.id,
    ]);
    out[c.name] = rows.map((r) => toRecord(ce, r));
  }
  return out;
}

/** Writes the messages `action` declares for each of `records`; returns how many. */
export async function emitMessages(
  q: Queryable,
  meta: CompiledMetadata,
  e: CompiledEntity,
  a: CompiledAction,
  records: Rec[],
  p: Principal,
  now: string,
): Promise<number> {
  const declared = meta.outbox?.emitters[`${e.name}.${a.name}`];
  if (!declared?.length || !records.length) return 0;
  const s = outboxStore(meta);
  let n = 0;
  for (const record of records) {
    for (const { interfaceCode, message } of declared) {
      const payload = await payloadOf(q, meta, message, record);
      await s.insert(q, s.message, {
        interfaceCode,
        messageType: message.type,
        reference: s.fit(s.message, 'reference', referenceOf(message, record)),
        resource: e.resource,
        recordId: Number(record.id),
        idempotencyKey: randomUUID(),
        payload: JSON.stringify(payload),
        status: s.status.pending,
        attempts: 0,
        nextAttemptAt: now,
        nextSendMode: s.mode.automatic,
        createdAt: now,
        createdBy: p.userId,
        updatedAt: now,
        updatedBy: p.userId,
      });
      n++;
    }
  }
  return n;
}
