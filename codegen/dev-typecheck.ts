/**
 * The type check of `npm run dev`: `tsc --watch` over the project's hand-written business code
 * (server/hooks, server/handlers, and what they import: the generated types, the engine), through
 * tsconfig.hooks.json (incremental). A hook that names a field nobody has ('validTO') or a
 * message key that does not exist is reported within seconds of the save, in the terminal and, via
 * the report file, in the browser's error overlay (admin/vite.config.ts), instead of only by the
 * full `npm run typecheck`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';

export const TYPECHECK_CONFIG = 'tsconfig.hooks.json';
/** tsc --watch's niceness (0 normal, 19 lowest): it gets whatever CPU the rest of the loop leaves */
const TYPECHECK_NICENESS = 5;
/** Where the last report is written, relative to the project root (the admin's dev server watches it). */
export const TYPES_REPORT = '.tmp/dev/types.json';

export interface TypesReport {
  /** "file(line,col): error TSxxxx: text", as tsc prints them */
  errors: string[];
}

/** Turns tsc --watch output, line by line, into one report per finished pass ("Found N errors"). */
export function tscWatchParser(onReport: (r: TypesReport) => void): (line: string) => void {
  let errors: string[] = [];
  return (line: string) => {
    if (/error TS\d+:/.test(line)) errors.push(line.trim());
    else if (/^\s+\S/.test(line) && errors.length) errors[errors.length - 1] += `\n${line.trimEnd()}`;
    else if (/Found \d+ errors?\. Watching for file changes/.test(line)) {
      onReport({ errors });
      errors = [];
    }
  };
}

/** Starts `tsc --watch` in `root` (in a process group of its own); every finished pass goes to `onReport` and the report file. */
export function watchTypes(root: string, onReport: (r: TypesReport) => void): ChildProcess {
  const child = spawn(join(root, 'node_modules', '.bin', 'tsc'), ['--watch', '--preserveWatchOutput', '--pretty', 'false', '-p', TYPECHECK_CONFIG], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  // below the loop's own processes: a metadata edit rewrites server/generated/ and so wakes tsc too,
  // which must not take the CPU from codegen, the server's reload and Vite (the edit on screen first)
  try {
    if (child.pid) setPriority(child.pid, TYPECHECK_NICENESS);
  } catch {
    /* not allowed here: same priority */
  }
  const file = join(root, TYPES_REPORT);
  mkdirSync(dirname(file), { recursive: true });
  const feed = tscWatchParser((r) => {
    writeFileSync(file, JSON.stringify(r));
    onReport(r);
  });
  let rest = '';
  for (const s of [child.stdout, child.stderr])
    s?.on('data', (d: Buffer) => {
      const lines = (rest + d.toString()).split('\n');
      rest = lines.pop() ?? '';
      lines.forEach(feed);
    });
  return child;
}
