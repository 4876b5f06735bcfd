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
 * Idempotency: the sender's key is stored with its answer at the end of the message's savepoint
 * (table _inbound_keys, primary key client + interface + key); a repeated key is answered from
 * there and changes nothing (on PostgreSQL a parallel batch with the same key waits at that insert
 * for the first to commit, then rolls its message back and answers duplicate). A refused message
 * rolls back, key included, so the sender may fix it and send it again under the same key. Two
 * batches that create the same business key at once meet at the entity's unique index (codegen
 * requires one): the loser's message runs again and finds the record.
 *
 * Speed: a batch reads what its messages need at once before they run (batch-lookups.ts: keys,
 * records, referenced codes), and its quick run writes its new records together (each checked as
 * a screen's create is, then one multi-row insert with their audit rows and notifications:
 * Engine.insertRows), its keys and its log rows at its end: a clean batch costs a handful of
 * statements whatever its size; on PostgreSQL each is a round trip (docs/inbound-interfaces.md, "Bench").
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
import { inboundLogRow, writeInboundLog } from './log.ts';
import { keyString, knownReferences, recordsByKey, storedAnswers } from './batch-lookups.ts';

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
/** thrown by a batch's quick run when a message needs what only the careful run does (a rollback of its own) */
class Restart extends Error {}

/** What a batch knows while its messages run (batch-lookups.ts), and its log rows, written at its end. */
interface Batch {
  answers: Map<string, AcceptedAnswer>;
  /** record by business key (keyString); null: none; absent: not known, look it up */
  rows: Map<string, Rec | null>;
  /** per referenced field: value -> names a record */
  references: Map<string, Map<string, boolean>>;
  log: Rec[];
  /** the quick run's accepted keys, stored at its end */
  claims: AcceptedAnswer[];
  /** the quick run's new records by business key, not written yet: written together (flushCreates) */
  pending: Map<string, PendingCreate>;
}

/** A new record of the quick run, checked and waiting for the batch's multi-row insert; its answer's id and its log row come with it. */
interface PendingCreate {
  msg: InboundMessage;
  values: Rec;
  answer: AcceptedAnswer;
  /** its place in the batch's log rows (kept in message order) */
  logAt: number;
}

/** Where the messages of a batch run: its transaction, what it knows, its interface and sender. */
interface Run {
  q: Queryable;
  batch: Batch;
  decl: CompiledInbound;
  client: ClientPrincipal;
  actor: Principal;
}

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
   * A whole batch: one database transaction, so a batch costs one commit (one disk flush) instead of
   * one per message. Answers in the order of the messages.
   *
   * First a quick run: every message refused for what can be known before writing (schema,
   * references, required fields) is answered without writing, the others are applied one after the
   * other and their keys stored together at the end. If any of them fails once writing (a lookup,
   * a unique value, a state, a record another batch created or a key it took meanwhile), the whole
   * transaction rolls back and the careful run answers the batch: each message in a savepoint of
   * its own (applied whole or rolled back whole) with its key. The same answers either way; the
   * quick run saves three statements a message (on PostgreSQL three round trips).
   */
  async applyBatch(decl: CompiledInbound, client: ClientPrincipal, actor: Principal, messages: InboundMessage[]): Promise<InboundAnswer[]> {
    // the payloads' schemas need no database: checked before the transaction
    const payloadErrors = messages.map((m) => this.payloadErrors(decl, m));
    // a payload with a schema error takes part in the lookups only with the fields that passed
    const checkable = messages.map((m, i) => Object.fromEntries(Object.entries(m.payload).filter(([f]) => !payloadErrors[i]?.[f])));
    try {
      return await this.runBatch(false, decl, client, actor, messages, payloadErrors, checkable);
    } catch (err) {
      if (!(err instanceof Restart)) throw err;
      return this.runBatch(true, decl, client, actor, messages, payloadErrors, checkable);
    }
  }

  private runBatch(
    careful: boolean,
    decl: CompiledInbound,
    client: ClientPrincipal,
    actor: Principal,
    messages: InboundMessage[],
    payloadErrors: (FieldErrors | null)[],
    checkable: Rec[],
  ): Promise<InboundAnswer[]> {
    const e = this.meta.entities[decl.entity];
    return this.engine.db.transaction(async (q) => {
      // the records first: on PostgreSQL their locks make a parallel batch with the same keys wait
      // for this one's commit, and then the keys it used are read as committed
      const rows = await recordsByKey(q, this.engine, e, decl, checkable);
      const batch: Batch = {
        rows,
        answers: await storedAnswers(
          q,
          decl,
          client.clientId,
          messages.map((m) => m.idempotencyKey),
        ),
        references: await knownReferences(q, this.meta, decl, checkable),
        log: [],
        claims: [],
        pending: new Map(),
      };
      const run: Run = { q, batch, decl, client, actor };
      const answers: InboundAnswer[] = [];
      for (const [i, m] of messages.entries()) {
        // a message about a record still waiting to be written finds it written
        if (batch.pending.has(keyString(decl.businessKey, m.payload))) await this.flushCreates(run);
        const stored = batch.answers.get(m.idempotencyKey);
        const errors = payloadErrors[i];
        if (stored) answers.push({ idempotencyKey: m.idempotencyKey, result: 'duplicate', first: stored });
        else if (errors) answers.push(this.refuse(batch, decl, client, m, validationFailed(await this.moreErrors(q, batch, decl, m, errors, checkable[i]))));
        else answers.push(careful ? await this.applyOne(run, m) : await this.applyQuick(run, m, checkable[i]));
      }
      await this.flushCreates(run);
      await this.storeKeys(q, decl, client, batch.claims);
      await writeInboundLog(this.engine.db, q, this.meta, batch.log);
      return answers;
    });
  }

  /** One message of the quick run: no savepoint; anything that fails once writing restarts the batch carefully. */
  private async applyQuick(run: Run, msg: InboundMessage, checkable: Rec): Promise<InboundAnswer> {
    const { q, batch, decl, client, actor } = run;
    const businessKey = keyString(decl.businessKey, msg.payload);
    // a new record's references and required fields, as create() would refuse them before writing
    const isNew = batch.rows.get(businessKey) === null && !(msg.action && msg.action !== 'upsert');
    if (isNew) {
      const before = await this.moreErrors(q, batch, decl, msg, {}, checkable);
      if (Object.keys(before).length) return this.refuse(batch, decl, client, msg, validationFailed(before));
      if (this.writesTogether(decl, msg)) return this.pendCreate(run, msg, businessKey);
    }
    // what follows may read what the waiting records write
    await this.flushCreates(run);
    let applied: { answer: AcceptedAnswer; record: Rec };
    try {
      applied = await this.applyIn(q, batch, decl, this.meta.entities[decl.entity], client, actor, msg, false);
    } catch {
      throw new Restart();
    }
    this.accepted(batch, decl, client, msg, businessKey, applied);
    batch.claims.push(applied.answer);
    return applied.answer;
  }

  /** What the batch knows after a message was accepted. */
  private accepted(
    batch: Batch,
    decl: CompiledInbound,
    client: ClientPrincipal,
    msg: InboundMessage,
    businessKey: string,
    applied: { answer: AcceptedAnswer; record: Rec },
  ) {
    const { answer, record } = applied;
    batch.answers.set(msg.idempotencyKey, answer);
    // the next message with this key finds the record as it is now (an action or update re-reads it)
    if (answer.operation === 'created' || answer.operation === 'unchanged') batch.rows.set(businessKey, record);
    else batch.rows.delete(businessKey);
    batch.log.push(this.logRow(decl, client, msg, answer, answer.id, answer.reference));
  }

  /** The quick run's keys with their answers, in one insert; a key another batch took meanwhile restarts the batch. */
  private async storeKeys(q: Queryable, decl: CompiledInbound, client: ClientPrincipal, answers: AcceptedAnswer[]): Promise<void> {
    if (!answers.length) return;
    const now = new Date().toISOString();
    const stored = await q.all(
      `INSERT INTO _inbound_keys (client_id, interface_code, idempotency_key, answer, created_at) VALUES ${answers.map(() => '(?, ?, ?, ?, ?)').join(', ')} ON CONFLICT DO NOTHING RETURNING idempotency_key`,
      answers.flatMap((a) => [client.clientId, decl.code, a.idempotencyKey, JSON.stringify(a), now]),
    );
    if (stored.length !== answers.length) throw new Restart();
  }

  /** One message of the careful run: a savepoint of its own, applied whole or rolled back whole and refused. */
  private async applyOne(run: Run, msg: InboundMessage): Promise<InboundAnswer> {
    const { q, batch, decl, client, actor } = run;
    const e = this.meta.entities[decl.entity];
    const businessKey = keyString(decl.businessKey, msg.payload);
    for (let attempt = 1; ; attempt++) {
      await q.run(`SAVEPOINT inbound_message`);
      try {
        const applied = await this.applyIn(q, batch, decl, e, client, actor, msg, true);
        await q.run(`RELEASE SAVEPOINT inbound_message`);
        this.accepted(batch, decl, client, msg, businessKey, applied);
        return applied.answer;
      } catch (err) {
        await q.run(`ROLLBACK TO SAVEPOINT inbound_message`);
        await q.run(`RELEASE SAVEPOINT inbound_message`);
        // what the batch read of this record may be out of date now: look it up again
        batch.rows.delete(businessKey);
        if (err instanceof KeyTaken) {
          const first = await this.storedAnswer(q, decl, client, msg.idempotencyKey);
          if (first) return { idempotencyKey: msg.idempotencyKey, result: 'duplicate', first };
          continue;
        }
        // PostgreSQL (read committed): the record another transaction created after this one looked
        // for it shows up in the unique check or the insert; run again, it is found and updated
        const race = dbErrorKind(err) === 'unique' || (err instanceof AppError && err.code === 'error.duplicate');
        if (race && attempt < 3) continue;
        if (dbErrorKind(err) === 'unique') return this.refuse(batch, decl, client, msg, conflict('error.duplicate'));
        if (err instanceof AppError) return this.refuse(batch, decl, client, msg, err);
        throw err;
      }
    }
  }

  /**
   * A payload that failed its schema is refused with every reason that can be known without
   * writing: besides the schema's, the unknown references among the values that passed it, and the
   * required fields of a new record (when the key names none).
   */
  private async moreErrors(q: Queryable, batch: Batch, decl: CompiledInbound, msg: InboundMessage, errors: FieldErrors, checkable: Rec): Promise<FieldErrors> {
    if (msg.action && msg.action !== 'upsert') return errors;
    const out: FieldErrors = { ...errors };
    await this.checkReferences(q, batch, decl, checkable, out);
    const keyChecked = decl.businessKey.every((f) => !errors[f]);
    if (keyChecked && batch.rows.get(keyString(decl.businessKey, msg.payload)) === null)
      for (const f of decl.required)
        if (!out[f] && (msg.payload[f] === null || msg.payload[f] === undefined || msg.payload[f] === '')) out[f] = { key: 'validation.required' };
    return out;
  }

  private async storedAnswer(q: Queryable, decl: CompiledInbound, client: ClientPrincipal, key: string): Promise<AcceptedAnswer | null> {
    const row = await q.get<{ answer: string }>(`SELECT answer FROM _inbound_keys WHERE client_id = ? AND interface_code = ? AND idempotency_key = ?`, [
      client.clientId,
      decl.code,
      key,
    ]);
    return row?.answer ? (JSON.parse(row.answer) as AcceptedAnswer) : null;
  }

  /**
   * The payload against the interface's schema (every field's first error, and fields the
   * interface does not carry); an action's payload carries the business key only. null: valid.
   */
  private payloadErrors(decl: CompiledInbound, msg: InboundMessage): FieldErrors | null {
    const errors: FieldErrors = {};
    const action = msg.action && msg.action !== 'upsert' ? msg.action : null;
    if (action) for (const k of Object.keys(msg.payload)) if (!decl.businessKey.includes(k)) errors[k] = { key: 'validation.unknownField' };
    for (const k of Object.keys(msg.payload))
      if (!decl.fields.includes(k) && !decl.children.some((c) => c.name === k)) errors[k] = { key: 'validation.unknownField' };
    // the fields the interface does not carry are reported already; the schema speaks for the rest
    const known = Object.fromEntries(Object.entries(msg.payload).filter(([k]) => !errors[k]));
    Object.assign(errors, this.engine.validator.validate(decl.payloadSchema, known) ?? {});
    return Object.keys(errors).length ? errors : null;
  }

  private async applyIn(
    q: Queryable,
    batch: Batch,
    decl: CompiledInbound,
    e: CompiledEntity,
    client: ClientPrincipal,
    actor: Principal,
    msg: InboundMessage,
    storeKey: boolean,
  ): Promise<{ answer: AcceptedAnswer; record: Rec }> {
    const now = new Date().toISOString();
    const payload = msg.payload;
    const known = batch.rows.get(keyString(decl.businessKey, payload));
    const row = known === undefined ? await this.lockByKey(q, e, decl, payload) : (known ?? undefined);
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
      record = await this.create(q, batch, decl, e, actor, now, payload);
      operation = 'created';
    } else {
      const changed = await this.update(q, batch, decl, e, actor, now, row, payload);
      record = changed ?? row;
      operation = changed ? 'updated' : 'unchanged';
    }
    if (operation === 'created' || operation === 'updated') await this.upsertChildren(q, decl, actor, now, Number(record.id), payload, operation === 'created');
    const answer: AcceptedAnswer = {
      idempotencyKey: msg.idempotencyKey,
      result: 'accepted',
      operation,
      id: Number(record.id),
      reference: this.referenceOf(decl, record),
    };
    if (!storeKey) return { answer, record };
    // the key last, with its answer: a parallel transaction that took it first makes this insert
    // wait for its commit and then do nothing; the message rolls back and answers duplicate
    const claimed = await q.get(
      `INSERT INTO _inbound_keys (client_id, interface_code, idempotency_key, answer, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING client_id`,
      [client.clientId, decl.code, msg.idempotencyKey, JSON.stringify(answer), now],
    );
    if (!claimed) throw new KeyTaken();
    return { answer, record };
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

  /**
   * Declared cross-references: each value must name a record (an unknown supplier or warehouse is a
   * field error). The batch read the values its payloads give; another value is looked up here.
   */
  private async checkReferences(q: Queryable, batch: Batch, decl: CompiledInbound, values: Rec, errors: FieldErrors): Promise<void> {
    for (const [f, ref] of Object.entries(decl.references)) {
      const v = values[f];
      if (v === null || v === undefined || v === '' || errors[f]) continue;
      let hit = batch.references.get(f)?.get(String(v));
      if (hit === undefined) {
        const t = this.meta.entities[ref.entity];
        hit = !!(await q.get(`SELECT 1 AS x FROM ${quote(t.table)} WHERE ${quote(t.fields[ref.field].column)} = ? LIMIT 1`, [v]));
      }
      if (!hit) errors[f] = { key: ref.messageKey, args: { value: String(v) } };
    }
  }

  private withCopies(decl: CompiledInbound, values: Rec): Rec {
    const out = { ...values };
    for (const [target, source] of Object.entries(decl.copy)) if (source in values) out[target] = values[source];
    return out;
  }

  private async create(q: Queryable, batch: Batch, decl: CompiledInbound, e: CompiledEntity, actor: Principal, now: string, payload: Rec): Promise<Rec> {
    const written = await this.checkedCreate(q, batch, decl, e, actor, now, payload);
    const record = await this.engine.insertRow(q, e, written, actor, now);
    await this.engine.hooks.afterWrite(this.engine.servicesFor(q, actor, now), e, 'create', null, record);
    return record;
  }

  /** A new record's values, checked as a screen's create checks them (references, rules, unique values, hooks), ready to insert. */
  private async checkedCreate(q: Queryable, batch: Batch, decl: CompiledInbound, e: CompiledEntity, actor: Principal, now: string, payload: Rec): Promise<Rec> {
    const errors: FieldErrors = {};
    for (const f of decl.required) if (payload[f] === null || payload[f] === undefined || payload[f] === '') errors[f] = { key: 'validation.required' };
    const given: Rec = {};
    for (const f of decl.fields) if (payload[f] !== undefined) given[f] = payload[f];
    await this.checkReferences(q, batch, decl, given, errors);
    if (Object.keys(errors).length) throw validationFailed(errors);
    const values = this.withCopies(decl, { ...given, ...decl.fixed });
    // the business key was just found free in this transaction (applyIn)
    await this.engine.checkWrite(q, actor, e, values, null, decl.businessKey);
    return this.engine.hooks.beforeWrite(this.engine.servicesFor(q, actor, now), e, 'create', null, values);
  }

  /** The changed declared fields, if the declaration allows them in the record's state; null when nothing changes. */
  private async update(
    q: Queryable,
    batch: Batch,
    decl: CompiledInbound,
    e: CompiledEntity,
    actor: Principal,
    now: string,
    row: Rec,
    payload: Rec,
  ): Promise<Rec | null> {
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
    await this.checkReferences(q, batch, decl, patch, errors);
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
  private async upsertChildren(
    q: Queryable,
    decl: CompiledInbound,
    actor: Principal,
    now: string,
    parentId: number,
    payload: Rec,
    newParent: boolean,
  ): Promise<void> {
    for (const c of decl.children) {
      const sent = payload[c.name] as Rec[] | undefined;
      if (!sent?.length) continue;
      const ce = this.meta.entities[c.entity];
      // a record created by this message has no child rows yet
      const existing = newParent ? new Map<string, Rec>() : await this.existingChildren(q, c, parentId);
      for (const s of sent) {
        const have = existing.get(this.keyOf(c.key, s));
        const values = this.sentFields(c, s);
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

  /**
   * Whether the quick run may write this new record together with the batch's others: not when
   * the entity's afterWrite hook must see each record as it is written, nor when the message's
   * child rows repeat a key (the second would update the first: upsertChildren does that one by one).
   */
  private writesTogether(decl: CompiledInbound, msg: InboundMessage): boolean {
    if (this.meta.entities[decl.entity].hooks.includes('afterWrite')) return false;
    return decl.children.every((c) => {
      const sent = (msg.payload[c.name] as Rec[] | undefined) ?? [];
      return new Set(sent.map((r) => this.keyOf(c.key, r))).size === sent.length;
    });
  }

  /** A new record of the quick run, checked now and written with the others (flushCreates); answered now, its id filled in then. */
  private async pendCreate(run: Run, msg: InboundMessage, businessKey: string): Promise<AcceptedAnswer> {
    const { q, batch, decl, actor } = run;
    let values: Rec;
    try {
      values = await this.checkedCreate(q, batch, decl, this.meta.entities[decl.entity], actor, new Date().toISOString(), msg.payload);
    } catch {
      throw new Restart();
    }
    const answer: AcceptedAnswer = { idempotencyKey: msg.idempotencyKey, result: 'accepted', operation: 'created', id: 0, reference: '' };
    batch.pending.set(businessKey, { msg, values, answer, logAt: batch.log.push({}) - 1 });
    batch.answers.set(msg.idempotencyKey, answer);
    batch.claims.push(answer);
    return answer;
  }

  /**
   * The quick run's waiting records in one multi-row insert (with their audit rows and
   * notifications: Engine.insertRows), then their child rows the same way per child list. Anything
   * failing here (a record another batch created meanwhile meets the unique index) restarts the
   * batch carefully.
   */
  private async flushCreates(run: Run): Promise<void> {
    const { q, batch, decl, client, actor } = run;
    if (!batch.pending.size) return;
    const waiting = [...batch.pending.entries()];
    batch.pending.clear();
    const now = new Date().toISOString();
    let records: Rec[];
    try {
      records = await this.engine.insertRows(
        q,
        this.meta.entities[decl.entity],
        waiting.map(([, p]) => p.values),
        actor,
        now,
      );
      for (const c of decl.children) {
        const rows = waiting.flatMap(([, p], i) =>
          ((p.msg.payload[c.name] as Rec[] | undefined) ?? []).map((s) => ({ ...this.sentFields(c, s), ...c.fixed, [c.parentField]: records[i].id })),
        );
        if (rows.length) await this.engine.insertRows(q, this.meta.entities[c.entity], rows, actor, now);
      }
    } catch {
      throw new Restart();
    }
    for (const [i, [businessKey, p]] of waiting.entries()) {
      Object.assign(p.answer, { id: Number(records[i].id), reference: this.referenceOf(decl, records[i]) });
      batch.rows.set(businessKey, records[i]);
      batch.log[p.logAt] = this.logRow(decl, client, p.msg, p.answer, p.answer.id, p.answer.reference);
    }
  }

  /** The declared fields a child row sends. */
  private sentFields(c: CompiledInbound['children'][number], sent: Rec): Rec {
    return Object.fromEntries(c.fields.filter((f) => sent[f] !== undefined).map((f) => [f, sent[f]]));
  }

  /** A refused message: logged (in the batch's transaction; its own savepoint was rolled back) and answered with its reasons. */
  private refuse(batch: Batch, decl: CompiledInbound, client: ClientPrincipal, msg: InboundMessage, err: unknown): RefusedAnswer {
    if (!(err instanceof AppError)) throw err;
    const answer: RefusedAnswer = {
      idempotencyKey: msg.idempotencyKey,
      result: 'refused',
      status: err.statusCode,
      code: err.code,
      args: Object.fromEntries(Object.entries(err.args).filter(([, v]) => typeof v !== 'function')) as Record<string, string | number>,
      ...(err.fieldErrors ? { fieldErrors: err.fieldErrors } : {}),
    };
    batch.log.push(this.logRow(decl, client, msg, answer, null, this.referenceOf(decl, msg.payload)));
    return answer;
  }

  private logRow(
    decl: CompiledInbound,
    client: ClientPrincipal,
    msg: InboundMessage,
    answer: AcceptedAnswer | RefusedAnswer,
    recordId: number | null,
    reference: string,
  ): Rec {
    return inboundLogRow(this.meta, { decl, client, msg, now: new Date().toISOString(), answer, recordId, reference });
  }
}
