/**
 * A throw-away copy of the whole project (sources, metadata, tests and configuration; node_modules
 * linked, never copied; no generated files, builds or data), in which a test changes metadata and
 * runs the project's own commands: codegen, vitest, the dev loop. What a developer does in a
 * checkout, without touching this one.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve, sep } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Top-level entries a checkout needs; the rest (node_modules, data, builds, .git) stays out. */
const ENTRIES = [
  'README.md',
  '.gitignore',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.hooks.json',
  'vitest.config.ts',
  'playwright.config.ts',
  'metadata',
  'codegen',
  'server',
  'admin',
  'tests',
  'docs',
];
/** Never copied: made by codegen and builds, or results of earlier runs. */
const SKIP = ['server/generated', 'admin/src/generated', 'admin/dist', 'server/dist', 'tests/bench/results', 'test-results', 'playwright-report'];

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ProjectCopy {
  dir: string;
  /** reads, changes and writes one metadata file (path relative to metadata/) */
  editMetadata(file: string, fn: (j: Json) => void): void;
  /** writes a metadata file (path relative to metadata/) */
  writeMetadata(file: string, content: unknown): void;
  /** runs a command in the copy; resolves with its exit code and output */
  run(cmd: string, args: string[], opts?: { env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<RunResult>;
  /** starts a long-running command in the copy (the caller stops it) */
  start(cmd: string, args: string[], opts?: { env?: NodeJS.ProcessEnv }): ChildProcess;
  remove(): void;
}

export function copyProject(prefix = 'portal-copy-'): ProjectCopy {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const skip = SKIP.map((s) => join(ROOT, s));
  for (const entry of ENTRIES) {
    cpSync(join(ROOT, entry), join(dir, entry), {
      recursive: true,
      filter: (src) => !skip.some((s) => src === s || src.startsWith(s + sep)) && basename(src) !== '.tmp',
    });
  }
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'), 'dir');
  // a repository of its own, as a clone is: tests that ask git which files the project holds (the
  // Markdown links) read the copy's files, not the original's
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const env = (extra: NodeJS.ProcessEnv = {}) => {
    // vitest's own variables must not leak into a vitest started inside the copy
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && k !== 'TEST'));
    return { ...base, FORCE_COLOR: '0', ...extra };
  };
  const copy: ProjectCopy = {
    dir,
    editMetadata(file, fn) {
      const p = join(dir, 'metadata', file);
      const j = JSON.parse(readFileSync(p, 'utf8')) as Json;
      fn(j);
      writeFileSync(p, JSON.stringify(j, null, 2) + '\n');
    },
    writeMetadata(file, content) {
      writeFileSync(join(dir, 'metadata', file), typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
    },
    run(cmd, args, opts = {}) {
      return runToEnd(spawn(cmd, args, { cwd: dir, env: env(opts.env), stdio: ['ignore', 'pipe', 'pipe'] }), opts.timeoutMs);
    },
    start(cmd, args, opts = {}) {
      // its own process group: stopping it ends its children too (tsx watch, vite)
      return spawn(cmd, args, { cwd: dir, env: env(opts.env), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return copy;
}

/**
 * The exit code and output of a child started with piped stdout and stderr, killed after `timeoutMs`
 * if given. It answers once the output is closed (all of it read), or with `end: 'exit'` once the
 * child itself has exited (processes it forked may hold the output open longer).
 */
export function runToEnd(child: ChildProcess, timeoutMs?: number, end: 'close' | 'exit' = 'close'): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = timeoutMs ? setTimeout(() => child.kill('SIGKILL'), timeoutMs) : undefined;
    child.on('error', reject);
    child.on(end, (code: number | null) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Adds the fixture entity of tests/codegen/fixtures (`<name>.json` and `<name>.i18n.json`) as metadata/entities/<name>.json plus its two catalogues. */
export function addFixtureEntity(copy: Pick<ProjectCopy, 'writeMetadata'>, name: string): void {
  const fixtures = join(ROOT, 'tests/codegen/fixtures');
  const entity = JSON.parse(readFileSync(join(fixtures, `${name}.json`), 'utf8')) as Json;
  entity.$schema = '../schema/entity.schema.json';
  copy.writeMetadata(`entities/${name}.json`, entity);
  const tr = JSON.parse(readFileSync(join(fixtures, `${name}.i18n.json`), 'utf8')) as Record<string, unknown>;
  for (const [loc, msgs] of Object.entries(tr)) copy.writeMetadata(`i18n/${loc}/${name}.json`, msgs);
}

/** Stops a process started with `start` and its children (its process group); waits for the exit. */
export async function stopGroup(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  const kill = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      /* already gone */
    }
  };
  kill('SIGTERM');
  const timer = setTimeout(() => kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
