/**
 * Reads every metadata file into memory, remembering where each came from so that a check can
 * name the file and the JSON pointer. Reading is sorted so every run sees the same order.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { jsonSyntaxError } from './json-syntax.ts';

export interface SourceFile<T = unknown> {
  /** path relative to the project root, with forward slashes (used in error messages) */
  file: string;
  data: T;
  /** raw text, for the content hash */
  text: string;
}

export interface MetadataSources {
  root: string;
  app: SourceFile;
  access: SourceFile;
  /** the notification e-mail templates (mail.json) */
  mail: SourceFile;
  codes: SourceFile[];
  rules: SourceFile[];
  entities: SourceFile[];
  screens: SourceFile[];
  /** locale -> files of that catalogue */
  i18n: Record<string, SourceFile[]>;
  migrations: SourceFile[];
  /** metadata/interfaces.json: the outbox of the external exchange (optional) */
  interfaces: SourceFile | null;
}

/**
 * One problem of the metadata: the file, the JSON pointer of the part at fault and what was
 * expected (`file#pointer: detail`). A file that is not JSON at all has no pointer: its error names
 * the line and column instead (`file:line:column: detail`, the form editors and terminals link).
 */
export class MetadataError extends Error {
  constructor(
    readonly file: string,
    readonly pointer: string,
    readonly detail: string,
    readonly position?: { line: number; column: number },
  ) {
    super(position ? `${file}:${position.line}:${position.column}: ${detail}` : `${file}#${pointer}: ${detail}`);
  }
}

/** Escapes one JSON-pointer segment (RFC 6901). */
export const seg = (s: string | number): string => String(s).replace(/~/g, '~0').replace(/\//g, '~1');
export const ptr = (...parts: (string | number)[]): string => (parts.length ? '/' + parts.map(seg).join('/') : '');

function readJson(projectRoot: string, path: string, errors: MetadataError[]): SourceFile | null {
  const file = relative(projectRoot, path).split('\\').join('/');
  const text = readFileSync(path, 'utf8');
  try {
    return { file, data: JSON.parse(text), text };
  } catch (e) {
    const at = jsonSyntaxError(text);
    errors.push(at ? new MetadataError(file, '', `not valid JSON: ${at.message}`, at) : new MetadataError(file, '', `not valid JSON: ${(e as Error).message}`));
    return null;
  }
}

function readDir(projectRoot: string, dir: string, errors: MetadataError[]): SourceFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && statSync(join(dir, f)).isFile())
    .sort()
    .map((f) => readJson(projectRoot, join(dir, f), errors))
    .filter((x): x is SourceFile => x !== null);
}

/** Loads metadata/ under `metadataDir`; file names in errors are relative to `projectRoot`. */
export function loadSources(metadataDir: string, projectRoot: string): { sources: MetadataSources | null; errors: MetadataError[] } {
  const errors: MetadataError[] = [];
  const need = (name: string): SourceFile | null => {
    const p = join(metadataDir, name);
    if (!existsSync(p)) {
      errors.push(new MetadataError(relative(projectRoot, p), '', 'file is missing'));
      return null;
    }
    return readJson(projectRoot, p, errors);
  };
  const app = need('app.json');
  const access = need('access.json');
  const mail = need('mail.json');
  const i18n: Record<string, SourceFile[]> = {};
  const i18nDir = join(metadataDir, 'i18n');
  if (existsSync(i18nDir)) {
    for (const loc of readdirSync(i18nDir).sort()) {
      if (statSync(join(i18nDir, loc)).isDirectory()) i18n[loc] = readDir(projectRoot, join(i18nDir, loc), errors);
    }
  }
  const sources: MetadataSources = {
    root: metadataDir,
    app: app as SourceFile,
    access: access as SourceFile,
    mail: mail as SourceFile,
    codes: readDir(projectRoot, join(metadataDir, 'codes'), errors),
    rules: readDir(projectRoot, join(metadataDir, 'rules'), errors),
    entities: readDir(projectRoot, join(metadataDir, 'entities'), errors),
    screens: readDir(projectRoot, join(metadataDir, 'screens'), errors),
    i18n,
    migrations: readDir(projectRoot, join(metadataDir, 'migrations'), errors),
    interfaces: existsSync(join(metadataDir, 'interfaces.json')) ? readJson(projectRoot, join(metadataDir, 'interfaces.json'), errors) : null,
  };
  return { sources: app && access && mail ? sources : null, errors };
}

/**
 * The hash of every metadata file (names and texts): the compiled model carries it, and the
 * server compares it with metadata/ at start to tell generated files that are out of date.
 */
export function sourcesHash(src: MetadataSources): string {
  const hash = createHash('sha256');
  for (const f of [
    src.app,
    src.access,
    src.mail,
    ...src.codes,
    ...src.rules,
    ...src.entities,
    ...src.screens,
    ...Object.values(src.i18n).flat(),
    ...src.migrations,
    ...(src.interfaces ? [src.interfaces] : []),
  ]) {
    hash.update(f.file);
    hash.update('\0');
    hash.update(f.text);
  }
  return hash.digest('hex').slice(0, 16);
}
