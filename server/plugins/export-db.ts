/**
 * Read-only SQLite connections for exports (`app.exportDb`). An export reads up to a million rows
 * in one read transaction (a consistent snapshot) while its reply streams out, across many turns
 * of the event loop; on the main connection that would block every write for as long, and
 * better-sqlite3 allows one open iterator per connection. So each running export borrows its own
 * read-only connection: WAL lets it read its snapshot beside the one writer.
 *
 * At most `max` exports run at once (each holds a connection and a snapshot); `acquire()` answers
 * null beyond that and the route refuses with 429. One idle connection is kept for the next
 * export; all are closed with the app.
 */
import fp from 'fastify-plugin';
import Database from 'better-sqlite3';
import type { DB } from '../db/open.ts';

export interface ReadConnectionPool {
  /** a read-only connection, or null when `max` are in use */
  acquire(): DB | null;
  /** gives a connection back (any open transaction is rolled back) */
  release(db: DB): void;
  readonly inUse: number;
  readonly max: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    exportDb: ReadConnectionPool;
  }
}

/** Exports that may run at the same time. */
export const MAX_CONCURRENT_EXPORTS = 4;

export function openReadOnly(file: string): DB {
  if (file === ':memory:') throw new Error('exports need a database file (an in-memory database has no second connection)');
  const db = new Database(file, { readonly: true, fileMustExist: true });
  // the main connection set WAL on the file; a reader waits rather than fail while a checkpoint holds a lock
  db.pragma('busy_timeout = 5000');
  db.pragma('query_only = ON');
  // an export reads each page once: a small page cache (better-sqlite3's default is 16 MB per
  // connection) keeps several exports' memory low; a large sort spills to a temporary file
  db.pragma('cache_size = -2000');
  db.pragma('temp_store = FILE');
  return db;
}

export default fp(
  async (app, opts: { file: string; max?: number }) => {
    const max = opts.max ?? MAX_CONCURRENT_EXPORTS;
    const idle: DB[] = [];
    const busy = new Set<DB>();
    const pool: ReadConnectionPool = {
      acquire() {
        if (busy.size >= max) return null;
        const db = idle.pop() ?? openReadOnly(opts.file);
        busy.add(db);
        return db;
      },
      release(db) {
        if (!busy.delete(db)) return;
        try {
          if (db.inTransaction) db.exec('ROLLBACK');
          // one idle connection is kept for the next export, with its cache given back
          if (idle.length) db.close();
          else {
            db.pragma('shrink_memory');
            idle.push(db);
          }
        } catch {
          db.close();
        }
      },
      get inUse() {
        return busy.size;
      },
      max,
    };
    app.decorate('exportDb', pool);
    app.addHook('onClose', async () => {
      for (const db of [...idle, ...busy]) {
        try {
          db.close();
        } catch {
          /* an export still iterating: its statement fails and the export stops */
        }
      }
      idle.length = 0;
      busy.clear();
    });
  },
  { name: 'export-db' },
);
