/**
 * What a batch of inbound messages reads at once, before its messages run, so that 150 messages
 * cost a handful of queries instead of a few each: the sender's idempotency keys already taken,
 * the records the business keys name (locked on PostgreSQL, as one message's lookup would lock its
 * record), and which referenced codes (suppliers, warehouses) exist. Each message still decides on
 * its own; a message that rolls back forgets what the batch knew of its record, and whatever is
 * not in these maps is looked up one by one as before (server/inbound/apply.ts).
 */
import type { CompiledEntity, CompiledInbound, CompiledMetadata } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { Queryable } from '../db/types.ts';
import { selectList, toRecord } from '../engine/records.ts';
import { toStored } from '../engine/access.ts';
import type { Engine } from '../engine/engine.ts';
import type { AcceptedAnswer } from './apply.ts';

type Rec = Record<string, unknown>;

/** A record's business key as one string (payload and stored record give the same one). */
export const keyString = (fields: readonly string[], r: Rec): string =>
  JSON.stringify(fields.map((k) => (r[k] === undefined || r[k] === null ? null : String(r[k]))));

const present = (v: unknown): v is string | number => (typeof v === 'string' && v !== '') || typeof v === 'number';

/** The first answers of the keys this client already used on this interface. */
export async function storedAnswers(q: Queryable, decl: CompiledInbound, clientId: string, keys: string[]): Promise<Map<string, AcceptedAnswer>> {
  const out = new Map<string, AcceptedAnswer>();
  const unique = [...new Set(keys)];
  if (!unique.length) return out;
  const rows = await q.all<{ idempotency_key: string; answer: string }>(
    `SELECT idempotency_key, answer FROM _inbound_keys WHERE client_id = ? AND interface_code = ? AND idempotency_key IN (${unique.map(() => '?').join(', ')})`,
    [clientId, decl.code, ...unique],
  );
  for (const r of rows) if (r.answer) out.set(r.idempotency_key, JSON.parse(r.answer) as AcceptedAnswer);
  return out;
}

/**
 * The records the payloads' business keys name (null: none), read and locked in one query. Only
 * payloads whose key fields passed their schema are asked for (a value of the wrong type must not
 * reach the database).
 */
export async function recordsByKey(q: Queryable, engine: Engine, e: CompiledEntity, decl: CompiledInbound, payloads: Rec[]): Promise<Map<string, Rec | null>> {
  const out = new Map<string, Rec | null>();
  const wanted = new Map<string, Rec>();
  for (const p of payloads) if (decl.businessKey.every((f) => present(p[f]))) wanted.set(keyString(decl.businessKey, p), p);
  if (!wanted.size) return out;
  const one = `(${decl.businessKey.map((f) => `a.${quote(e.fields[f].column)} = ?`).join(' AND ')})`;
  const params = [...wanted.values()].flatMap((p) => decl.businessKey.map((f) => toStored(engine.d, e, f, p[f])));
  const rows = await q.all<Rec>(
    `SELECT ${selectList(e, 'a')} FROM ${quote(e.table)} a WHERE ${[...wanted.keys()].map(() => one).join(' OR ')}${engine.d.forUpdate('a')}`,
    params,
  );
  for (const k of wanted.keys()) out.set(k, null);
  for (const row of rows) {
    const r = toRecord(e, row);
    out.set(keyString(decl.businessKey, r), r);
  }
  return out;
}

/** Per referenced field: whether each value the payloads give names a record (one query per referenced table and field). */
export async function knownReferences(
  q: Queryable,
  meta: CompiledMetadata,
  decl: CompiledInbound,
  payloads: Rec[],
): Promise<Map<string, Map<string, boolean>>> {
  const byTarget = new Map<string, Set<string>>();
  const target = (f: string) => `${decl.references[f].entity}.${decl.references[f].field}`;
  for (const f of Object.keys(decl.references)) {
    const values = byTarget.get(target(f)) ?? new Set<string>();
    for (const p of payloads) if (present(p[f])) values.add(String(p[f]));
    byTarget.set(target(f), values);
  }
  const found = new Map<string, Map<string, boolean>>();
  for (const [t, values] of byTarget) {
    const hits = new Map([...values].map((v) => [v, false]));
    if (values.size) {
      const [entity, field] = t.split('.');
      const te = meta.entities[entity];
      const col = quote(te.fields[field].column);
      const rows = await q.all<{ v: unknown }>(
        `SELECT DISTINCT ${col} AS v FROM ${quote(te.table)} WHERE ${col} IN (${[...values].map(() => '?').join(', ')})`,
        [...values],
      );
      for (const r of rows) hits.set(String(r.v), true);
    }
    found.set(t, hits);
  }
  return new Map(Object.keys(decl.references).map((f) => [f, found.get(target(f))!]));
}
