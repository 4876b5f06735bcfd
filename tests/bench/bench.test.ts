/**
 * The bench suite stays runnable: a smoke run (tiny data, fractions of a second per measurement)
 * through the real entry point, in a child process like `npm run bench`. It asserts only that the
 * results are well formed and no step failed, never a timing. PostgreSQL is part of it wherever it is
 * installed (the bench starts its own throw-away server; about 2 s).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, runTsx } from './lib.ts';
import { validateResults, type BenchResults } from './report.ts';
import { findPgBin } from '../support/postgres.ts';

const dir = mkdtempSync(join(tmpdir(), 'portal-bench-smoke-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench smoke run', () => {
  it('produces well-formed results', async () => {
    const r = await runTsx(join(ROOT, 'tests', 'bench', 'run.ts'), ['--smoke', '--out', dir, '--db', join(dir, 'portal.db')]);
    expect(r.code, r.stderr.slice(-4000)).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'latest.json'), 'utf8')) as BenchResults;
    expect(validateResults(results)).toEqual([]);
    const failed = Object.entries(results.steps)
      .filter(([, s]) => s.status === 'failed')
      .map(([k, s]) => `${k}: ${String(s.error).slice(0, 500)}`);
    expect(failed).toEqual([]);
    for (const step of ['seed', 'startup', 'list', 'sweep', 'ship', 'home', 'codegen']) expect(results.steps[step]?.status, step).toBe('ok');
    // SQLite and (where it is installed) PostgreSQL, each with 1 and 2 server processes, side by side
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const { list, ship, seed } = results.steps as Record<string, any>;
    const pg = findPgBin() !== null;
    const setups = ['sqlite-1', 'sqlite-2', ...(pg ? ['postgres-1', 'postgres-2'] : [])];
    expect(Object.keys(list.setups)).toEqual(setups);
    expect(Object.keys(ship.setups)).toEqual(setups);
    for (const id of setups) {
      // the full page and the screen's lean page; PostgreSQL's lean page also built by PostgreSQL and as records
      expect(Object.keys(list.setups[id].variants), id).toEqual(
        expect.arrayContaining(['generic', 'dbJson', 'lean', ...(id.startsWith('postgres') ? ['leanDbJson', 'leanRecords'] : [])]),
      );
      expect(list.setups[id].leanResponseBytes, id).toBeLessThan(list.setups[id].responseBytes);
      expect(list.setups[id].variants.generic.requests, id).toBeGreaterThan(0);
      expect(ship.setups[id].invariantProblems, id).toEqual([]);
    }
    if (pg) {
      expect(seed.postgres.status).toBe('ok');
      expect(seed.postgres.sameRowCountsAsSqlite).toBe(true);
      expect(list.setups['postgres-1'].variants.generic.dbCpuMsPerReq).toBeGreaterThan(0);
      expect(list.setups['postgres-1'].variants.raw.requests).toBeGreaterThan(0);
    }
    // the page's JSON built by the database is the generic route's, byte for byte, on every declared list query
    for (const backend of pg ? ['sqlite', 'postgres'] : ['sqlite']) {
      const j = list.jsonCheck[backend];
      expect(j.queries, backend).toBeGreaterThan(100);
      expect({ backend, different: j.different, parseEqual: j.parseEqual, examples: j.examples }).toEqual({
        backend,
        different: 0,
        parseEqual: 0,
        examples: [],
      });
    }
    // the browser step runs wherever the admin is built (npm test builds it first); its shape only
    if (existsSync(join(ROOT, 'admin', 'dist', 'index.html'))) {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const ui = results.steps.ui as Record<string, any>;
      expect(ui?.status, String(ui?.error ?? ui?.note)).toBe('ok');
      expect(Object.keys(ui.harness.variants).sort()).toEqual(['datagrid', 'datatable', 'lean', 'leanAll']);
      expect(Object.values(ui.harness.sameCells).every(Boolean), 'every variant shows the same header and first row').toBe(true);
      expect(ui.page.uncached.rowCount).toBeGreaterThan(0);
      expect(ui.page.uncached.fromNetwork).toBe(1);
      // the wan step (issue 21): before and after over an emulated link, bytes per step, CPU with and without compression
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const wan = results.steps.wan as Record<string, any>;
      expect(wan?.status, String(wan?.error ?? wan?.note)).toBe('ok');
      expect(Object.keys(wan.summary).sort()).toEqual(['dsl.after', 'dsl.before']);
      expect(wan.summary['dsl.after'].signIn.kB).toBeLessThan(wan.summary['dsl.before'].signIn.kB);
      expect(wan.pageBytes.lean.br).toBeLessThan(wan.pageBytes.lean.identity);
      expect(wan.compressionCpu.cpuMsPerPage.compressed).toBeGreaterThan(0);
    }
    expect(results.targets.map((t) => t.id)).toEqual(
      expect.arrayContaining([
        'list.ratio',
        'list.p95',
        'index.coverage',
        'ship.overship',
        'ui.render',
        'bundle.initial',
        'codegen.full',
        'codegen.watch',
        'export.100k',
        'startup.ready',
        'pg.list.ratio',
        'pg.list.ratio2',
        'list.p95.twoProcesses.sqlite',
        'list.p95.twoProcesses.postgres',
        'list.cpu.sqlite',
        'list.cpu.postgres',
        'list.dbJson',
        'list.leanDbJson',
        'list.leanRowsJson',
        'wan.page.bytes',
        'wan.slow4g.signIn',
        'wan.slow4g.login',
        'wan.slow4g.orderList',
        'wan.compression.cpu',
      ]),
    );
    const md = readFileSync(join(dir, 'latest.md'), 'utf8');
    expect(md).toMatch(/\| target \| measured \| met \|/);
    expect(md).toMatch(/\| setup \| variant \| req\/s/);
    expect(md).toMatch(/\| setup \| durability \| 1 client ships\/s/);
  }, 1_500_000); // a limit for a loaded machine (four setups, a throw-away PostgreSQL, two browser steps: ui and wan), not a timing
});
