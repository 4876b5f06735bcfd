/**
 * npm run test:newcomer: issue 26's newcomer, whole. In a throw-away copy of the project
 * (tests/support/project-copy.ts) the quality-certificate entity is added as one metadata file plus
 * its two catalogues (tests/codegen/fixtures/supplier-certificate*.json: a "valid to >= valid from"
 * rule and a "not in the past" rule, no hook, no TypeScript), codegen runs, and then the WHOLE unit
 * suite runs there (projects node, server-pg and admin, and the log grep of npm run test:unit), with
 * the certificate's API test (supplier-certificate.api.ts) added beside the server tests so it runs
 * on SQLite and PostgreSQL. Exits non-zero when anything fails, or when the certificate's tests did
 * not run.
 *
 * Too slow for every CI run (the whole unit suite once more); the fast part of it, the certificate's
 * API rule in a copy on both backends and the form's rule, is in the normal suite
 * (tests/codegen/new-entity.test.ts, tests/admin/screens/formBody.test.ts). new-entity.test.ts is
 * the one file left out here: it makes a copy of its own with the same entity (a copy in a copy).
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, addFixtureEntity, copyProject } from './project-copy.ts';

const CERT_TEST = 'tests/server/fixtures/supplier-certificate.test.ts';
const LEFT_OUT = 'tests/codegen/new-entity.test.ts';

interface VitestReport {
  success: boolean;
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

const started = Date.now();
const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
const copy = copyProject('portal-newcomer-');
/** Adds the entity, runs codegen and the whole unit suite in the copy; true when all is green. */
async function newcomer(): Promise<boolean> {
  addFixtureEntity(copy, 'supplier-certificate');
  mkdirSync(join(copy.dir, 'tests/server/fixtures'), { recursive: true });
  copyFileSync(join(ROOT, 'tests/codegen/fixtures/supplier-certificate.api.ts'), join(copy.dir, CERT_TEST));
  console.log(`newcomer: ${copy.dir}: metadata/entities/supplier-certificate.json and its zh-CN / en-US catalogues added`);

  const gen = await copy.run('npx', ['tsx', 'codegen/cli.ts']);
  process.stdout.write(gen.stdout + gen.stderr);
  if (gen.code !== 0) throw new Error('codegen refused the certificate entity');

  const logFile = join(copy.dir, '.tmp/test-logs.ndjson');
  mkdirSync(join(copy.dir, '.tmp'), { recursive: true });
  const report = join(copy.dir, '.tmp/vitest-report.json');
  console.log(`newcomer: the whole unit suite in the copy (all but ${LEFT_OUT}) ... (${seconds()})`);
  const run = await copy.run('npx', ['vitest', 'run', '--exclude', LEFT_OUT, '--reporter=json', `--outputFile=${report}`], {
    env: { PORTAL_TEST_LOG: logFile },
  });
  const r = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
  const failures = r.testResults.flatMap((f) =>
    f.assertionResults
      .filter((a) => a.status === 'failed')
      .map((a) => `${f.name.slice(copy.dir.length + 1)}: ${a.fullName}\n  ${a.failureMessages.join('\n').slice(0, 800)}`),
  );
  for (const f of failures) console.log(`FAILED ${f}`);
  const certTests = r.testResults.filter((f) => f.name.endsWith(CERT_TEST)).flatMap((f) => f.assertionResults);
  console.log(
    `newcomer: ${r.testResults.length} files, ${r.numTotalTests} tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed; ` +
      `the certificate's own tests: ${certTests.filter((a) => a.status === 'passed').length} of ${certTests.length} passed (SQLite and PostgreSQL) (${seconds()})`,
  );
  // as npm run test:unit: no secret or personal value in the run's logs
  const grep = await copy.run('npx', ['tsx', 'tests/support/log-grep.ts', logFile]);
  process.stdout.write(grep.stdout + grep.stderr);
  const ok = run.code === 0 && r.success && failures.length === 0 && certTests.length >= 4 && certTests.every((a) => a.status === 'passed') && grep.code === 0;
  if (!ok && run.code !== 0 && !failures.length) console.log(run.stderr.slice(-4000));
  return ok;
}
let ok: boolean;
try {
  ok = await newcomer();
} finally {
  copy.remove();
}
console.log(ok ? `newcomer: the whole unit suite is green with the certificate entity (${seconds()})` : `newcomer: FAILED (${seconds()})`);
process.exitCode = ok ? 0 : 1;
