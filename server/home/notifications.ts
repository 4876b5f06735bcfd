/**
 * Notifications (the header's bell). What notifies whom is metadata (an entity's "notify": a new
 * record or a successful action, the profiles told, the screen that opens the record). The engine
 * calls `record` in the transaction of every audited write, so an event exists exactly when its
 * change committed. An event is stored once per audience (a profile; for supplier-scoped profiles
 * one per supplier the record names; the record's warehouse when it has one), never once per
 * account; a caller's feed is the newest events of its audience, with its own read marks.
 *
 * Live delivery across processes: on PostgreSQL the writing transaction sends NOTIFY (delivered at
 * commit) and every process LISTENs on one connection of its own; on SQLite the processes share
 * one file, so each process with open streams polls the newest event id (an index-only MAX over
 * the primary key) once a second. Either way a stream only says "something new" (an id): the page
 * then reads its own feed, scoped, so nothing leaks through the stream, and a page that reconnects
 * catches up from the database the same way.
 */
import type { CompiledEntity, CompiledMetadata, Locale } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import type { Db, Queryable } from '../db/types.ts';
import type { Principal } from '../engine/principal.ts';
import { translate } from '../engine/i18n.ts';
import { notFound } from '../engine/errors.ts';

export const CHANNEL = 'portal_notifications';
/** the feed: this many newest events of the caller's audience */
export const FEED_LIMIT = 50;

export interface NotificationItem {
  id: number;
  label: string;
  title: string | null;
  at: string;
  read: boolean;
  /** where a click goes: the screen's path, with ?id= for an edit or show screen */
  path: string;
}

/**
 * Writes the events an audited write causes (metadata "notify"), in its transaction: for one record,
 * or for a bulk insert's records at once (one read of their scope fields, one insert, one NOTIFY).
 */
export async function recordEvents(
  meta: CompiledMetadata,
  q: Queryable,
  p: Principal,
  e: CompiledEntity,
  ids: readonly number[],
  operation: string,
  now: string,
  db: Db,
): Promise<void> {
  const on = operation === 'create' ? 'create' : operation.startsWith('action:') ? operation.slice('action:'.length) : null;
  const decls = on ? (e.notify ?? []).filter((n) => n.on === on) : [];
  if (!decls.length || !ids.length) return;
  const fields = [...new Set([...e.scope.supplierFields, ...(e.scope.warehouseField ? [e.scope.warehouseField] : []), e.titleField])].filter(
    (f) => e.fields[f],
  );
  const rows = await q.all<Record<string, unknown>>(
    `SELECT id AS ${quote('id')}, ${fields.map((f) => `${quote(e.fields[f].column)} AS ${quote(f)}`).join(', ')} FROM ${quote(e.table)} WHERE id IN (${ids.map(() => '?').join(', ')}) ORDER BY id`,
    [...ids],
  );
  const events: unknown[][] = [];
  for (const row of rows) {
    const id = Number(row.id);
    const suppliers = [...new Set(e.scope.supplierFields.map((f) => row[f]).filter((v): v is string => typeof v === 'string' && v !== ''))];
    const warehouse = e.scope.warehouseField ? ((row[e.scope.warehouseField] as string | null) ?? null) : null;
    const title = row[e.titleField] === null || row[e.titleField] === undefined ? null : String(row[e.titleField]);
    for (const n of decls)
      for (const profile of n.profiles) {
        // a supplier hears of rows naming it; a record naming no supplier (a notice) is for every supplier
        const audiences = meta.access.profiles[profile]?.supplierScoped && suppliers.length ? suppliers : [null];
        const path = n.byId ? `${n.path}?id=${id}` : n.path;
        for (const supplier of audiences) events.push([e.name, id, n.on, n.labelKey, title, path, profile, supplier, warehouse, now, p.userId]);
      }
  }
  if (!events.length) return;
  await db.insertMany(
    '_notifications',
    ['entity', 'record_id', 'event', 'label_key', 'title', 'path', 'profile', 'supplier_code', 'warehouse', 'created_at', 'created_by'],
    events,
    q,
  );
  // delivered when the transaction commits, to every process listening (PostgreSQL); once a write
  // whatever its number of events (a stream only says "something new")
  if (db.dialect.name === 'postgres') await q.get(`SELECT pg_notify('${CHANNEL}', '') AS x`);
}

/** The caller's audience as SQL (a profile; its supplier and warehouse), leaving out its own doings. */
function audience(p: Principal): { sql: string; params: unknown[] } {
  return {
    sql: `n.profile = ? AND (n.supplier_code IS NULL OR n.supplier_code = ?) AND (n.warehouse IS NULL OR n.warehouse = ?) AND n.created_by <> ?`,
    params: [p.profile, p.supplierCode ?? '', p.warehouse, p.userId],
  };
}

export async function feed(db: Db, p: Principal, locale: Locale): Promise<{ unread: number; items: NotificationItem[] }> {
  const a = audience(p);
  const rows = await db.all<{ id: number; label_key: string; title: string | null; created_at: string; path: string; read: number | null }>(
    `SELECT n.id, n.label_key, n.title, n.created_at, n.path, r.notification_id AS read FROM _notifications n LEFT JOIN _notification_reads r ON r.notification_id = n.id AND r.account_id = ? WHERE ${a.sql} ORDER BY n.id DESC LIMIT ${FEED_LIMIT}`,
    [p.accountId, ...a.params],
  );
  const items = rows.map((r) => ({
    id: Number(r.id),
    label: translate(locale, r.label_key),
    title: r.title,
    at: r.created_at,
    read: r.read !== null,
    path: r.path,
  }));
  return { unread: items.filter((i) => !i.read).length, items };
}

export async function markRead(db: Db, p: Principal, id: number | 'all'): Promise<void> {
  const a = audience(p);
  if (id === 'all') {
    await db.run(`INSERT INTO _notification_reads (account_id, notification_id) SELECT ?, n.id FROM _notifications n WHERE ${a.sql} ON CONFLICT DO NOTHING`, [
      p.accountId,
      ...a.params,
    ]);
    return;
  }
  // only an event of the caller's own audience can be marked (another's is a 404, as if it did not exist)
  if (!(await db.get(`SELECT 1 AS x FROM _notifications n WHERE n.id = ? AND ${a.sql}`, [id, ...a.params]))) throw notFound();
  await db.run(`INSERT INTO _notification_reads (account_id, notification_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, [p.accountId, id]);
}
