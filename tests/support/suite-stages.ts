/**
 * What `npm test` runs (tests/support/suite.ts), as data: each stage's command, what it must wait
 * for, its lane, and where it leaves its per-file report. The build first; then the browser suite
 * in shards, two at a time (each its own server, database and port); then the
 * CPU stages two at a time (the unit suite in four independent stages, the static checks), in this
 * order. Why: docs/adr/0046-suite-in-lanes.md. In short: both kinds keep the CPUs busy, and on
 * this 2-core machine more than two busy stages at once lost throughput (a unit stage beside two
 * browser shards ran 2-4x slower than alone, everything at once timed tests out).
 */
import { join } from 'node:path';
import { shardSpecs } from '../e2e/passes.ts';

export interface Stage {
  /** the name in the timing report (build, typecheck, unit:sqlite, e2e:pg 1/2, ...) */
  name: string;
  /** the shell command, run from the project root */
  command: string;
  /** stages that must have passed before this one starts */
  after?: string[];
  /**
   * its lane: 'cpu' stages keep a core busy (build, static checks, the unit suite); 'browser' stages
   * (browser shards: a browser, a server and a test runner each; suite.ts LANES says how many of each run at once)
   */
  lane: 'cpu' | 'browser';
  /** extra environment */
  env?: Record<string, string>;
  /** a per-file report this stage writes: vitest's or Playwright's JSON reporter */
  report?: { kind: 'vitest' | 'playwright'; file: string };
}

/** The folder of one run's reports and logs. */
export const SUITE_DIR = '.tmp/suite';

/** A file name for a stage's own files. */
export const slug = (name: string): string => name.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '');

/** A vitest run of some projects and folders, its app logs grepped for secrets afterwards (log-grep.ts). */
const vitest = (name: string, projects: string[], folders: string[]): Stage => {
  const report = join(SUITE_DIR, `${slug(name)}.json`);
  const log = join(SUITE_DIR, `${slug(name)}-app-logs.ndjson`);
  return {
    name,
    command:
      `rm -f ${log} && PORTAL_TEST_LOG=$PWD/${log} npx vitest run ${projects.map((p) => `--project ${p}`).join(' ')} ${folders.join(' ')} ` +
      `--reporter=default --reporter=json --outputFile.json=${report} && npx tsx tests/support/log-grep.ts ${log}`,
    after: ['build'],
    lane: 'cpu',
    report: { kind: 'vitest', file: report },
  };
};

/** Shard `index` of `files` of a browser pass: its own server, database, port and output folder (suite.ts). */
const playwright = (pass: 'sqlite' | 'pg', index: number, files: string[][]): Stage => {
  const name = `e2e:${pass} ${index + 1}/${files.length}`;
  const report = join(SUITE_DIR, `${slug(name)}.json`);
  return {
    name,
    command: `${pass === 'pg' ? 'npx tsx tests/support/with-postgres.ts ' : ''}npx playwright test ${files[index].join(' ')} --reporter=list,json`,
    after: ['build'],
    lane: 'browser',
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report },
    report: { kind: 'playwright', file: report },
  };
};

/** A browser pass in shards of whole spec files (tests/e2e/passes.ts). */
const shards = (pass: 'sqlite' | 'pg', of: number): Stage[] => {
  const files = shardSpecs(pass, of);
  return files.map((_, i) => playwright(pass, i, files));
};

const cpu = (name: string, command: string, after: string[] = []): Stage => ({ name, command, after, lane: 'cpu' });

export const STAGES: Stage[] = [
  cpu('build', 'npm run build'),
  // the browser shards as soon as the build is there, two at a time: the longest part of the run
  ...shards('sqlite', 4),
  ...shards('pg', 2),
  // then the CPU stages, two at a time: the unit suite, longest first, then the static checks
  vitest('unit:pg', ['server-pg'], []),
  vitest('unit:sqlite', ['node'], ['tests/server/']),
  vitest('unit:codegen+admin', ['node', 'admin'], ['tests/codegen/', 'tests/admin/']),
  vitest('unit:bench', ['node'], ['tests/bench/']),
  cpu('typecheck', 'npm run typecheck'),
  cpu('lint', 'npm run lint'),
  cpu('format', 'npm run format:check'),
  cpu('duplication', 'npm run duplication'),
  cpu('function-length', 'npm run function-length'),
];
