/**
 * The timing report of `npm test` (tests/support/suite.ts): each stage's wall time, and each test
 * file's time read from the stage's JSON report (vitest's `json` reporter, Playwright's `json`
 * reporter), so every change shows what it costs. Written to .tmp/test-timings.json and
 * .tmp/test-timings.txt; the text is also printed at the end of the run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

export interface StageTiming {
  name: string;
  /** seconds from the run's start to this stage's start */
  startedAt: number;
  seconds: number;
  /** CPU seconds (user + system) of the processes it waited for: processes reparented away (Chromium's renderers) escape it */
  cpuSeconds: number;
  /** 'passed' | 'failed' | 'not run' (a stage it waited for failed) */
  outcome: 'passed' | 'failed' | 'not run';
}

export interface FileTiming {
  stage: string;
  file: string;
  seconds: number;
  tests: number;
}

export interface TestCounts {
  stage: string;
  passed: number;
  failed: number;
  skipped: number;
  /** browser tests that failed once and passed on the retry: named, and a defect to fix */
  flaky: string[];
}

interface VitestReport {
  testResults: { name: string; startTime: number; endTime: number; assertionResults: { status: string }[] }[];
}

interface PlaywrightSuite {
  file: string;
  title: string;
  specs?: { title: string; tests: { status: string; results: { duration: number }[] }[] }[];
  suites?: PlaywrightSuite[];
}

const readJson = <T>(file: string): T | null => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : null);

/** Per-file times and test counts of one vitest JSON report. */
export function vitestFiles(stage: string, file: string): { files: FileTiming[]; counts: TestCounts } {
  const report = readJson<VitestReport>(file);
  const counts: TestCounts = { stage, passed: 0, failed: 0, skipped: 0, flaky: [] };
  const files = (report?.testResults ?? []).map((r) => {
    for (const a of r.assertionResults) {
      if (a.status === 'passed') counts.passed++;
      else if (a.status === 'failed') counts.failed++;
      else counts.skipped++;
    }
    return { stage, file: relative(ROOT, r.name), seconds: (r.endTime - r.startTime) / 1000, tests: r.assertionResults.length };
  });
  return { files, counts };
}

/** Per-file times (all attempts of all tests) and test counts of one Playwright JSON report. */
export function playwrightFiles(stage: string, file: string): { files: FileTiming[]; counts: TestCounts } {
  const report = readJson<{ suites: PlaywrightSuite[] }>(file);
  const counts: TestCounts = { stage, passed: 0, failed: 0, skipped: 0, flaky: [] };
  const byFile = new Map<string, FileTiming>();
  const walk = (suite: PlaywrightSuite, path: string[]): void => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        const entry = byFile.get(suite.file) ?? { stage, file: `tests/e2e/${suite.file}`, seconds: 0, tests: 0 };
        entry.tests++;
        entry.seconds += t.results.reduce((s, r) => s + r.duration, 0) / 1000;
        byFile.set(suite.file, entry);
        if (t.status === 'expected') counts.passed++;
        else if (t.status === 'flaky') {
          counts.passed++;
          counts.flaky.push([suite.file, ...path, spec.title].join(' › '));
        } else if (t.status === 'skipped') counts.skipped++;
        else counts.failed++;
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const s of report?.suites ?? []) walk(s, []);
  return { files: [...byFile.values()], counts };
}

const pad = (s: string, n: number) => s.padEnd(n);
const secs = (s: number) => `${s.toFixed(1).padStart(7)} s`;
const clock = (s: number) => `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;

/** The text of the report: stages, test counts (flaky named), the ten slowest files. */
export function reportText(stages: StageTiming[], files: FileTiming[], counts: TestCounts[], wallSeconds: number): string {
  const lines = [
    '',
    `npm test: ${clock(wallSeconds)} wall time (stages run side by side in lanes; a stage's time is its own wall time, its CPU that of all its processes)`,
    '',
  ];
  lines.push(`  ${pad('stage', 20)} ${'start'.padStart(9)} ${'time'.padStart(9)} ${'CPU'.padStart(9)}  outcome`);
  for (const s of stages) lines.push(`  ${pad(s.name, 20)} ${secs(s.startedAt)} ${secs(s.seconds)} ${secs(s.cpuSeconds)}  ${s.outcome}`);
  const cpu = stages.reduce((sum, s) => sum + s.cpuSeconds, 0);
  lines.push(
    `  ${pad('all stages', 20)} ${''.padStart(9)} ${secs(wallSeconds)} ${secs(cpu)}  (${(cpu / Math.max(1, wallSeconds)).toFixed(2)} cores busy on average)`,
  );
  lines.push('', '  tests by stage:');
  for (const c of counts) {
    lines.push(`  ${pad(c.stage, 18)} ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped, ${c.flaky.length} flaky`);
    for (const f of c.flaky) lines.push(`    FLAKY (passed only on its retry: a defect to fix, docs/adr/0045-browser-suite-retry.md): ${f}`);
  }
  lines.push('', '  the ten slowest test files:');
  for (const f of [...files].sort((a, b) => b.seconds - a.seconds).slice(0, 10))
    lines.push(`  ${secs(f.seconds)}  ${pad(f.stage, 12)} ${f.file} (${f.tests} tests)`);
  const total = counts.reduce((t, c) => ({ passed: t.passed + c.passed, failed: t.failed + c.failed }), { passed: 0, failed: 0 });
  lines.push('', `${total.passed} passed, ${total.failed} failed`);
  return lines.join('\n');
}
