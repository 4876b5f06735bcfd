/**
 * The outbox's two tables as metadata declares them (entities interfaceMessage and
 * interfaceAttempt, whose fields codegen checks against what is written here): column names, the
 * stored codes of statuses, results and modes, and plain inserts. The emitter and the dispatcher
 * write through this; nothing else names a column of these tables.
 */
import { OUTBOX_ATTEMPT_ENTITY, OUTBOX_MESSAGE_ENTITY, type CompiledEntity, type CompiledMetadata, type CompiledOutbox } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { Queryable } from '../db/types.ts';

type Rec = Record<string, unknown>;

function codes<K extends string>(meta: CompiledMetadata, table: string, keys: readonly K[]): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const k of keys) {
    const v = meta.codeTables[table]?.values.find((x) => x.key === k);
    if (!v) throw new Error(`outbox: code table ${table} has no key ${k} (codegen checks this)`);
    out[k] = v.code;
  }
  return out;
}

export class OutboxStore {
  readonly outbox: CompiledOutbox;
  readonly message: CompiledEntity;
  readonly attempt: CompiledEntity;
  readonly status: Record<'pending' | 'sent' | 'failed' | 'unconfigured', string>;
  readonly result: Record<'fail' | 'success', string>;
  readonly mode: Record<'manual' | 'automatic', string>;

  constructor(readonly meta: CompiledMetadata) {
    if (!meta.outbox) throw new Error('outbox: the metadata declares no interfaces (metadata/interfaces.json)');
    this.outbox = meta.outbox;
    this.message = meta.entities[OUTBOX_MESSAGE_ENTITY];
    this.attempt = meta.entities[OUTBOX_ATTEMPT_ENTITY];
    this.status = codes(meta, 'interfaceMessageStatus', ['pending', 'sent', 'failed', 'unconfigured']);
    this.result = codes(meta, 'interfaceSendResult', ['fail', 'success']);
    this.mode = codes(meta, 'interfaceSendMode', ['manual', 'automatic']);
  }

  /** `"column"` of a message field */
  m(field: string): string {
    return quote(this.message.fields[field].column);
  }

  /** the message table */
  get mt(): string {
    return quote(this.message.table);
  }

  /** One row by field name (no audit trail: the outbox is a log of its own). */
  async insert(q: Queryable, e: CompiledEntity, values: Rec): Promise<void> {
    const names = Object.keys(values);
    await q.run(
      `INSERT INTO ${quote(e.table)} (${names.map((n) => quote(e.fields[n].column)).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      names.map((n) => values[n]),
    );
  }

  /** Text cut to a field's maxLength (a reference or an error must never make the write fail). */
  fit(e: CompiledEntity, field: string, text: string | null): string | null {
    const max = e.fields[field].maxLength;
    return text !== null && max && text.length > max ? text.slice(0, max) : text;
  }
}
