/**
 * npm run codegen            check metadata and (re)write the generated files that changed
 * npm run codegen -- --check fail if a generated file is missing or differs (nothing written)
 * npm run codegen -- --watch regenerate whenever a metadata file changes
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCodegen } from './index.ts';
import { ADMIN_OUT, SERVER_OUT } from './generate.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Writes the files that differ; `prune` also removes generated files no longer made (false when writing only the docs). */
export async function writeOutputs(
  projectRoot: string,
  files: Map<string, string>,
  checkOnly: boolean,
  { prune = true } = {},
): Promise<{ changed: string[]; removed: string[] }> {
  const changed: string[] = [];
  const removed: string[] = [];
  // the server's files first: it starts holding requests at its first file (server/dev.ts), before the page can swap in the admin's
  const serverFirst = (rel: string) => (rel.startsWith(`${SERVER_OUT}/`) ? 0 : 1);
  for (const [rel, content] of [...files].sort(([a], [b]) => serverFirst(a) - serverFirst(b) || a.localeCompare(b))) {
    const p = join(projectRoot, rel);
    const old = existsSync(p) ? readFileSync(p, 'utf8') : null;
    if (old === content) continue;
    changed.push(rel);
    if (!checkOnly) {
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, content);
    }
  }
  for (const dir of prune ? [SERVER_OUT, ADMIN_OUT] : []) {
    const abs = join(projectRoot, dir);
    if (!existsSync(abs)) continue;
    for (const f of readdirSync(abs)) {
      const rel = `${dir}/${f}`;
      if (!files.has(rel)) {
        removed.push(rel);
        if (!checkOnly) rmSync(join(abs, f), { recursive: true });
      }
    }
  }
  return { changed, removed };
}

/** The watch's documentation outputs, written once a burst of runs is over (see `once`). */
let docsTimer: NodeJS.Timeout | undefined;
const DOCS_DELAY_MS = 1500;

/**
 * One run. In watch mode the documentation (reference, entity map: about half of a run, the entity
 * map reading every code file) is written apart, 1.5 s after the last run, so that the page and
 * the server get the edit first and the CPU is theirs while they swap it in.
 */
async function once(checkOnly: boolean, watching = false): Promise<boolean> {
  const t0 = performance.now();
  const result = await runCodegen(join(root, 'metadata'), root, { docsApart: watching });
  if (!result.files) {
    console.error(`codegen: metadata has ${result.errors.length} problem(s):`);
    for (const e of result.errors) console.error(`  ${e.message}`);
    return false;
  }
  const { changed, removed } = await writeOutputs(root, result.files, checkOnly);
  const ms = (performance.now() - t0).toFixed(0);
  if (checkOnly && (changed.length || removed.length)) {
    console.error(`codegen --check: generated files are out of date: ${[...changed, ...removed].join(', ')}`);
    return false;
  }
  console.log(`codegen: ${result.stats} -> ${changed.length} file(s) written, ${removed.length} removed (${ms} ms)`);
  const docs = result.docs;
  if (docs) {
    clearTimeout(docsTimer);
    docsTimer = setTimeout(() => (running = running.then(() => writeOutputs(root, docs(), false, { prune: false }))), DOCS_DELAY_MS);
  }
  return true;
}

/**
 * Calls `onChange` for any change under `dir`. One watcher per directory, not fs.watch's recursive
 * mode: on Linux (Node 20) that one stops reporting a file an editor saved by writing a new file
 * and renaming it over the old one (vim, sed -i). A directory's own watcher sees such renames;
 * directories made later get theirs on the next event.
 */
function watchTree(dir: string, onChange: () => void): void {
  const watched = new Set<string>();
  const scan = (d: string) => {
    if (!watched.has(d)) {
      watched.add(d);
      watch(d, (_event, name) => {
        // metadata is JSON; codegen's own REFERENCE.md (and editors' swap files) are not
        if (name && !String(name).endsWith('.json') && !/^[^.]+$/.test(String(name))) return;
        scan(dir);
        onChange();
      }).on('error', () => watched.delete(d));
    }
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return; // removed meanwhile
    }
    for (const e of entries) if (e.isDirectory()) scan(join(d, e.name));
  };
  scan(dir);
}

const args = process.argv.slice(2);
/** The watch's queue: one run (or docs write) at a time. */
let running: Promise<unknown> = Promise.resolve();
if (args.includes('--watch')) {
  await once(false, true);
  let timer: NodeJS.Timeout | undefined;
  watchTree(join(root, 'metadata'), () => {
    clearTimeout(timer);
    // one run at a time: a burst of saves is one run, a save during a run gets its own run after it
    timer = setTimeout(() => (running = running.then(() => once(false, true))), 30);
  });
  console.log('codegen: watching metadata/ ...');
} else {
  const ok = await once(args.includes('--check'));
  process.exitCode = ok ? 0 : 1;
}
