/**
 * What `npm test` runs (tests/support/suite.ts), as data: each stage's command, what it must wait
 * for, and where it leaves its per-file report. Stages start in this order as lanes free up (four
 * at a time by default, SUITE_JOBS overrides). Why four lanes on two cores, and why these stages:
 * docs/adr/0046-suite-in-lanes.md. In short: a browser pass keeps about a third of a core busy and
 * spends the rest waiting for the page, so the browser suite runs as shards (each its own server,
 * database and port) beside each other and beside the unit suite, which is split where its files
 * are independent (server on SQLite, server on PostgreSQL, codegen and admin, the bench smoke).
 */
import { join } from 'node:path';

export interface Stage {
  /** the name in the timing report (build, typecheck, unit:sqlite, e2e:pg 1/2, ...) */
  name: string;
  /** the shell command, run from the project root */
  command: string;
  /** stages that must have passed before this one starts */
  after?: string[];
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
    report: { kind: 'vitest', file: report },
  };
};

/** Shard `index` of `of` of a browser pass: its own server, database, port and output folder (suite.ts). */
const playwright = (pass: 'sqlite' | 'pg', index: number, of: number): Stage => {
  const name = `e2e:${pass} ${index}/${of}`;
  const report = join(SUITE_DIR, `${slug(name)}.json`);
  return {
    name,
    command: `${pass === 'pg' ? 'npx tsx tests/support/with-postgres.ts ' : ''}npx playwright test --shard=${index}/${of} --reporter=list,json`,
    after: ['build'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report },
    report: { kind: 'playwright', file: report },
  };
};

export const STAGES: Stage[] = [
  { name: 'build', command: 'npm run build' },
  { name: 'typecheck', command: 'npm run typecheck' },
  { name: 'lint', command: 'npm run lint' },
  { name: 'format', command: 'npm run format:check' },
  { name: 'duplication', command: 'npm run duplication' },
  { name: 'function-length', command: 'npm run function-length' },
  // the long ones first, so that no lane waits at the end for one that started late; browser shards
  // (waiting on pages) between unit stages (busy on the CPU), so the lanes share the cores evenly
  playwright('sqlite', 1, 3),
  vitest('unit:pg', ['server-pg'], []),
  playwright('sqlite', 2, 3),
  vitest('unit:sqlite', ['node'], ['tests/server/']),
  playwright('sqlite', 3, 3),
  playwright('pg', 1, 2),
  vitest('unit:bench', ['node'], ['tests/bench/']),
  playwright('pg', 2, 2),
  vitest('unit:codegen+admin', ['node', 'admin'], ['tests/codegen/', 'tests/admin/']),
];
