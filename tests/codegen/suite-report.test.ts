/**
 * The timing report of `npm test` (tests/support/suite-report.ts): per-file times and test counts
 * read from vitest's and Playwright's JSON reports, a test that passed only on its retry named as
 * flaky, the slowest files first. Made-up reports in the shapes the two reporters write.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { playwrightFiles, reportText, vitestFiles } from '../support/suite-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'suite-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const root = resolve(import.meta.dirname, '../..');

function write(name: string, data: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(data));
  return file;
}

describe('the suite report', () => {
  it('reads vitest files: time from start to end, tests by outcome', () => {
    const file = write('vitest.json', {
      testResults: [
        { name: join(root, 'tests/server/a.test.ts'), startTime: 1000, endTime: 4500, assertionResults: [{ status: 'passed' }, { status: 'failed' }] },
        { name: join(root, 'tests/server/b.test.ts'), startTime: 0, endTime: 500, assertionResults: [{ status: 'skipped' }] },
      ],
    });
    const { files, counts } = vitestFiles('unit:sqlite', file);
    expect(files).toEqual([
      { stage: 'unit:sqlite', file: 'tests/server/a.test.ts', seconds: 3.5, tests: 2 },
      { stage: 'unit:sqlite', file: 'tests/server/b.test.ts', seconds: 0.5, tests: 1 },
    ]);
    expect(counts).toEqual({ stage: 'unit:sqlite', passed: 1, failed: 1, skipped: 1, flaky: [] });
  });

  it('reads Playwright files: every attempt counted, a test passed on its retry named flaky', () => {
    const file = write('playwright.json', {
      suites: [
        {
          file: 'shell.spec.ts',
          title: 'shell.spec.ts',
          specs: [{ title: 'logs in', tests: [{ status: 'expected', results: [{ duration: 2000 }] }] }],
          suites: [
            {
              file: 'shell.spec.ts',
              title: 'tabs',
              specs: [{ title: 'closes others', tests: [{ status: 'flaky', results: [{ duration: 3000 }, { duration: 1500 }] }] }],
            },
          ],
        },
        {
          file: 'home.spec.ts',
          title: 'home.spec.ts',
          specs: [{ title: 'tiles', tests: [{ status: 'unexpected', results: [{ duration: 500 }, { duration: 500 }] }] }],
        },
      ],
    });
    const { files, counts } = playwrightFiles('e2e:sqlite 1/3', file);
    expect(files).toEqual([
      { stage: 'e2e:sqlite 1/3', file: 'tests/e2e/shell.spec.ts', seconds: 6.5, tests: 2 },
      { stage: 'e2e:sqlite 1/3', file: 'tests/e2e/home.spec.ts', seconds: 1, tests: 1 },
    ]);
    expect(counts).toEqual({ stage: 'e2e:sqlite 1/3', passed: 2, failed: 1, skipped: 0, flaky: ['shell.spec.ts › tabs › closes others'] });
  });

  it('a report that is missing (a stage that did not run) counts nothing', () => {
    expect(vitestFiles('unit:pg', join(dir, 'none.json'))).toEqual({ files: [], counts: { stage: 'unit:pg', passed: 0, failed: 0, skipped: 0, flaky: [] } });
  });

  it('prints stages with their CPU, flaky tests as defects, the slowest files first, and a closing count', () => {
    const text = reportText(
      [{ name: 'build', startedAt: 0, seconds: 20, cpuSeconds: 30, outcome: 'passed' }],
      [
        { stage: 'unit:sqlite', file: 'tests/server/fast.test.ts', seconds: 1, tests: 3 },
        { stage: 'e2e:pg 1/2', file: 'tests/e2e/slow.spec.ts', seconds: 90, tests: 4 },
      ],
      [{ stage: 'e2e:pg 1/2', passed: 7, failed: 0, skipped: 0, flaky: ['slow.spec.ts › x'] }],
      60,
    );
    expect(text).toContain('FLAKY');
    expect(text).toContain('slow.spec.ts › x');
    expect(text.indexOf('slow.spec.ts (4 tests)')).toBeLessThan(text.indexOf('fast.test.ts (3 tests)'));
    expect(text).toMatch(/all stages .*\(0\.50 cores busy/);
    expect(text.trimEnd().split('\n').at(-1)).toBe('7 passed, 0 failed');
  });
});
