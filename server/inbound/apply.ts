/**
 * Inbound messages, each applied whole (a savepoint of its own inside the batch's transaction: one
 * commit per batch) or refused with reasons and rolled back. What a message may
 * do is metadata (metadata/interfaces.json "inbound", compiled into meta.outbox.inbound): create or
 * update the record its business key names (an update may touch only the declared fields, and only
 * in the declared states), upsert its declared child rows, or run a declared action. Values pass
 * the same checks as a screen's write: the field schemas, code tables, ranges, rules, lookups and
 * unique values (Engine.checkWrite), the entity's hooks, plus the declared cross-references (an
 * unknown supplier or warehouse). Nothing here names an entity.
 *
 * Idempotency: the sender's key is claimed first in the message's savepoint (table _inbound_keys,
 * primary key client + interface + key) and the answer stored with it; a repeated key is answered
 * from there and changes nothing (on PostgreSQL a parallel batch with the same key waits for the
 * first to commit). A refused message rolls back, key included, so the sender may fix it and send
 * it again under the same key. Two batches that create the same business key at once meet at the
 * entity's unique index (codegen requires one): the loser's message runs again and finds the record.
 */
import type { CompiledEntity, CompiledInbound, CompiledMetadata } from '../../codegen/runtime/model.ts';
import { codeLabelKey } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { FieldErrors } from '../../codegen/runtime/validation.ts';
import type { Queryable } from '../db/types.ts';
import { dbErrorKind } from '../db/types.ts';
import type { Engine } from '../engine/engine.ts';
import { AppError, conflict, validationFailed } from '../engine/errors.ts';
import type { Principal } from '../engine/principal.ts';
import { selectList, toRecord } from '../engine/records.ts';
import { toStored } from '../engine/access.ts';
import type { ClientPrincipal } from '../auth/client-credentials.ts';
import { logInbound } from './log.ts';

type Rec = Record<string, unknown>;

export interface InboundMessage {
  idempotencyKey: string;
  action?: string;
  payload: Rec;
}

/** What an accepted message did: created, updated, unchanged (the record already says so) or the action's name. */
export interface AcceptedAnswer {
  idempotencyKey: string;
  result: 'accepted';
  operation: string;
  id: number;
  reference: string;
}
export interface RefusedAnswer {
  idempotencyKey: string;
  result: 'refused';
  status: number;
  code: string;
  args: Record<string, string | number>;
  fieldErrors?: FieldErrors;
}
export interface DuplicateAnswer {
  idempotencyKey: string;
  result: 'duplicate';
  first: AcceptedAnswer;
}
export type InboundAnswer = AcceptedAnswer | RefusedAnswer | DuplicateAnswer;

/** thrown inside the transaction when another one already took the key: roll back, answer from the stored result */
class KeyTaken extends Error {}

const same = (a: unknown, b: unknown): boolean => {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return a === b;
};

export class InboundApplier {
  constructor(
    readonly engine: Engine,
    readonly meta: CompiledMetadata,
  ) {}

  /** The business reference people search the log by: the business key joined with '/'. */
  referenceOf(decl: CompiledInbound, payload: Rec): string {
    return decl.businessKey.map((f) => (payload[f] === null || payload[f] === undefined ? '' : String(payload[f]))).join('/');
  }

  /**
   * A whole batch: one database transaction, each message inside it a savepoint of its own (applied
   * whole or rolled back whole, with its refusal logged), so a batch costs one commit (one disk
   * flush) instead of one per message. Answers in the order of the messages.
   */
  applyBatch(decl: CompiledInbound, client: ClientPrincipal, actor: Principal, messages: InboundMessage[]): Promise<InboundAnswer[]> {
    return this.engine.db.transaction(async (q) => {
      const answers: InboundAnswer[] = [];
      for (const m of messages) answers.push(await this.applyOne(q, decl, client, actor, m));
      return answers;
    });
  }

  private async applyOne(q: Queryable, decl: CompiledInbound, client: ClientPrincipal, actor: Principal, msg: InboundMessage): Promise<InboundAnswer> {
    const e = this.meta.entities[decl.entity];
    const stored = await this.storedAnswer(q, decl, client, msg.idempotencyKey);
    if (stored) return { idempotencyKey: msg.idempotencyKey, result: 'duplicate', first: stored };
    try {
      this.checkPayload(decl, msg);
    } catch (err) {
      return this.refuse(q, decl, client, msg, err);
    }
    for (let attempt = 1; ; attempt++) {
      await q.run(`SAVEPOINT inbound_message`);
      try {
        const answer = await this.applyIn(q, decl, e, client, actor, msg);
        await q.run(`RELEASE SAVEPOINT inbound_message`);
        return answer;
      } catch (err) {
        await q.run(`ROLLBACK TO SAVEPOINT inbound_message`);
        await q.run(`RELEASE SAVEPOINT inbound_message`);
        if (err instanceof KeyTaken) {
          const first = await this.storedAnswer(q, decl, client, msg.idempotencyKey);
          if (first) return { idempotencyKey: msg.idempotencyKey, result: 'duplicate', first };
          continue;
        }
        // PostgreSQL (read committed): the record another transaction created after this one looked
        // for it shows up in the unique check or the insert; run again, it is found and updated
        const race = dbErrorKind(err) === 'unique' || (err instanceof AppError && err.code === 'error.duplicate');
        if (race && attempt < 3) continue;
        if (dbErrorKind(err) === 'unique') return this.refuse(q, decl, client, msg, conflict('error.duplicate'));
        if (err instanceof AppError) return this.refuse(q, decl, client, msg, err);
        throw err;
      }
    }
  }

  private async storedAnswer(q: Queryable, decl: CompiledInbound, client: ClientPrincipal, key: string): Promise<AcceptedAnswer | null> {
    const row = await q.get<{ answer: string }>(`SELECT answer FROM _inbound_keys WHERE client_id = ? AND interface_code = ? AND idempotency_key = ?`, [
      client.clientId,
      decl.code,
      key,
    ]);
    return row?.answer ? (JSON.parse(row.answer) as AcceptedAnswer) : null;
  }

  /** The payload against the interface's schema; an action's payload carries the business key only. */
  private checkPayload(decl: CompiledInbound, msg: InboundMessage): void {
    const errors: FieldErrors = {};
    const action = msg.action && msg.action !== 'upsert' ? msg.action : null;
    if (action) for (const k of Object.keys(msg.payload)) if (!decl.businessKey.includes(k)) errors[k] = { key: 'validation.unknownField' };
    for (const k of Object.keys(msg.payload))
      if (!decl.fields.includes(k) && !decl.children.some((c) => c.name === k)) errors[k] = { key: 'validation.unknownField' };
    if (Object.keys(errors).length) throw validationFailed(errors);
    const invalid = this.engine.validator.validate(decl.payloadSchema, msg.payload);
    if (invalid) throw validationFailed(invalid);
  }

  private async applyIn(
    q: Queryable,
    decl: CompiledInbound,
    e: CompiledEntity,
    client: ClientPrincipal,
    actor: Principal,
    msg: InboundMessage,
  ): Promise<AcceptedAnswer> {
    const now = new Date().toISOString();
    // the key first: a parallel transaction with the same key waits here until the first commits
    const claimed = await q.get(
      `INSERT INTO _inbound_keys (client_id, interface_code, idempotency_key, answer, created_at) VALUES (?, ?, ?, '', ?) ON CONFLICT DO NOTHING RETURNING client_id`,
      [client.clientId, decl.code, msg.idempotencyKey, now],
    );
    if (!claimed) throw new KeyTaken();
    const payload = msg.payload;
    const row = await this.lockByKey(q, e, decl, payload);
    let record: Rec;
    let operation: string;
    if (msg.action && msg.action !== 'upsert') {
      if (!row) throw validationFailed(Object.fromEntries(decl.businessKey.map((k) => [k, { key: 'validation.inboundNoRecord' }])));
      const a = e.actions[msg.action];
      if (!a.from?.includes(String(row[a.statusField!]))) {
        const status = String(row[a.statusField!]);
        throw conflict('error.illegalTransition', { status: codeLabelKey(e.fields[a.statusField!].codeTable!, status) });
      }
      record = await this.engine.applyTransition(q, e, a, actor, now, row);
      operation = msg.action;
    } else if (!row) {
      record = await this.create(q, decl, e, actor, now, payload);
      operation = 'created';
    } else {
      const changed = await this.update(q, decl, e, actor, now, row, payload);
      record = changed ?? row;
      operation = changed ? 'updated' : 'unchanged';
    }
    if (operation === 'created' || operation === 'updated') await this.upsertChildren(q, decl, actor, now, Number(record.id), payload);
    const answer: AcceptedAnswer = {
      idempotencyKey: msg.idempotencyKey,
      result: 'accepted',
      operation,
      id: Number(record.id),
      reference: this.referenceOf(decl, record),
    };
    await q.run(`UPDATE _inbound_keys SET answer = ? WHERE client_id = ? AND interface_code = ? AND idempotency_key = ?`, [
      JSON.stringify(answer),
      client.clientId,
      decl.code,
      msg.idempotencyKey,
    ]);
    await logInbound(q, this.meta, { decl, client, msg, now, answer, recordId: Number(record.id), reference: answer.reference });
    return answer;
  }

  /** The record the business key names, locked for the transaction (PostgreSQL: a row lock; SQLite holds the write lock). */
  private async lockByKey(q: Queryable, e: CompiledEntity, decl: CompiledInbound, payload: Rec): Promise<Rec | undefined> {
    const where = decl.businessKey.map((f) => `a.${quote(e.fields[f].column)} = ?`).join(' AND ');
    const row = await q.get<Rec>(
      `SELECT ${selectList(e, 'a')} FROM ${quote(e.table)} a WHERE ${where}${this.engine.d.forUpdate('a')}`,
      decl.businessKey.map((f) => toStored(this.engine.d, e, f, payload[f])),
    );
    return row ? toRecord(e, row) : undefined;
  }

  /** Declared cross-references: each value must name a record (an unknown supplier or warehouse is a field error). */
  private async checkReferences(q: Queryable, decl: CompiledInbound, values: Rec, errors: FieldErrors): Promise<void> {
    for (const [f, ref] of Object.entries(decl.references)) {
      const v = values[f];
      if (v === null || v === undefined || v === '') continue;
      const t = this.meta.entities[ref.entity];
      const hit = await q.get(`SELECT 1 AS x FROM ${quote(t.table)} WHERE ${quote(t.fields[ref.field].column)} = ? LIMIT 1`, [v]);
      if (!hit) errors[f] = { key: ref.messageKey, args: { value: String(v) } };
    }
  }

  private withCopies(decl: CompiledInbound, values: Rec): Rec {
    const out = { ...values };
    for (const [target, source] of Object.entries(decl.copy)) if (source in values) out[target] = values[source];
    return out;
  }

  private async create(q: Queryable, decl: CompiledInbound, e: CompiledEntity, actor: Principal, now: string, payload: Rec): Promise<Rec> {
    const errors: FieldErrors = {};
    for (const f of decl.required) if (payload[f] === null || payload[f] === undefined || payload[f] === '') errors[f] = { key: 'validation.required' };
    const given: Rec = {};
    for (const f of decl.fields) if (payload[f] !== undefined) given[f] = payload[f];
    await this.checkReferences(q, decl, given, errors);
    if (Object.keys(errors).length) throw validationFailed(errors);
    const values = this.withCopies(decl, { ...given, ...decl.fixed });
    await this.engine.checkWrite(q, actor, e, values, null);
    const svc = this.engine.servicesFor(q, actor, now);
    const written = await this.engine.hooks.beforeWrite(svc, e, 'create', null, values);
    const record = await this.engine.insertRow(q, e, written, actor, now);
    await this.engine.hooks.afterWrite(svc, e, 'create', null, record);
    return record;
  }

  /** The changed declared fields, if the declaration allows them in the record's state; null when nothing changes. */
  private async update(q: Queryable, decl: CompiledInbound, e: CompiledEntity, actor: Principal, now: string, row: Rec, payload: Rec): Promise<Rec | null> {
    const patch: Rec = {};
    for (const f of decl.fields) if (payload[f] !== undefined && !decl.businessKey.includes(f) && !same(payload[f], row[f])) patch[f] = payload[f];
    const childChanges = await this.childrenDiffer(q, decl, Number(row.id), payload);
    if (!Object.keys(patch).length && !childChanges) return null;
    const allowed = new Set(decl.update?.fields ?? []);
    const errors: FieldErrors = {};
    for (const f of Object.keys(patch)) if (!allowed.has(f)) errors[f] = { key: 'validation.readOnly' };
    if (Object.keys(errors).length) throw validationFailed(errors);
    for (const [f, codes] of Object.entries(decl.update?.when ?? {})) {
      const status = String(row[f]);
      if (!codes.includes(status))
        throw conflict('error.inboundStateLocked', {
          statusLabel: codeLabelKey(e.fields[f].codeTable!, status),
          fields: [...Object.keys(patch), ...(childChanges ? decl.children.map((c) => c.name) : [])].join(', '),
        });
    }
    if (!decl.update) throw conflict('error.duplicate');
    await this.checkReferences(q, decl, patch, errors);
    if (Object.keys(errors).length) throw validationFailed(errors);
    const values = this.withCopies(decl, patch);
    await this.engine.checkWrite(q, actor, e, values, Number(row.id));
    const svc = this.engine.servicesFor(q, actor, now);
    const written = await this.engine.hooks.beforeWrite(svc, e, 'update', row, values);
    const record = await this.engine.updateRow(q, e, Number(row.id), written, actor, now, `inbound:${decl.code}`);
    await this.engine.hooks.afterWrite(svc, e, 'update', row, record);
    return record;
  }

  private async childRows(q: Queryable, ce: CompiledEntity, parentField: string, parentId: number): Promise<Rec[]> {
    const rows = await q.all<Rec>(`SELECT ${selectList(ce, 'a')} FROM ${quote(ce.table)} a WHERE a.${quote(ce.fields[parentField].column)} = ?`, [parentId]);
    return rows.map((r) => toRecord(ce, r));
  }

  private keyOf = (key: string[], r: Rec): string => JSON.stringify(key.map((k) => (r[k] === undefined || r[k] === null ? null : String(r[k]))));

  /** The stored child rows of one declared child list, by their key. */
  private async existingChildren(q: Queryable, c: CompiledInbound['children'][number], parentId: number): Promise<Map<string, Rec>> {
    const rows = await this.childRows(q, this.meta.entities[c.entity], c.parentField, parentId);
    return new Map(rows.map((r) => [this.keyOf(c.key, r), r]));
  }

  /** Whether the message's child rows would change what is stored. */
  private async childrenDiffer(q: Queryable, decl: CompiledInbound, parentId: number, payload: Rec): Promise<boolean> {
    for (const c of decl.children) {
      const sent = payload[c.name] as Rec[] | undefined;
      if (!sent?.length) continue;
      const existing = await this.existingChildren(q, c, parentId);
      for (const s of sent) {
        const have = existing.get(this.keyOf(c.key, s));
        if (!have || c.fields.some((f) => s[f] !== undefined && !same(s[f], have[f]))) return true;
      }
    }
    return false;
  }

  /** The declared child rows: created, or their sent fields updated, by parent and key (rows not sent stay). */
  private async upsertChildren(q: Queryable, decl: CompiledInbound, actor: Principal, now: string, parentId: number, payload: Rec): Promise<void> {
    for (const c of decl.children) {
      const sent = payload[c.name] as Rec[] | undefined;
      if (!sent?.length) continue;
      const ce = this.meta.entities[c.entity];
      const existing = await this.existingChildren(q, c, parentId);
      for (const s of sent) {
        const have = existing.get(this.keyOf(c.key, s));
        const values: Rec = {};
        for (const f of c.fields) if (s[f] !== undefined) values[f] = s[f];
        if (!have) {
          const created = await this.engine.insertRow(q, ce, { ...values, ...c.fixed, [c.parentField]: parentId }, actor, now);
          existing.set(this.keyOf(c.key, created), created);
        } else {
          const patch = Object.fromEntries(Object.entries(values).filter(([f, v]) => !same(v, have[f])));
          if (Object.keys(patch).length) await this.engine.updateRow(q, ce, Number(have.id), patch, actor, now, `inbound:${decl.code}`);
        }
      }
    }
  }

  /** A refused message: logged (in the batch's transaction; its own savepoint was rolled back) and answered with its reasons. */
  private async refuse(q: Queryable, decl: CompiledInbound, client: ClientPrincipal, msg: InboundMessage, err: unknown): Promise<RefusedAnswer> {
    if (!(err instanceof AppError)) throw err;
    const answer: RefusedAnswer = {
      idempotencyKey: msg.idempotencyKey,
      result: 'refused',
      status: err.statusCode,
      code: err.code,
      args: Object.fromEntries(Object.entries(err.args).filter(([, v]) => typeof v !== 'function')) as Record<string, string | number>,
      ...(err.fieldErrors ? { fieldErrors: err.fieldErrors } : {}),
    };
    await logInbound(q, this.meta, {
      decl,
      client,
      msg,
      now: new Date().toISOString(),
      answer,
      recordId: null,
      reference: this.referenceOf(decl, msg.payload),
    });
    return answer;
  }
}
