/**
 * tests/support/duplication.ts, the copy-paste gate `npm test` runs: jscpd finds a block two files
 * share, with both places; the gate passes while the tests repeat at most the server's share of
 * their lines and fails otherwise, naming the copies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, verdict, type FolderFigure } from '../support/duplication.ts';

/** a function of `n` distinct statements (several tokens each, so that jscpd's 50-token minimum is met) */
const body = (name: string, n: number) =>
  `export function ${name}(rows: { qty: number }[]) {\n  let total = 0;\n${Array.from({ length: n }, (_, i) => `  total += rows[${i}].qty * ${i + 1};`).join('\n')}\n  return total;\n}\n`;

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'duplication-'));
  // a.ts and b.ts share a 12-statement block; c.ts is alike in shape only (other names, other numbers)
  writeFileSync(join(dir, 'a.ts'), `${body('first', 12)}\nexport const a = 1;\n`);
  writeFileSync(join(dir, 'b.ts'), `export const b = 2;\n\n${body('first', 12)}`);
  writeFileSync(join(dir, 'c.ts'), `export const c = (x: number) => x + 3;\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const figure = (folder: string, lines: number, duplicatedLines: number, copies: FolderFigure['copies'] = []): FolderFigure => ({
  folder,
  lines,
  duplicatedLines,
  percentage: (100 * duplicatedLines) / lines,
  copies,
});

describe('the copy-paste gate', () => {
  it('finds a block two files share and names both places', async () => {
    const f = await measure(dir);
    expect(f.copies).toHaveLength(1);
    const [copy] = f.copies;
    expect([copy.first, copy.second].map((p) => p.replace(/^.*\//, '').replace(/:.*$/, '')).sort()).toEqual(['a.ts', 'b.ts']);
    expect(copy.lines).toBeGreaterThanOrEqual(12);
    expect(f.duplicatedLines).toBeGreaterThanOrEqual(12);
    expect(f.percentage).toBeCloseTo((100 * f.duplicatedLines) / f.lines);
  }, 60_000);

  it('passes while the tests repeat at most the server share of their lines, and fails naming the copies, the longest first', () => {
    const server = figure('server', 10_000, 13);
    expect(verdict(figure('tests', 20_000, 26), server)).toBeUndefined();
    const copies = [
      { lines: 6, first: 'tests/x.test.ts:1-6', second: 'tests/y.test.ts:1-6' },
      { lines: 9, first: 'tests/p.test.ts:3-11', second: 'tests/q.test.ts:5-13' },
    ];
    const failure = verdict(figure('tests', 20_000, 27, copies), server);
    expect(failure).toMatch(/^The tests repeat 0\.14% of their lines, the server 0\.13%/);
    expect(failure!.split('\n').slice(1)).toEqual([
      '  9 lines: tests/p.test.ts:3-11 ~ tests/q.test.ts:5-13',
      '  6 lines: tests/x.test.ts:1-6 ~ tests/y.test.ts:1-6',
    ]);
  });
});
