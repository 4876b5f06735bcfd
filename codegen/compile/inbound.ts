/**
 * Step (after entities, with the outbox): checks and compiles the inbound half of
 * metadata/interfaces.json, what machine clients may post to POST /api/interfaces/<CODE>
 * (server/inbound/). Every interface is a code of table interfaceCode that is not also outbound,
 * its batch limit names a whole-number constant, its entity exists, its business key is exactly
 * the fields of a unique index (so two parallel messages with one key can never create two
 * records), its fields exist and are the entity's own (not private, not the engine's), a created
 * record gets every required field, updates name their fields and states, child rows hang off the
 * record by a ref with a unique key, and actions are record transitions. It also emits the JSON
 * Schemas of a message's payload and of the request body, from the same field schemas the screens
 * validate with. Every problem names the file and the JSON pointer, with a did-you-mean.
 */
import { ptr, type SourceFile } from '../load.ts';
import type {
  AppConstants,
  CompiledCodeTable,
  CompiledEntity,
  CompiledInbound,
  CompiledInboundChild,
  CompiledMetadata,
  CompiledRule,
  InboundReference,
} from '../runtime/model.ts';
import { fieldSchema, type JsonSchema } from '../runtime/field-schema.ts';
import type { CompileContext } from './context.ts';

interface RawChild {
  name: string;
  entity: string;
  parentField: string;
  key: string[];
  fields: string[];
  fixed?: Record<string, unknown>;
}
interface RawInbound {
  batchLimit: string;
  entity: string;
  businessKey: string[];
  fields: string[];
  required?: string[];
  copy?: Record<string, string>;
  fixed?: Record<string, unknown>;
  references?: Record<string, string>;
  update?: { fields: string[]; when: Record<string, string[]> };
  children?: RawChild[];
  actions?: string[];
}
interface RawFile {
  inboundReferences?: Record<string, InboundReference>;
  inbound?: Record<string, RawInbound>;
  interfaces?: Record<string, unknown>;
}

/** the sender's idempotency key: printable, no spaces, at most 100 characters */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9._:/-]{1,100}$';
/** most child rows one message may carry per declared child */
export const MAX_CHILD_ROWS = 500;

type Model = {
  app: AppConstants;
  codeTables: Record<string, CompiledCodeTable>;
  rules: Record<string, CompiledRule>;
  entities: Record<string, CompiledEntity>;
};
/** what every step of one file's compilation shares */
interface Scope {
  ctx: CompileContext;
  file: string;
  model: Model;
  /** fieldSchema reads only code tables and rules */
  schemaMeta: CompiledMetadata;
}
type Path = (string | number)[];

/** a field a sender may set: exists, not private, not one the engine writes */
function senderField(s: Scope, e: CompiledEntity, fn: string, pointer: string): boolean {
  const fd = e.fields[fn];
  const choices = e.fieldOrder.filter((n) => !e.fields[n].private && !e.fields[n].system);
  if (!fd) s.ctx.unknown(s.file, pointer, 'field', fn, choices, { of: `of entity "${e.name}"` });
  else if (fd.private) s.ctx.err(s.file, pointer, `field "${fn}" of entity "${e.name}" is private: no sender sets it`);
  else if (fd.system) s.ctx.err(s.file, pointer, `field "${fn}" of entity "${e.name}" is written by the engine`);
  else return true;
  return false;
}

/** field -> stored value; code fields name the code key */
function fixedValues(s: Scope, e: CompiledEntity, fixed: Record<string, unknown> | undefined, base: Path): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [fn, v] of Object.entries(fixed ?? {})) {
    const pointer = ptr(...base, 'fixed', fn);
    if (!senderField(s, e, fn, pointer)) continue;
    const fd = e.fields[fn];
    out[fn] = fd.type === 'code' ? s.ctx.codeOf(s.file, pointer, fd.codeTable!, v) : v;
  }
  return out;
}

const uniqueOn = (e: CompiledEntity, fields: string[]) =>
  e.indexes.some((ix) => ix.unique && ix.fields.length === fields.length && fields.every((n) => ix.fields.includes(n)));

function compileReferences(s: Scope, raw: RawFile): Record<string, InboundReference> {
  const references: Record<string, InboundReference> = {};
  for (const [name, r] of Object.entries(raw.inboundReferences ?? {})) {
    const base = ['inboundReferences', name];
    const e = s.model.entities[r.entity];
    if (!e) s.ctx.unknown(s.file, ptr(...base, 'entity'), 'entity', r.entity, Object.keys(s.model.entities));
    else if (!e.fields[r.field]) s.ctx.unknown(s.file, ptr(...base, 'field'), 'field', r.field, e.fieldOrder, { of: `of entity "${e.name}"` });
    s.ctx.needKey(s.file, ptr(...base, 'messageKey'), r.messageKey, `reference "${name}"`);
    references[name] = { ...r };
  }
  return references;
}

/** the interface's code value and its batch limit (undefined when the constant is missing) */
function checkCodeAndLimit(s: Scope, key: string, itf: RawInbound, base: Path, outbound: Set<string>) {
  const interfaceTable = s.model.codeTables.interfaceCode;
  const value = interfaceTable?.values.find((v) => v.key === key);
  if (!value) s.ctx.unknown(s.file, ptr(...base), 'interface', key, interfaceTable?.values.map((v) => v.key) ?? [], { of: 'of code table "interfaceCode"' });
  if (outbound.has(key)) s.ctx.err(s.file, ptr(...base), `interface "${key}" is already declared outbound: one interface goes one way`);
  const limit = s.model.app.constants[itf.batchLimit];
  if (limit === undefined)
    s.ctx.unknown(s.file, ptr(...base, 'batchLimit'), 'constant', itf.batchLimit, Object.keys(s.model.app.constants), { of: 'of app.json' });
  else if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1)
    s.ctx.err(s.file, ptr(...base, 'batchLimit'), `constant "${itf.batchLimit}" is ${JSON.stringify(limit)}, not a whole number of at least 1`);
  return { code: value?.code ?? key, limit: typeof limit === 'number' ? limit : undefined };
}

/** the sender's fields, the business key and what a created record must get */
function checkFieldsAndKey(s: Scope, e: CompiledEntity, itf: RawInbound, base: Path) {
  const { ctx, file } = s;
  const declared = new Set(itf.fields);
  itf.fields.forEach((fn, i) => senderField(s, e, fn, ptr(...base, 'fields', i)));
  itf.businessKey.forEach((fn, i) => {
    if (!declared.has(fn)) ctx.err(file, ptr(...base, 'businessKey', i), `business key field "${fn}" is not among the fields a sender sets`);
  });
  if (!uniqueOn(e, itf.businessKey))
    ctx.err(
      file,
      ptr(...base, 'businessKey'),
      `no unique index of entity "${e.name}" covers exactly ${itf.businessKey.join(' + ')}: parallel messages with one key could create two records (declare it in the entity's indexes)`,
    );
  const fixed = fixedValues(s, e, itf.fixed, base);
  (itf.required ?? []).forEach((fn, i) => {
    if (!declared.has(fn)) ctx.err(file, ptr(...base, 'required', i), `required field "${fn}" is not among the fields a sender sets`);
  });
  // a key that may be missing is no key: two messages without it would be taken for one record (issue 35)
  itf.businessKey.forEach((fn, i) => {
    if (declared.has(fn) && e.fields[fn] && !e.fields[fn].required && !(itf.required ?? []).includes(fn))
      ctx.err(
        file,
        ptr(...base, 'businessKey', i),
        `business key field "${fn}" is not required: every message must carry its key, so add "${fn}" to "required" of the interface (or make it required in entity "${e.name}")`,
      );
  });
  // what a created record must get: the entity's required fields without default, from the sender or fixed
  const entityRequired = e.fieldOrder.filter((n) => e.fields[n].required && e.fields[n].default === undefined && !e.fields[n].system && n !== 'id');
  for (const n of entityRequired)
    if (!declared.has(n) && !(n in fixed) && !(n in (itf.copy ?? {})))
      ctx.err(file, ptr(...base, 'fields'), `a created ${e.name} needs field "${n}" (required, no default): add it to fields or fixed`);
  return { fixed, required: [...new Set([...entityRequired.filter((n) => declared.has(n)), ...(itf.required ?? [])])] };
}

function compileCopy(s: Scope, e: CompiledEntity, itf: RawInbound, base: Path): Record<string, string> {
  const declared = new Set(itf.fields);
  const copy: Record<string, string> = {};
  for (const [target, source] of Object.entries(itf.copy ?? {})) {
    const pointer = ptr(...base, 'copy', target);
    if (!e.fields[target]) s.ctx.unknown(s.file, pointer, 'field', target, e.fieldOrder, { of: `of entity "${e.name}"` });
    else if (!declared.has(source)) s.ctx.err(s.file, pointer, `"${source}" is not among the fields a sender sets`);
    else if (e.fields[target].type !== e.fields[source].type)
      s.ctx.err(s.file, pointer, `field "${target}" is ${e.fields[target].type}, "${source}" is ${e.fields[source].type}`);
    else copy[target] = source;
  }
  return copy;
}

function compileFieldReferences(s: Scope, itf: RawInbound, base: Path, references: Record<string, InboundReference>) {
  const declared = new Set(itf.fields);
  const refs: Record<string, InboundReference> = {};
  for (const [fn, name] of Object.entries(itf.references ?? {})) {
    const pointer = ptr(...base, 'references', fn);
    if (!declared.has(fn)) s.ctx.err(s.file, pointer, `field "${fn}" is not among the fields a sender sets`);
    if (!references[name]) s.ctx.unknown(s.file, pointer, 'reference', name, Object.keys(references), { of: 'of inboundReferences' });
    else refs[fn] = references[name];
  }
  return refs;
}

function compileUpdate(s: Scope, e: CompiledEntity, itf: RawInbound, base: Path): CompiledInbound['update'] {
  if (!itf.update) return null;
  const { ctx, file } = s;
  const declared = new Set(itf.fields);
  const keySet = new Set(itf.businessKey);
  itf.update.fields.forEach((fn, i) => {
    const pointer = ptr(...base, 'update', 'fields', i);
    if (!declared.has(fn)) ctx.err(file, pointer, `field "${fn}" is not among the fields a sender sets`);
    else if (keySet.has(fn)) ctx.err(file, pointer, `field "${fn}" is part of the business key: it identifies the record and never changes`);
  });
  const when: Record<string, string[]> = {};
  for (const [fn, keys] of Object.entries(itf.update.when)) {
    const pointer = ptr(...base, 'update', 'when', fn);
    const fd = e.fields[fn];
    if (!fd) ctx.unknown(file, pointer, 'field', fn, e.fieldOrder, { of: `of entity "${e.name}"` });
    else if (fd.type !== 'code') ctx.err(file, pointer, `field "${fn}" of entity "${e.name}" is not a code field`);
    else when[fn] = keys.map((k, i) => ctx.codeOf(file, ptr(...base, 'update', 'when', fn, i), fd.codeTable!, k));
  }
  return { fields: [...itf.update.fields], when };
}

function compileChild(s: Scope, e: CompiledEntity, itf: RawInbound, c: RawChild, cp: Path): CompiledInboundChild[] {
  const { ctx, file } = s;
  const ce = s.model.entities[c.entity];
  if (itf.fields.includes(c.name)) ctx.err(file, ptr(...cp, 'name'), `"${c.name}" is already a field of the payload`);
  if (!ce) {
    ctx.unknown(file, ptr(...cp, 'entity'), 'entity', c.entity, Object.keys(s.model.entities));
    return [];
  }
  const pf = ce.fields[c.parentField];
  if (!pf) ctx.unknown(file, ptr(...cp, 'parentField'), 'field', c.parentField, ce.fieldOrder, { of: `of entity "${ce.name}"` });
  else if (pf.type !== 'ref' || pf.ref !== e.name)
    ctx.err(file, ptr(...cp, 'parentField'), `field "${c.parentField}" of entity "${ce.name}" is not a ref to "${e.name}"`);
  c.fields.forEach((fn, k) => {
    if (fn === c.parentField) ctx.err(file, ptr(...cp, 'fields', k), `"${fn}" links the row to its parent: the server sets it`);
    else senderField(s, ce, fn, ptr(...cp, 'fields', k));
  });
  c.key.forEach((fn, k) => {
    if (!c.fields.includes(fn)) ctx.err(file, ptr(...cp, 'key', k), `key field "${fn}" is not among the child's fields`);
    else if (ce.fields[fn] && !ce.fields[fn].required)
      ctx.err(file, ptr(...cp, 'key', k), `key field "${fn}" is not required in entity "${ce.name}": every row must carry its key (make it required there)`);
  });
  if (!uniqueOn(ce, [c.parentField, ...c.key]))
    ctx.err(file, ptr(...cp, 'key'), `no unique index of entity "${ce.name}" covers exactly ${[c.parentField, ...c.key].join(' + ')}`);
  return [{ name: c.name, entity: c.entity, parentField: c.parentField, key: [...c.key], fields: [...c.fields], fixed: fixedValues(s, ce, c.fixed, cp) }];
}

function checkActions(s: Scope, e: CompiledEntity, itf: RawInbound, base: Path) {
  (itf.actions ?? []).forEach((an, i) => {
    const a = e.actions[an];
    const pointer = ptr(...base, 'actions', i);
    if (!a) s.ctx.unknown(s.file, pointer, 'action', an, Object.keys(e.actions), { of: `of entity "${e.name}"` });
    else if (a.collection || a.handler || !a.statusField || !a.to?.length)
      s.ctx.err(s.file, pointer, `action "${an}" of entity "${e.name}" is not a plain transition of one record (no handler, a "to" state)`);
  });
}

/** the JSON Schemas: a payload carries any declared fields (which a create needs is checked per message) */
function inboundSchemas(s: Scope, key: string, itf: RawInbound, e: CompiledEntity, children: CompiledInboundChild[], limit: number | undefined) {
  const childSchema = (c: CompiledInboundChild): JsonSchema => {
    const ce = s.model.entities[c.entity];
    return {
      type: 'array',
      maxItems: MAX_CHILD_ROWS,
      items: {
        type: 'object',
        additionalProperties: false,
        required: c.key,
        properties: Object.fromEntries(c.fields.filter((n) => ce.fields[n]).map((n) => [n, fieldSchema(ce.fields[n], s.schemaMeta, true)])),
      },
    };
  };
  const payloadSchema: JsonSchema = {
    title: `${key}_payload`,
    type: 'object',
    additionalProperties: false,
    required: itf.businessKey,
    properties: {
      // the key's fields as required ones (not null, not blank), in every message: an update's and an action's too
      ...Object.fromEntries(
        itf.fields
          .filter((n) => e.fields[n])
          .map((n) => [n, fieldSchema(itf.businessKey.includes(n) ? { ...e.fields[n], required: true } : e.fields[n], s.schemaMeta, true)]),
      ),
      ...Object.fromEntries(children.map((c) => [c.name, childSchema(c)])),
    },
  };
  const requestSchema: JsonSchema = {
    title: `${key}_request`,
    type: 'object',
    additionalProperties: false,
    required: ['messages'],
    properties: {
      messages: {
        type: 'array',
        minItems: 1,
        description: `at most ${limit ?? '?'} messages (app constant ${itf.batchLimit}); a larger batch is refused whole with 413`,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['idempotencyKey', 'payload'],
          properties: {
            idempotencyKey: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
            ...(itf.actions?.length ? { action: { type: 'string', enum: ['upsert', ...itf.actions] } } : {}),
            payload: { type: 'object' },
          },
        },
      },
    },
  };
  return { payloadSchema, requestSchema };
}

function compileOne(s: Scope, key: string, itf: RawInbound, references: Record<string, InboundReference>, outbound: Set<string>): CompiledInbound | null {
  const base = ['inbound', key];
  const { code, limit } = checkCodeAndLimit(s, key, itf, base, outbound);
  const e = s.model.entities[itf.entity];
  if (!e) {
    s.ctx.unknown(s.file, ptr(...base, 'entity'), 'entity', itf.entity, Object.keys(s.model.entities));
    return null;
  }
  // in the order a reader meets them in the file, so the first error is the first problem
  const { fixed, required } = checkFieldsAndKey(s, e, itf, base);
  const copy = compileCopy(s, e, itf, base);
  const refs = compileFieldReferences(s, itf, base, references);
  const update = compileUpdate(s, e, itf, base);
  const children = (itf.children ?? []).flatMap((c, j) => compileChild(s, e, itf, c, [...base, 'children', j]));
  checkActions(s, e, itf, base);
  return {
    code,
    key,
    batchLimit: limit ?? 0,
    batchLimitConstant: itf.batchLimit,
    entity: itf.entity,
    businessKey: [...itf.businessKey],
    fields: [...itf.fields],
    required,
    copy,
    fixed,
    references: refs,
    update,
    children,
    actions: [...(itf.actions ?? [])],
    ...inboundSchemas(s, key, itf, e, children, limit),
  };
}

export function compileInbound(ctx: CompileContext, f: SourceFile, model: Model): Record<string, CompiledInbound> {
  const raw = f.data as RawFile;
  const s: Scope = { ctx, file: f.file, model, schemaMeta: { codeTables: model.codeTables, rules: model.rules } as unknown as CompiledMetadata };
  const references = compileReferences(s, raw);
  const outbound = new Set(Object.keys(raw.interfaces ?? {}));
  const out: Record<string, CompiledInbound> = {};
  for (const [key, itf] of Object.entries(raw.inbound ?? {})) {
    const compiled = compileOne(s, key, itf, references, outbound);
    if (compiled) out[compiled.code] = compiled;
  }
  return out;
}
