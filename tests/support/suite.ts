/**
 * `npm test`: every stage of tests/support/suite-stages.ts (build, static checks, the unit suite on
 * SQLite and on PostgreSQL, the browser suite on SQLite and on PostgreSQL in shards): the build,
 * then the browser shards two at a time, then the CPU stages two at a time (LANES),
 * each output line prefixed with its stage's name; then
 * the timing report (suite-report.ts): each stage's wall and CPU time, the test counts with every
 * flaky test named, the ten slowest files, kept in .tmp/test-timings.json and .tmp/test-timings.txt.
 *
 * A stage starts when a lane of its kind is free and every stage it waits for has passed; a failed stage does
 * not stop the others (the report shows all that can be known), and the run exits 1 if any stage
 * failed or could not run. Each browser shard gets its own port pair (E2E_PORT), server, database
 * and output folder, so the shards, and two whole suites on one machine, never meet.
 * SUITE_ONLY=name,name runs only those stages (and nothing they wait for): a developer's shortcut.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { STAGES, SUITE_DIR, slug, type Stage } from './suite-stages.ts';
import { playwrightFiles, reportText, vitestFiles, type FileTiming, type StageTiming, type TestCounts } from './suite-report.ts';
import { freePortPair } from '../e2e/e2e-port.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/**
 * How many stages of each lane may run at once (SUITE_CPU_JOBS, SUITE_BROWSER_JOBS override). The
 * build first; then the browser shards, two at a time and nothing else beside them but the last
 * one; then the CPU stages two at a time. Six shards at once ran at a load of 21, a unit stage
 * beside two shards ran 2-4x slower than alone (docs/adr/0046-suite-in-lanes.md).
 */
const LANES: Record<Stage['lane'], number> = {
  cpu: Math.max(1, Number(process.env.SUITE_CPU_JOBS) || 2),
  browser: Math.max(1, Number(process.env.SUITE_BROWSER_JOBS) || 2),
};
const only = process.env.SUITE_ONLY?.split(',').map((s) => s.trim());
const stages = only ? STAGES.filter((s) => only.includes(s.name)).map((s) => ({ ...s, after: (s.after ?? []).filter((a) => only.includes(a)) })) : STAGES;
const t0 = Date.now();
const since = (ms: number) => (ms - t0) / 1000;

rmSync(join(ROOT, SUITE_DIR), { recursive: true, force: true });
mkdirSync(join(ROOT, SUITE_DIR), { recursive: true });

/** Each browser pass's own port pair and output folder (playwright.config.ts reads E2E_OUTPUT_DIR). */
function browserEnv(stage: Stage, taken: number[]): Record<string, string> {
  if (stage.report?.kind !== 'playwright') return {};
  const port = freePortPair(taken);
  taken.push(port, port + 1);
  return { E2E_PORT: String(port), E2E_OUTPUT_DIR: join('test-results', slug(stage.name)) };
}

/** Where a stage's CPU time is written: bash's `times` after the command (its children's user and system time). */
const cpuFile = (stage: Stage) => join(ROOT, SUITE_DIR, `${slug(stage.name)}.cpu`);

/** The CPU seconds (user + system) of a stage's processes, from its `times` line; 0 when unknown. */
function cpuSeconds(stage: Stage): number {
  if (!existsSync(cpuFile(stage))) return 0;
  // second line: the children's "XmY.YYYs XmY.YYYs"
  const children = readFileSync(cpuFile(stage), 'utf8').split('\n')[1] ?? '';
  return [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
}

/** Runs one stage, its output prefixed line by line; resolves with its exit code. */
function run(stage: Stage, env: Record<string, string>): Promise<number> {
  const script = `${stage.command}\n__rc=$?\ntimes > '${cpuFile(stage)}'\nexit $__rc`;
  const child = spawn('bash', ['-c', script], {
    cwd: ROOT,
    env: { ...process.env, ...stage.env, ...env, FORCE_COLOR: '0', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `[${stage.name}] `;
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => process.stdout.write(prefix + line + '\n'));
  return new Promise((ok) => {
    child.on('error', () => ok(127));
    child.on('close', (code, signal) => ok(code ?? (signal ? 1 : 0)));
  });
}

async function runAll(): Promise<StageTiming[]> {
  const timings = new Map<string, StageTiming>();
  const waiting = [...stages];
  const taken: number[] = [];
  const running: Record<Stage['lane'], number> = { cpu: 0, browser: 0 };
  const browsersLeft = () => running.browser + waiting.filter((s) => s.lane === 'browser').length;
  // a CPU stage a waiting browser shard needs (the build) goes first; other CPU stages take the cores the shards leave
  const neededByBrowsers = (stage: Stage) => waiting.some((s) => s.lane === 'browser' && s.after?.includes(stage.name));
  const limit = (stage: Stage): number => {
    if (stage.lane === 'browser') return LANES.browser;
    if (neededByBrowsers(stage) || browsersLeft() === 0) return LANES.cpu;
    // beside the last shard, one
    return browsersLeft() === 1 ? 1 : 0;
  };
  return new Promise((done) => {
    const next = (): void => {
      for (const stage of [...waiting]) {
        const blocked = (stage.after ?? []).map((a) => timings.get(a));
        if (blocked.some((t) => t && t.outcome !== 'passed' && t.seconds >= 0)) {
          waiting.splice(waiting.indexOf(stage), 1);
          timings.set(stage.name, { name: stage.name, startedAt: since(Date.now()), seconds: 0, cpuSeconds: 0, outcome: 'not run' });
          console.log(`[${stage.name}] not run: a stage it waits for did not pass`);
          continue;
        }
        if (running[stage.lane] >= limit(stage) || blocked.some((t) => !t || t.seconds < 0)) continue;
        waiting.splice(waiting.indexOf(stage), 1);
        running[stage.lane]++;
        const start = Date.now();
        const timing: StageTiming = { name: stage.name, startedAt: since(start), seconds: -1, cpuSeconds: 0, outcome: 'failed' };
        timings.set(stage.name, timing);
        console.log(`[${stage.name}] start: ${stage.command}`);
        void run(stage, browserEnv(stage, taken)).then((code) => {
          timing.seconds = (Date.now() - start) / 1000;
          timing.cpuSeconds = cpuSeconds(stage);
          timing.outcome = code === 0 ? 'passed' : 'failed';
          console.log(`[${stage.name}] ${timing.outcome} in ${timing.seconds.toFixed(1)} s${code ? ` (exit ${code})` : ''}`);
          running[stage.lane]--;
          next();
        });
      }
      if (running.cpu + running.browser === 0 && waiting.length === 0) done(stages.map((s) => timings.get(s.name)!));
    };
    next();
  });
}

const timings = await runAll();
const files: FileTiming[] = [];
const counts: TestCounts[] = [];
for (const stage of stages) {
  if (!stage.report) continue;
  const read = stage.report.kind === 'vitest' ? vitestFiles : playwrightFiles;
  const r = read(stage.name, join(ROOT, stage.report.file));
  files.push(...r.files);
  counts.push(r.counts);
}
const wall = since(Date.now());
const text = reportText(timings, files, counts, wall);
writeFileSync(join(ROOT, '.tmp/test-timings.json'), JSON.stringify({ wallSeconds: wall, stages: timings, counts, files }, null, 2));
writeFileSync(join(ROOT, '.tmp/test-timings.txt'), text + '\n');
console.log(text);
process.exit(timings.every((t) => t.outcome === 'passed') ? 0 : 1);
