/**
 * Codegen in watch mode, timed: a copy of metadata/ in a temporary folder is watched the way
 * `npm run codegen -- --watch` watches the real one (fs.watch, 50 ms debounce, regenerate, write
 * what changed); one entity file is touched N times and the time from the touch to the written
 * output is measured. Nothing in the project is touched. Prints one JSON line:
 * { samples (touch -> done, ms), inProcessMs (the regeneration itself), coldMs (the first, full run
 * in this process), touched, stale }.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCodegen } from '../../codegen/index.ts';
import { ROOT } from './lib.ts';

const n = Number(process.argv[2] ?? 5);
const root = mkdtempSync(join(tmpdir(), 'portal-codegen-'));
const meta = join(root, 'metadata');
cpSync(join(ROOT, 'metadata'), meta, { recursive: true });

async function regenerate(): Promise<{ ms: number; changed: number }> {
  const t = performance.now();
  const r = await runCodegen(meta, root);
  if (!r.files) throw new Error(r.errors.map((e) => e.message).join('\n'));
  let changed = 0;
  for (const [rel, content] of r.files) {
    const p = join(root, rel);
    if (existsSync(p) && readFileSync(p, 'utf8') === content) continue;
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
    changed++;
  }
  return { ms: performance.now() - t, changed };
}

try {
  // the first run in a fresh process: what `npm run codegen` does after node and tsx have started
  const cold = await regenerate();
  // whether the project's own generated files match its metadata (a stale tree would time differently)
  const fresh = await runCodegen(join(ROOT, 'metadata'), ROOT);
  const stale = !fresh.files || [...fresh.files].some(([rel, c]) => !existsSync(join(ROOT, rel)) || readFileSync(join(ROOT, rel), 'utf8') !== c);

  const touched = join(meta, 'entities', 'order.json');
  const samples: number[] = [];
  const inProcessMs: number[] = [];
  let done: ((ms: number) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(meta, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      void regenerate().then((r) => {
        inProcessMs.push(r.ms);
        done?.(performance.now());
      });
    }, 50);
  });
  const original = readFileSync(touched, 'utf8');
  // one more round than asked: the first regeneration in watch mode runs cold code paths
  for (let i = 0; i <= n; i++) {
    // a real edit: the description changes, so the generated metadata changes and is written
    const edited = original.replace(/"description": "/, `"description": "(${i}) `);
    const t = performance.now();
    const finished = new Promise<number>((ok) => (done = ok));
    writeFileSync(touched, edited);
    samples.push((await finished) - t);
    await new Promise((r) => setTimeout(r, 100));
  }
  watcher.close();
  samples.shift();
  inProcessMs.shift();
  console.log(JSON.stringify({ samples, inProcessMs, coldMs: cold.ms, touched: 'metadata/entities/order.json (copy)', stale }));
} finally {
  rmSync(root, { recursive: true, force: true });
}
