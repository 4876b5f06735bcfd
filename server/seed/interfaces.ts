/**
 * The interface log's demo history: for every message metadata/interfaces.json declares, some
 * records of that entity in a state the action leads to (shipped lines, agreed settlements,
 * answered claims) get the message the action would have written, with the same payload and
 * reference (server/outbox/emit.ts builds both), and a history of attempts: delivered (some after
 * failed tries), still retrying, or failed for good after the last automatic attempt. Times come
 * from the seed's base date; idempotency keys from the seed. Every one is marked `demo`: the
 * dispatcher never sends it, even once the operator configures a real endpoint (without one, it
 * marks the waiting ones "no endpoint configured" on its first pass).
 */
import { createHash } from 'node:crypto';
import { quote } from '../../codegen/runtime/dialect.ts';
import { OUTBOX_ATTEMPT_ENTITY, OUTBOX_MESSAGE_ENTITY } from '../../codegen/runtime/model.ts';
import { selectList, toRecord } from '../engine/records.ts';
import { outboxStore, payloadOf, referenceOf } from '../outbox/emit.ts';
import { STAFF, quota, supplierUser, type SeedContext } from './context.ts';

/** The entities this module fills. */
export const INTERFACE_ENTITIES = [OUTBOX_MESSAGE_ENTITY, OUTBOX_ATTEMPT_ENTITY] as const;

/** messages per declared message kind at scale 1 (and at most MAX_PER_KIND at any scale) */
export const MESSAGES_PER_KIND = 12;
const MAX_PER_KIND = 2000;
/** the process name the demo attempts carry */
export const SEED_SENDER = 'portal-1:4711';

const FAILURES = [
  { httpStatus: 503, error: 'HTTP 503 Service Unavailable', answer: '{"error":"maintenance window"}' },
  { httpStatus: 500, error: 'HTTP 500 Internal Server Error', answer: '{"error":"internal error, reference 7f3a"}' },
  { httpStatus: null, error: 'timeout: no complete answer within 30 s', answer: '' },
  { httpStatus: null, error: 'connection failed (ECONNREFUSED)', answer: '' },
] as const;

/** A UUID-shaped key derived from the seed: the same seed gives the same keys. */
const keyOf = (seed: number, n: number): string => {
  const h = createHash('sha256').update(`${seed}:interfaceMessage:${n}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export async function seedInterfaceMessages(ctx: SeedContext): Promise<void> {
  const meta = ctx.meta;
  if (!meta.outbox) return;
  const s = outboxStore(meta);
  const db = ctx.w.db;
  const r = ctx.rng(OUTBOX_MESSAGE_ENTITY);
  const { maxAttempts, backoffSeconds } = meta.outbox.delivery;
  const msg = ctx.w.inserter(OUTBOX_MESSAGE_ENTITY, [
    'interfaceCode',
    'messageType',
    'reference',
    'resource',
    'recordId',
    'idempotencyKey',
    'payload',
    'status',
    'attempts',
    'nextAttemptAt',
    'nextSendMode',
    'lastAttemptAt',
    'lastResult',
    'lastMode',
    'lastHttpStatus',
    'lastError',
    'lastAnswer',
    'sentAt',
    'createdAt',
    'createdBy',
    'updatedAt',
    'updatedBy',
    'demo',
  ]);
  const attempt = ctx.w.inserter(OUTBOX_ATTEMPT_ENTITY, [
    'messageId',
    'attemptNo',
    'at',
    'mode',
    'result',
    'httpStatus',
    'error',
    'answer',
    'durationMs',
    'batchSize',
    'sender',
  ]);
  let n = 0;
  await ctx.withoutIndexes([OUTBOX_MESSAGE_ENTITY, OUTBOX_ATTEMPT_ENTITY], () =>
    ctx.batched(async (tick) => {
      for (const itf of Object.values(meta.outbox!.interfaces)) {
        for (const m of itf.messages) {
          const e = meta.entities[m.entity];
          const a = e.actions[m.action];
          // records the action has been applied to: in one of the states it leads to
          const where = a.statusField && a.to ? ` WHERE a.${quote(e.fields[a.statusField].column)} IN (${a.to.map(() => '?').join(', ')})` : '';
          const records = (
            await db.all<Record<string, unknown>>(`SELECT ${selectList(e)} FROM ${quote(e.table)} a${where} ORDER BY a.${quote('id')} LIMIT ?`, [
              ...(a.to ?? []),
              Math.min(MAX_PER_KIND, ctx.count(MESSAGES_PER_KIND)),
            ])
          ).map((x) => toRecord(e, x));
          const fates = quota(r, records.length, [60, 25, 15]);
          for (const [i, record] of records.entries()) {
            const fate = (['sent', 'retrying', 'failed'] as const)[fates[i]];
            const created = -r.int(0, 40);
            const createdAt = ctx.at(created, ctx.workMinute(r), r.int(0, 59));
            let t = Date.parse(createdAt) + r.int(1, 5) * 1000;
            const failures = fate === 'sent' ? (r.chance(0.3) ? r.int(1, 2) : 0) : fate === 'failed' ? maxAttempts : r.int(1, 3);
            const manual = fate === 'sent' && failures > 0 && r.chance(0.3);
            const tries: { at: string; ok: boolean; f: (typeof FAILURES)[number]; mode: string }[] = [];
            for (let k = 0; k < failures; k++) {
              tries.push({ at: new Date(t).toISOString(), ok: false, f: r.pick(FAILURES), mode: s.mode.automatic });
              t += backoffSeconds * 1000 * 2 ** k + r.int(0, 20_000);
            }
            if (fate === 'sent') tries.push({ at: new Date(t).toISOString(), ok: true, f: FAILURES[0], mode: manual ? s.mode.manual : s.mode.automatic });
            const last = tries[tries.length - 1];
            const okAnswer = JSON.stringify({ accepted: 1, results: [{ ok: true }] });
            const id = msg({
              interfaceCode: itf.code,
              messageType: m.type,
              reference: s.fit(s.message, 'reference', referenceOf(m, record)),
              resource: e.resource,
              recordId: Number(record.id),
              idempotencyKey: keyOf(ctx.seed, n++),
              payload: JSON.stringify(await payloadOf(db, meta, m, record)),
              status: fate === 'sent' ? s.status.sent : fate === 'failed' ? s.status.failed : s.status.pending,
              attempts: tries.length,
              // a message still retrying is due again after its backoff (on the seed's calendar: the demo sends it at once)
              nextAttemptAt: fate === 'retrying' ? new Date(t).toISOString() : null,
              nextSendMode: s.mode.automatic,
              lastAttemptAt: last.at,
              lastResult: last.ok ? s.result.success : s.result.fail,
              lastMode: last.mode,
              lastHttpStatus: last.ok ? 200 : last.f.httpStatus,
              lastError: last.ok ? null : last.f.error,
              lastAnswer: last.ok ? okAnswer : last.f.answer,
              sentAt: last.ok ? last.at : null,
              createdAt,
              createdBy: a.allow.internal ? STAFF.userId : (supplierUser(String(e.scope.supplierFields.map((f) => record[f]).find(Boolean)))?.userId ?? null),
              updatedAt: last.at,
              updatedBy: 'outbox',
              // never dispatched (server/outbox/dispatcher.ts): demo data does not leave the machine
              demo: true,
            });
            tries.forEach((x, k) =>
              attempt({
                messageId: id,
                attemptNo: k + 1,
                at: x.at,
                mode: x.mode,
                result: x.ok ? s.result.success : s.result.fail,
                httpStatus: x.ok ? 200 : x.f.httpStatus,
                error: x.ok ? null : x.f.error,
                answer: x.ok ? okAnswer : x.f.answer,
                durationMs: x.ok ? r.int(40, 900) : x.f.httpStatus ? r.int(20, 400) : x.f.error.startsWith('timeout') ? 30_000 : r.int(1, 5),
                batchSize: r.int(1, itf.batchLimit),
                sender: SEED_SENDER,
              }),
            );
            await tick();
          }
        }
      }
    }),
  );
}
