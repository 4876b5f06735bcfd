/**
 * A fresh copy of the real metadata for each test (beforeEach/afterEach), to be broken in one
 * place: `edit` changes one file, `errorsOf` runs codegen over the copy, `expectError` finds the
 * error that names the file and the JSON pointer. Shared by the codegen check tests.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCodegen } from '../../codegen/index.ts';
import { addFixtureEntity } from '../support/project-copy.ts';

const ROOT = resolve(import.meta.dirname, '../..');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function useMetadataCopy(prefix: string) {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    cpSync(join(ROOT, 'metadata'), join(dir, 'metadata'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const copy = {
    /** the temporary folder of this test (its metadata is in `metadata/`) */
    get dir() {
      return dir;
    },
    edit(file: string, fn: (j: Json) => void): void {
      const p = join(dir, 'metadata', file);
      const j = JSON.parse(readFileSync(p, 'utf8')) as Json;
      fn(j);
      writeFileSync(p, JSON.stringify(j, null, 2));
    },
    /** adds a fixture entity of tests/codegen/fixtures with its translations (support/project-copy.ts addFixtureEntity) */
    addFixture(name: string): void {
      addFixtureEntity({ writeMetadata: (file, content) => writeFileSync(join(dir, 'metadata', file), JSON.stringify(content, null, 2)) }, name);
    },
    run: () => runCodegen(join(dir, 'metadata'), dir),
    async errorsOf(): Promise<string[]> {
      return (await copy.run()).errors.map((e) => e.message);
    },
    async expectError(file: string, pointer: string, text: RegExp): Promise<void> {
      const errs = await copy.errorsOf();
      const hit = errs.find((m) => m.startsWith(`metadata/${file}#${pointer}:`) && text.test(m));
      expect(hit, `expected an error at metadata/${file}#${pointer} matching ${text}; got:\n${errs.join('\n')}`).toBeTruthy();
    },
  };
  return copy;
}
