/**
 * Uploaded files live outside any web root, under names the server generates (UUIDs); the
 * client's file name is only ever data in a row. A storage name that is not a UUID is refused,
 * so no path can be smuggled in.
 *
 * Two stores behind one interface: a directory beside the SQLite file (every process on that
 * machine sees it), and the database itself (table _files), which PostgreSQL deployments use so
 * that a file uploaded through one process or machine is there for every other one.
 */
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../db/types.ts';

const NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const checked = (name: string) => {
  if (!NAME.test(name)) throw new Error('bad storage name');
  return name;
};

export interface FileStore {
  /** 'directory' or 'database', for logs and tests */
  readonly kind: 'directory' | 'database';
  save(data: Buffer): Promise<string>;
  read(name: string): Promise<Buffer>;
  remove(name: string): Promise<void>;
  removeAll(names: string[]): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    fileStore: FileStore;
  }
}

export function createDirectoryStore(dir: string): FileStore {
  mkdirSync(dir, { recursive: true });
  const path = (name: string) => join(dir, checked(name));
  const store: FileStore = {
    kind: 'directory',
    async save(data) {
      const name = randomUUID();
      await writeFile(path(name), data, { flag: 'wx', mode: 0o600 });
      return name;
    },
    read: (name) => readFile(path(name)),
    remove: (name) => rm(path(name), { force: true }),
    async removeAll(names) {
      await Promise.all(names.map((n) => store.remove(n)));
    },
  };
  return store;
}

/**
 * Files as rows of _files. A file is saved before the row that names it is committed (as with the
 * directory), and removed after a replacing or deleting transaction commits; a failed upload
 * removes what it saved.
 */
export function createDatabaseStore(db: Db): FileStore {
  const store: FileStore = {
    kind: 'database',
    async save(data) {
      const name = randomUUID();
      await db.run(`INSERT INTO _files (name, data, size, created_at) VALUES (?, ?, ?, ?)`, [name, data, data.length, new Date().toISOString()]);
      return name;
    },
    async read(name) {
      const row = await db.get<{ data: Buffer | Uint8Array }>(`SELECT data FROM _files WHERE name = ?`, [checked(name)]);
      if (!row) throw Object.assign(new Error('stored file missing'), { code: 'ENOENT' });
      return Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data);
    },
    async remove(name) {
      await db.run(`DELETE FROM _files WHERE name = ?`, [checked(name)]);
    },
    async removeAll(names) {
      for (const n of names) await store.remove(n);
    },
  };
  return store;
}

/** The store of a deployment: the directory beside the SQLite file when given, else the database. */
export const fileStoreFor = (db: Db, filesDir?: string | null): FileStore =>
  filesDir && db.kind === 'sqlite' ? createDirectoryStore(filesDir) : createDatabaseStore(db);

export default fp(
  async (app, opts: { store: FileStore }) => {
    app.decorate('fileStore', opts.store);
  },
  { name: 'file-store' },
);
