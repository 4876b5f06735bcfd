/**
 * A record's history (its timeline), read from the audit trail the engine writes in the same
 * transaction as every change. It is scoped exactly like the record: the caller must be able to
 * read the record itself (engine.getOne: the row scope, warehouse rule and grants), otherwise 404,
 * so a supplier sees the history of its own rows only; it is never the generic audit list. Each
 * entry says who, when, which operation (an action by its label), and which fields changed from
 * what to what, in the caller's language: code values by their labels, booleans as yes/no,
 * private fields and the engine's own bookkeeping fields never. Files added to and removed from
 * the record (its file entities, scope.parent) are entries of their own.
 */
import type { CompiledEntity, CompiledField, CompiledMetadata, Locale } from '../../codegen/runtime/model.ts';
import { codeLabelKey } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { HistoryChange, HistoryEntry } from '../../codegen/runtime/history.ts';
import type { Engine } from '../engine/engine.ts';
import type { Principal } from '../engine/principal.ts';
import { translate } from '../engine/i18n.ts';
import { personNames } from '../engine/person-names.ts';
import { holdsUserId } from '../../codegen/runtime/person-name.ts';

export type { HistoryChange, HistoryEntry };

/** at most this many entries, newest first */
export const HISTORY_LIMIT = 200;

interface AuditRow {
  at: string;
  userId: string;
  resource: string;
  recordId: number;
  operation: string;
  changes: string | null;
}

/** A stored value as the caller reads it: a code by its label, a boolean as yes/no. */
function shown(f: CompiledField, v: unknown, locale: Locale): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (f.type === 'code' && f.codeTable) return translate(locale, codeLabelKey(f.codeTable, String(v)));
  if (f.type === 'boolean') return translate(locale, v === true || v === 1 || v === '1' ? 'history.yes' : 'history.no');
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function operationLabel(e: CompiledEntity, op: string, locale: Locale): string {
  if (op.startsWith('action:')) {
    const a = e.actions[op.slice('action:'.length)];
    return a ? translate(locale, a.labelKey) : op;
  }
  const key = `history.op.${op}`;
  const text = translate(locale, key);
  return text === key ? op : text;
}

const parseChanges = (raw: string | null): Record<string, [unknown, unknown]> => {
  try {
    const v = raw ? (JSON.parse(raw) as unknown) : {};
    return v && typeof v === 'object' ? (v as Record<string, [unknown, unknown]>) : {};
  } catch {
    return {};
  }
};

/** The file entities whose files belong to records of `e` (scope.parent is a ref to it). */
const fileChildren = (meta: CompiledMetadata, e: CompiledEntity) =>
  Object.values(meta.entities).filter((c) => c.file && c.scope.parent && c.fields[c.scope.parent]?.ref === e.name);

export async function recordHistory(engine: Engine, p: Principal, e: CompiledEntity, id: number, locale: Locale): Promise<HistoryEntry[]> {
  await engine.getOne(p, e, id); // the record's own scope: 404 when the caller may not read it
  const meta = engine.meta;
  const a = meta.entities.auditEntry;
  if (!a) return [];
  const col = (f: string) => quote(a.fields[f].column);
  const select = `SELECT ${['at', 'userId', 'resource', 'recordId', 'operation', 'changes'].map((f) => `${col(f)} AS ${quote(f)}`).join(', ')} FROM ${quote(a.table)}`;
  const own = await engine.db.all<AuditRow>(
    `${select} WHERE ${col('resource')} = ? AND ${col('recordId')} = ? ORDER BY ${col('at')} DESC, id DESC LIMIT ${HISTORY_LIMIT}`,
    [e.resource, id],
  );
  const entries: HistoryEntry[] = own.map((r) => ({
    at: r.at,
    userId: r.userId,
    userName: r.userId,
    operation: r.operation,
    operationLabel: operationLabel(e, r.operation, locale),
    changes: Object.entries(parseChanges(r.changes)).flatMap(([name, pair]) => {
      const f = e.fields[name];
      if (!f || f.private || f.system || !Array.isArray(pair)) return [];
      const [before, after] = [shown(f, pair[0], locale), shown(f, pair[1], locale)];
      return before === after ? [] : [{ field: name, label: translate(locale, f.labelKey), before, after }];
    }),
  }));
  // files added and removed: the file rows' own create and delete entries that name this record as their parent
  for (const c of fileChildren(meta, e)) {
    const parent = c.scope.parent!;
    const rows = await engine.db.all<AuditRow>(
      `${select} WHERE ${col('resource')} = ? AND ${col('operation')} IN ('create', 'delete') AND (${col('changes')} LIKE ? OR ${col('changes')} LIKE ?) ORDER BY ${col('at')} DESC LIMIT ${HISTORY_LIMIT}`,
      [c.resource, `%"${parent}":[null,${id}]%`, `%"${parent}":[${id},null]%`],
    );
    for (const r of rows) {
      const ch = parseChanges(r.changes);
      const added = r.operation === 'create';
      const fileName = ch.fileName?.[added ? 1 : 0];
      const operation = added ? 'fileAdded' : 'fileRemoved';
      entries.push({
        at: r.at,
        userId: r.userId,
        userName: r.userId,
        operation,
        operationLabel: translate(locale, `history.op.${operation}`),
        changes: [],
        ...(typeof fileName === 'string' ? { fileName } : {}),
      });
    }
  }
  return byName(engine, e, entries.sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0)).slice(0, HISTORY_LIMIT));
}

/**
 * People by name (engine/person-names.ts): who did each change, and the before and after of a
 * field that holds a user ID (an auditor set by an action); an ID without an account stays the ID.
 */
async function byName(engine: Engine, e: CompiledEntity, entries: HistoryEntry[]): Promise<HistoryEntry[]> {
  const person = (c: { field: string }) => holdsUserId(e.fields[c.field]);
  const names = await personNames(engine.db, [
    ...entries.map((x) => x.userId),
    ...entries.flatMap((x) => x.changes.filter(person).flatMap((c) => [c.before, c.after])),
  ]);
  const nameOf = (id: string | null) => (id === null ? null : (names.get(id) ?? id));
  for (const x of entries) {
    x.userName = nameOf(x.userId)!;
    for (const c of x.changes.filter(person)) [c.before, c.after] = [nameOf(c.before), nameOf(c.after)];
  }
  return entries;
}
