/**
 * The bench suite stays runnable: a smoke run (tiny data, fractions of a second per measurement)
 * through the real entry point, in a child process like `npm run bench`. It asserts only that the
 * results are well formed and no step failed, never a timing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runTsx } from './lib.ts';
import { validateResults, type BenchResults } from './report.ts';

const dir = mkdtempSync(join(tmpdir(), 'portal-bench-smoke-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench smoke run', () => {
  it('produces well-formed results', async () => {
    const r = await runTsx(join(ROOT, 'tests', 'bench', 'run.ts'), ['--smoke', '--out', dir, '--db', join(dir, 'portal.db')]);
    expect(r.code, r.stderr.slice(-4000)).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'latest.json'), 'utf8')) as BenchResults;
    expect(validateResults(results)).toEqual([]);
    const failed = Object.entries(results.steps).filter(([, s]) => s.status === 'failed').map(([k, s]) => `${k}: ${String(s.error).slice(0, 500)}`);
    expect(failed).toEqual([]);
    for (const step of ['seed', 'startup', 'list', 'sweep', 'ship', 'codegen']) expect(results.steps[step]?.status, step).toBe('ok');
    // the browser step runs wherever the admin is built (npm test builds it first); its shape only
    if (existsSync(join(ROOT, 'admin', 'dist', 'index.html'))) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const ui = results.steps.ui as Record<string, any>;
      expect(ui?.status, String(ui?.error ?? ui?.note)).toBe('ok');
      expect(Object.keys(ui.harness.variants).sort()).toEqual(['datagrid', 'datatable', 'lean', 'leanAll']);
      expect(Object.values(ui.harness.sameCells).every(Boolean), 'every variant shows the same header and first row').toBe(true);
      expect(ui.page.uncached.rowCount).toBeGreaterThan(0);
      expect(ui.page.uncached.fromNetwork).toBe(1);
    }
    expect(results.targets.map((t) => t.id)).toEqual(expect.arrayContaining(['list.ratio', 'list.p95', 'index.coverage', 'ship.overship', 'ui.render', 'bundle.initial', 'codegen.full', 'codegen.watch', 'export.100k', 'startup.ready']));
    expect(readFileSync(join(dir, 'latest.md'), 'utf8')).toMatch(/\| target \| measured \| met \|/);
  }, 180_000);
});
