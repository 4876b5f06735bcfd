/**
 * Claims of the folder READMEs that drift when code changes: codegen/README.md names every compile
 * step and every check, and server/README.md says as many PostgreSQL transaction retries as
 * server/db/postgres.ts makes.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');
const tsNames = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.replace(/\.ts$/, ''));

describe('folder README claims', () => {
  it('codegen/README.md names every compile step and every check', () => {
    const readme = read('codegen/README.md');
    expect(tsNames('codegen/compile').filter((n) => !readme.includes(`${n}.ts\``))).toEqual([]);
    expect(tsNames('codegen/compile/checks').filter((n) => !readme.includes(`\`${n}\``))).toEqual([]);
  });

  it("server/README.md gives the PostgreSQL driver's retry count", () => {
    const attempts = Number(/const MAX_ATTEMPTS = (\d+);/.exec(read('server/db/postgres.ts'))?.[1]);
    expect(attempts).toBeGreaterThan(1);
    expect(read('server/README.md')).toContain(`is run again (up to ${attempts - 1} more\ntimes)`);
  });
});
