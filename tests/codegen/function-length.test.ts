/**
 * tests/support/function-length.ts (run by `npm test`): what it counts as a function's length, and
 * that the project has no long function beyond the ones it lists as known.
 */
import { describe, expect, it } from 'vitest';
import { longFunctions, report } from '../support/function-length.ts';

const statements = (n: number) => Array.from({ length: n }, (_, i) => `  total += ${i};`).join('\n');
const dataRows = (n: number) => Array.from({ length: n }, (_, i) => `    { code: '${i}', label: 'row ${i}' },`).join('\n');

describe('function length', () => {
  it('counts a function from its signature to its closing brace, by the name it is called by', () => {
    const src = `export function long() {\n  let total = 0;\n${statements(150)}\n  return total;\n}\nconst short = () => 1;\nexport const Arrow = () => {\n  let total = 0;\n${statements(149)}\n};\n`;
    expect(longFunctions('a.ts', src)).toEqual([
      { file: 'a.ts', name: 'long', line: 1, lines: 154 },
      { file: 'a.ts', name: 'Arrow', line: 156, lines: 152 },
    ]);
    expect(longFunctions('a.ts', `export function ok() {\n  let total = 0;\n${statements(146)}\n  return total;\n}\n`)).toEqual([]);
  });

  it('leaves out data literals, but not literals that hold functions', () => {
    const table = `export function codes() {\n  return [\n${dataRows(300)}\n  ];\n}\n`;
    expect(longFunctions('t.ts', table)).toEqual([]);
    const handlers = `export function routes() {\n  return {\n${Array.from({ length: 160 }, (_, i) => `    r${i}: () => ${i},`).join('\n')}\n  };\n}\n`;
    expect(longFunctions('r.ts', handlers).map((f) => f.name)).toEqual(['routes']);
  });

  it("measures a test suite's tests one by one, not its describe callback", () => {
    const suite = `describe('x', () => {\n${Array.from({ length: 40 }, (_, i) => `  it('t${i}', () => {\n    expect(${i}).toBe(${i});\n  });`).join('\n')}\n  it('long', () => {\n    let total = 0;\n${statements(150)}\n  });\n});\n`;
    expect(longFunctions('s.test.ts', suite).map((f) => f.name)).toEqual(['(anonymous)']);
  });

  it('finds no long function in the project outside its known list, and no stale entry in that list', () => {
    const { files, unknown, stale } = report();
    // the scan read the project's sources (an empty scan would find nothing long either)
    expect(files).toBeGreaterThan(300);
    expect(unknown).toEqual([]);
    expect(stale).toEqual([]);
  }, 300_000);
});
