/**
 * "One metadata file plus its translations" end to end: in a copy of the project, docs/adding-a-screen.md's
 * example entity (supplier contacts: its own code table, an action, a list screen; the fixture in
 * tests/codegen/fixtures) is added as one entity file and its two catalogues, codegen runs, and the
 * generated tests that loop over every entity run against it, unchanged: the access matrix (rows
 * for the new entity come from the generic demo-data generator), index coverage and the bilingual
 * labels, the user menu. No TypeScript is written. With it comes the newcomer's quality-certificate
 * entity (tests/codegen/fixtures/supplier-certificate.json): its "valid to >= valid from" and
 * "valid to not in the past" rules are metadata, and its API test (supplier-certificate.api.ts)
 * runs inside the copy on SQLite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, addFixtureEntity, copyProject, type ProjectCopy } from '../support/project-copy.ts';

const CERT_TEST = 'tests/server/fixtures/supplier-certificate.test.ts';

let copy: ProjectCopy;

beforeAll(() => {
  copy = copyProject('portal-new-entity-');
  addFixtureEntity(copy, 'supplier-contact');
  // the newcomer's quality certificates: a cross-field rule in metadata, no hook; its API test runs inside the copy
  addFixtureEntity(copy, 'supplier-certificate');
  mkdirSync(join(copy.dir, 'tests/server/fixtures'), { recursive: true });
  copyFileSync(join(ROOT, 'tests/codegen/fixtures/supplier-certificate.api.ts'), join(copy.dir, CERT_TEST));
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
    expect(generated.screens.map((s) => s.name)).toContain('supplierCertificateList');

    const report = join(copy.dir, 'vitest-report.json');
    // the tests that derive what they expect from the metadata (menus included): none needs an edit for the new screens
    const files = [
      'tests/server/access-matrix.test.ts',
      'tests/server/index-coverage.test.ts',
      'tests/codegen/i18n.test.ts',
      'tests/admin/permissions.test.ts',
      CERT_TEST,
    ];
    const run = await copy.run('npx', ['vitest', 'run', '--project', 'node', '--project', 'admin', '--reporter=json', `--outputFile=${report}`, ...files], {
      timeoutMs: 540_000,
    });
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
    expect(names.filter((n) => n.startsWith('supplier certificate: compare rules')).length).toBe(2);
  });

  it("the certificate's compare rule holds over HTTP on PostgreSQL too", { timeout: 600_000 }, async () => {
    const report = join(copy.dir, 'vitest-report-pg.json');
    const run = await copy.run('npx', ['vitest', 'run', '--project', 'server-pg', '--reporter=json', `--outputFile=${report}`, CERT_TEST], {
      timeoutMs: 540_000,
    });
    const r = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
    expect(r.numPassedTests, run.stderr.slice(-2000)).toBe(2);
    expect(r.success).toBe(true);
  });
});
