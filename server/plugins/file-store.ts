/**
 * Uploaded files live outside any web root, under names the server generates (UUIDs); the
 * client's file name is only ever data in a row. A storage name that is not a UUID is refused,
 * so no path can be smuggled in.
 */
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface FileStore {
  dir: string;
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

export function createFileStore(dir: string): FileStore {
  mkdirSync(dir, { recursive: true });
  const path = (name: string) => {
    if (!NAME.test(name)) throw new Error('bad storage name');
    return join(dir, name);
  };
  const store: FileStore = {
    dir,
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

export default fp(async (app, opts: { dir: string }) => {
  app.decorate('fileStore', createFileStore(opts.dir));
}, { name: 'file-store' });
