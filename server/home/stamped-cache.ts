/**
 * A short-lived cache of the home page's aggregate queries (tile counts, chart sums), valid only
 * while nothing was written to the database. Counting a supplier's open lines on a million order
 * lines reads hundreds of thousands of index entries however the indexes are shaped; the home page
 * asks the same questions at every visit, and between two writes the answers cannot change.
 *
 * - The key is the statement and its parameters, so the caller's row scope (its supplier code,
 *   warehouse, profile conditions) and the day of relative dates are part of it: two suppliers
 *   never share an entry, and a new day asks new questions.
 * - Each entry remembers the database's change stamp (Dialect.changeStampSql) read BEFORE its
 *   query ran. A request reads the stamp once and uses an entry only if the stamp is the same:
 *   a write committed by any process in between changes it (SQLite: this connection's
 *   total_changes() for its own writes, data_version for other processes' commits; PostgreSQL:
 *   the snapshot, whose xmax and in-progress list move when any writing transaction ends, in any
 *   process). Reading the stamp first errs towards recounting: a write that commits while the
 *   query runs leaves an entry whose stamp is already old.
 * - Entries also expire after ENTRY_TTL_MS and at most MAX_ENTRIES are kept (oldest first out), so
 *   memory stays bounded whatever the number of suppliers.
 * Any write invalidates every entry: coarse, but needs no knowledge of which table a statement reads
 * (a row scope may join others), and costs one small query per home call.
 */
import type { Queryable, Row } from '../db/types.ts';

export const ENTRY_TTL_MS = 60_000;
export const MAX_ENTRIES = 2000;

interface Entry {
  stamp: string;
  at: number;
  rows: Row[];
}

/** One per database handle (each server process has its own; the stamp keeps them all right). */
const caches = new WeakMap<object, Map<string, Entry>>();

/** The database's change stamp now: read once per request, before its queries. */
export async function changeStamp(db: Queryable): Promise<string> {
  return String((await db.get<{ stamp: unknown }>(db.dialect.changeStampSql))!.stamp);
}

/** The rows of `sql` with `params`: from the cache when nothing was written since they were read, else from the database. */
export async function stampedAll<T extends Row>(db: Queryable, stamp: string, sql: string, params: readonly unknown[], now = Date.now()): Promise<T[]> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const key = `${sql}\u0000${JSON.stringify(params)}`;
  const hit = cache.get(key);
  if (hit && hit.stamp === stamp && now - hit.at < ENTRY_TTL_MS) return hit.rows as T[];
  const rows = await db.all<T>(sql, params);
  cache.delete(key);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, { stamp, at: now, rows });
  return rows;
}
