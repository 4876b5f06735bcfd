/**
 * "One metadata file plus its translations" end to end: in a copy of the project, the README's
 * example entity (supplier contacts: its own code table, an action, a list screen; the fixture in
 * tests/codegen/fixtures) is added as one entity file and its two catalogues, codegen runs, and the
 * generated tests that loop over every entity run against it, unchanged: the access matrix (rows
 * for the new entity come from the generic demo-data generator), index coverage and the bilingual
 * labels. No TypeScript is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addFixtureEntity, copyProject, type ProjectCopy } from '../support/project-copy.ts';

let copy: ProjectCopy;

beforeAll(() => {
  copy = copyProject('portal-new-entity-');
  addFixtureEntity(copy, 'supplier-contact');
});
afterAll(() => copy?.remove());

interface VitestReport {
  success: boolean;
  numFailedTests: number;
  numPassedTests: number;
  testResults: { name: string; status: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}

describe('a new entity as one metadata file plus translations', () => {
  it('passes codegen and the generated access-matrix, index-coverage and bilingual tests with no code', { timeout: 600_000 }, async () => {
    const gen = await copy.run('npx', ['tsx', 'codegen/cli.ts'], { timeoutMs: 120_000 });
    expect(gen.code, gen.stderr + gen.stdout).toBe(0);
    const generated = JSON.parse(readFileSync(join(copy.dir, 'server/generated/metadata.json'), 'utf8')) as {
      entities: Record<string, unknown>;
      screens: { name: string }[];
    };
    expect(generated.entities.supplierContact).toBeDefined();
    expect(generated.screens.map((s) => s.name)).toContain('supplierContactList');

    const report = join(copy.dir, 'vitest-report.json');
    const files = ['tests/server/access-matrix.test.ts', 'tests/server/index-coverage.test.ts', 'tests/codegen/i18n.test.ts'];
    const run = await copy.run('npx', ['vitest', 'run', '--project', 'node', '--reporter=json', `--outputFile=${report}`, ...files], { timeoutMs: 540_000 });
    const r = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
    const failures = r.testResults.flatMap((f) =>
      f.assertionResults.filter((a) => a.status !== 'passed').map((a) => `${a.fullName}: ${a.failureMessages.join('\n').slice(0, 600)}`),
    );
    expect(failures, run.stderr.slice(-2000)).toEqual([]);
    expect(run.code).toBe(0);
    expect(r.success).toBe(true);
    // every file ran, and the access matrix looped over the new resource
    expect(r.testResults.map((f) => f.name.slice(copy.dir.length + 1)).sort()).toEqual([...files].sort());
    const names = r.testResults.flatMap((f) => f.assertionResults.map((a) => a.fullName));
    expect(names.filter((n) => n.startsWith('supplier-contacts ')).length).toBeGreaterThanOrEqual(4);
    expect(r.numPassedTests).toBeGreaterThan(80);
  });
});
