/**
 * The checks that only read: each file in codegen/compile/checks/ exports one `Check` (default
 * export) that looks at the compiled model (and the sources, for where things are declared) and
 * reports problems; it builds nothing. Adding a check is adding one file there: this module loads
 * every file of the folder, in name order, when codegen starts.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MetadataSources } from '../load.ts';
import type { CompiledMetadata, Locale } from '../runtime/model.ts';
import type { Report, UnknownOptions } from './context.ts';

export interface CheckContext {
  /** the compiled model (without its hash); parts with errors of their own may be incomplete */
  readonly model: Omit<CompiledMetadata, 'hash'>;
  readonly src: MetadataSources;
  readonly err: Report;
  unknown(file: string, pointer: string, what: string, name: string, choices: Iterable<string>, opts?: UnknownOptions): void;
  /** the text of a key in one language (undefined when missing) */
  text(locale: Locale, key: string): string | undefined;
  hasKey(key: string): boolean;
  /** the file that declares an entity */
  entityFile(entity: string): string;
  /** where a screen is declared: its file, and the pointer prefix of the screen inside it ('' or /screens/<i>) */
  screenAt(screen: string): { file: string; base: string };
}

export interface Check {
  /** what it checks, in one line (codegen/README.md lists them) */
  readonly about: string;
  run(c: CheckContext): void;
}

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'checks');

async function load(): Promise<{ name: string; check: Check }[]> {
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .sort();
  return Promise.all(
    files.map(async (f) => {
      const mod = (await import(pathToFileURL(join(DIR, f)).href)) as { default?: Check };
      if (!mod.default || typeof mod.default.run !== 'function') throw new Error(`codegen/compile/checks/${f} must export a Check as its default export`);
      return { name: f.replace(/\.ts$/, ''), check: mod.default };
    }),
  );
}

/** Every check of codegen/compile/checks/, in file-name order. */
export const CHECKS: readonly { name: string; check: Check }[] = await load();

export function runChecks(c: CheckContext): void {
  for (const { check } of CHECKS) check.run(c);
}
