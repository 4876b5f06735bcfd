/**
 * Step (after entities): checks and compiles metadata/interfaces.json, the outbox of the exchange with external systems:
 * every interface is a code of table interfaceCode, its batch limit names a whole-number constant
 * of app.json, every message names an existing record action of an existing entity, its reference
 * and payload fields exist and are not private, child rows hang off the record by a ref field. The
 * outbox's own entities (the interface log and its attempts) must carry the fields the dispatcher
 * writes, with the right types and code tables. Every problem names the file and the JSON pointer.
 */
import { ptr, type SourceFile } from '../load.ts';
import {
  OUTBOX_ATTEMPT_ENTITY,
  OUTBOX_MESSAGE_ENTITY,
  type AppConstants,
  type CompiledCodeTable,
  type CompiledEntity,
  type CompiledInterface,
  type CompiledInterfaceMessage,
  type CompiledOutbox,
  type FieldType,
  type OutboxDelivery,
} from '../runtime/model.ts';
import type { CompileContext } from './context.ts';

interface RawMessage {
  entity: string;
  action: string;
  reference: string[];
  fields: string[];
  children?: { name: string; entity: string; parentField: string; fields: string[] }[];
}
interface RawInterfaces {
  delivery: OutboxDelivery;
  interfaces: Record<string, { batchLimit: string; messages: RawMessage[] }>;
}

type FieldContract = { type: FieldType; codeTable?: string; ref?: string };

/** What the dispatcher and the emitter write: field -> type (server/outbox/ relies on these). */
const MESSAGE_FIELDS: Record<string, FieldContract> = {
  interfaceCode: { type: 'code', codeTable: 'interfaceCode' },
  messageType: { type: 'string' },
  reference: { type: 'string' },
  resource: { type: 'string' },
  recordId: { type: 'integer' },
  idempotencyKey: { type: 'string' },
  payload: { type: 'text' },
  status: { type: 'code', codeTable: 'interfaceMessageStatus' },
  attempts: { type: 'integer' },
  nextAttemptAt: { type: 'datetime' },
  nextSendMode: { type: 'code', codeTable: 'interfaceSendMode' },
  lastAttemptAt: { type: 'datetime' },
  lastResult: { type: 'code', codeTable: 'interfaceSendResult' },
  lastMode: { type: 'code', codeTable: 'interfaceSendMode' },
  lastHttpStatus: { type: 'integer' },
  lastError: { type: 'string' },
  lastAnswer: { type: 'text' },
  sentAt: { type: 'datetime' },
  leaseOwner: { type: 'string' },
  leaseUntil: { type: 'datetime' },
  createdAt: { type: 'datetime' },
};
const ATTEMPT_FIELDS: Record<string, FieldContract> = {
  messageId: { type: 'ref', ref: OUTBOX_MESSAGE_ENTITY },
  attemptNo: { type: 'integer' },
  at: { type: 'datetime' },
  mode: { type: 'code', codeTable: 'interfaceSendMode' },
  result: { type: 'code', codeTable: 'interfaceSendResult' },
  httpStatus: { type: 'integer' },
  error: { type: 'string' },
  answer: { type: 'text' },
  durationMs: { type: 'integer' },
  batchSize: { type: 'integer' },
  sender: { type: 'string' },
};
/** code keys the outbox names (server/outbox/ reads their codes from the compiled tables) */
const CODE_KEYS: Record<string, string[]> = {
  interfaceMessageStatus: ['pending', 'sent', 'failed', 'unconfigured'],
  interfaceSendResult: ['fail', 'success'],
  interfaceSendMode: ['manual', 'automatic'],
};

export function compileOutbox(
  ctx: CompileContext,
  f: SourceFile,
  model: { app: AppConstants; codeTables: Record<string, CompiledCodeTable>; entities: Record<string, CompiledEntity> },
): CompiledOutbox {
  const raw = f.data as RawInterfaces;
  const file = f.file;
  const { app, codeTables, entities } = model;
  const err = ctx.err;

  for (const [table, keys] of Object.entries(CODE_KEYS)) {
    const t = codeTables[table];
    if (!t) err(file, '', `the outbox needs the code table "${table}" (keys ${keys.join(', ')})`);
    else for (const k of keys) if (!t.values.some((v) => v.key === k)) err(file, '', `the outbox needs the key "${k}" in code table "${table}"`);
  }
  const contract = (name: string, fields: Record<string, FieldContract>) => {
    const e = entities[name];
    if (!e) {
      err(file, '', `the outbox needs the entity "${name}" (metadata/entities)`);
      return;
    }
    for (const [fn, want] of Object.entries(fields)) {
      const fd = e.fields[fn];
      const what = `${want.type}${want.codeTable ? ` of code table "${want.codeTable}"` : ''}${want.ref ? ` to "${want.ref}"` : ''}`;
      if (!fd) err(file, '', `entity "${name}" needs a field "${fn}" (${what}) that the outbox writes`);
      else if (fd.type !== want.type || (want.codeTable && fd.codeTable !== want.codeTable) || (want.ref && fd.ref !== want.ref))
        err(
          file,
          '',
          `field "${fn}" of entity "${name}" must be ${what} for the outbox (it is ${fd.type}${fd.codeTable ? ` of "${fd.codeTable}"` : ''}${fd.ref ? ` to "${fd.ref}"` : ''})`,
        );
    }
  };
  contract(OUTBOX_MESSAGE_ENTITY, MESSAGE_FIELDS);
  contract(OUTBOX_ATTEMPT_ENTITY, ATTEMPT_FIELDS);

  const d = raw.delivery;
  if (d.maxBackoffSeconds < d.backoffSeconds) err(file, '/delivery/maxBackoffSeconds', `must be at least backoffSeconds (${d.backoffSeconds})`);

  /** a field of `e` a payload or reference may name: exists, not private */
  const payloadField = (e: CompiledEntity, fn: string, pointer: string) => {
    const fd = e.fields[fn];
    if (!fd)
      ctx.unknown(
        file,
        pointer,
        'field',
        fn,
        e.fieldOrder.filter((n) => !e.fields[n].private),
        { of: `of entity "${e.name}"` },
      );
    else if (fd.private) err(file, pointer, `field "${fn}" of entity "${e.name}" is private and never leaves the portal`);
  };

  const interfaceTable = codeTables.interfaceCode;
  const interfaces: Record<string, CompiledInterface> = {};
  const emitters: CompiledOutbox['emitters'] = {};
  const attemptBatchMax = entities[OUTBOX_ATTEMPT_ENTITY]?.fields.batchSize?.maximum;
  for (const [key, itf] of Object.entries(raw.interfaces)) {
    const base = ['interfaces', key];
    const value = interfaceTable?.values.find((v) => v.key === key);
    if (!value) ctx.unknown(file, ptr(...base), 'interface', key, interfaceTable?.values.map((v) => v.key) ?? [], { of: 'of code table "interfaceCode"' });
    const limit = app.constants[itf.batchLimit];
    if (limit === undefined) ctx.unknown(file, ptr(...base, 'batchLimit'), 'constant', itf.batchLimit, Object.keys(app.constants), { of: 'of app.json' });
    else if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1)
      err(file, ptr(...base, 'batchLimit'), `constant "${itf.batchLimit}" is ${JSON.stringify(limit)}, not a whole number of at least 1`);
    else if (attemptBatchMax !== undefined && limit > attemptBatchMax)
      err(file, ptr(...base, 'batchLimit'), `constant "${itf.batchLimit}" (${limit}) exceeds the largest batch an attempt records (${attemptBatchMax})`);
    const code = value?.code ?? key;
    const messages: CompiledInterfaceMessage[] = [];
    const seen = new Set<string>();
    itf.messages.forEach((m, i) => {
      const mp = [...base, 'messages', i];
      const e = entities[m.entity];
      if (!e) {
        ctx.unknown(file, ptr(...mp, 'entity'), 'entity', m.entity, Object.keys(entities));
        return;
      }
      const a = e.actions[m.action];
      if (!a) ctx.unknown(file, ptr(...mp, 'action'), 'action', m.action, Object.keys(e.actions), { of: `of entity "${e.name}"` });
      else if (a.collection || a.internal)
        err(
          file,
          ptr(...mp, 'action'),
          `action "${m.action}" of entity "${e.name}" has no records to send (${a.collection ? 'a collection action' : 'engine-only'})`,
        );
      const type = `${m.entity}.${m.action}`;
      if (seen.has(type)) err(file, ptr(...mp, 'action'), `"${type}" is declared twice for interface "${key}"`);
      seen.add(type);
      m.reference.forEach((fn, j) => payloadField(e, fn, ptr(...mp, 'reference', j)));
      m.fields.forEach((fn, j) => payloadField(e, fn, ptr(...mp, 'fields', j)));
      const children = (m.children ?? []).map((c, j) => {
        const cp = [...mp, 'children', j];
        const ce = entities[c.entity];
        if (!ce) ctx.unknown(file, ptr(...cp, 'entity'), 'entity', c.entity, Object.keys(entities));
        else {
          const pf = ce.fields[c.parentField];
          if (!pf) ctx.unknown(file, ptr(...cp, 'parentField'), 'field', c.parentField, ce.fieldOrder, { of: `of entity "${ce.name}"` });
          else if (pf.type !== 'ref' || pf.ref !== e.name)
            err(file, ptr(...cp, 'parentField'), `field "${c.parentField}" of entity "${ce.name}" is not a ref to "${e.name}"`);
          c.fields.forEach((fn, k) => payloadField(ce, fn, ptr(...cp, 'fields', k)));
        }
        if (m.fields.includes(c.name)) err(file, ptr(...cp, 'name'), `"${c.name}" is already a payload field`);
        return { name: c.name, entity: c.entity, parentField: c.parentField, fields: c.fields };
      });
      const msg: CompiledInterfaceMessage = { type, entity: m.entity, action: m.action, reference: m.reference, fields: m.fields, children };
      messages.push(msg);
      (emitters[type] ??= []).push({ interfaceCode: code, message: msg });
    });
    interfaces[code] = { code, key, batchLimit: typeof limit === 'number' ? limit : 0, batchLimitConstant: itf.batchLimit, messages };
  }
  // the inbound half of the file is compiled by compile/inbound.ts
  return { delivery: { ...d }, interfaces, emitters, inbound: {} };
}
