/**
 * npx tsx tests/support/function-length.ts: reports every function longer than 150 lines in the
 * project's hand-written TypeScript (codegen, server, admin/src, tests), and fails when one is not
 * in KNOWN_LONG or a KNOWN_LONG entry has become short (so the list only shrinks). `npm test` runs it.
 *
 * A function's length is its lines from signature to closing brace, nested functions included (a
 * route table of arrow functions is one long function), minus the lines of data literals inside it:
 * an object or array literal that holds no function is a table, not logic, and may be as long as
 * its data. A test suite's `describe` callback is a container, not a function anyone reads whole:
 * its tests are measured one by one. Read with the TypeScript compiler's parser, not by counting braces.
 */
import ts from 'typescript';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const MAX_LINES = 150;
const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['codegen', 'server', 'admin/src', 'tests'];
const SKIP_DIRS = new Set(['generated', 'node_modules', 'dist', 'fixtures', 'results']);

/**
 * Functions known to be too long, each ("file name": reason) with the work that will split it; empty
 * now that every one is split. The script fails on an entry that no longer needs to be here.
 */
const KNOWN_LONG: Record<string, string> = {};

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  lines: number;
}

const isFunction = (n: ts.Node): n is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n) ||
  ts.isSetAccessorDeclaration(n);

const containsFunction = (n: ts.Node): boolean => isFunction(n) || (ts.forEachChild(n, (c) => (containsFunction(c) ? true : undefined)) ?? false);

/** The callback of `describe(...)` (also `describe.each(...)(...)`, `test.describe(...)`). */
function isSuiteCallback(fn: ts.FunctionLikeDeclaration): boolean {
  const call = fn.parent;
  if (!ts.isCallExpression(call)) return false;
  const callee = call.expression.getText();
  return /^(test\.)?describe\b/.test(callee);
}

/** The name people call a function by: its own, or that of the variable, property or argument it is assigned to. */
function functionName(fn: ts.FunctionLikeDeclaration, sf: ts.SourceFile): string {
  if (fn.name) return fn.name.getText(sf);
  const p = fn.parent;
  if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name) return p.name.getText(sf);
  // a component wrapped in memo() or forwardRef(): the variable the call is assigned to
  if (ts.isCallExpression(p) && ts.isVariableDeclaration(p.parent)) return p.parent.name.getText(sf);
  return '(anonymous)';
}

const lineOf = (sf: ts.SourceFile, pos: number) => sf.getLineAndCharacterOfPosition(pos).line;

/** Lines of `node` that pure data literals (object or array literals holding no function) take up. */
function dataLines(node: ts.Node, sf: ts.SourceFile): number {
  let lines = 0;
  const visit = (n: ts.Node) => {
    if ((ts.isObjectLiteralExpression(n) || ts.isArrayLiteralExpression(n)) && !containsFunction(n)) {
      lines += lineOf(sf, n.getEnd()) - lineOf(sf, n.getStart(sf));
      return;
    }
    ts.forEachChild(n, visit);
  };
  ts.forEachChild(node, visit);
  return lines;
}

/** The functions of one source text longer than `max` lines (data literals excluded). */
export function longFunctions(file: string, text: string, max = MAX_LINES): LongFunction[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: LongFunction[] = [];
  const visit = (n: ts.Node) => {
    if (isFunction(n) && n.body && !isSuiteCallback(n)) {
      const start = lineOf(sf, n.getStart(sf));
      const lines = lineOf(sf, n.getEnd()) - start + 1 - dataLines(n.body, sf);
      if (lines > max) out.push({ file, name: functionName(n, sf), line: start + 1, lines });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) out.push(...sourceFiles(join(dir, e.name)));
    } else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(join(dir, e.name));
  }
  return out;
}

/** Every long function of the project, and what to say about the KNOWN_LONG list. */
export function report(root = ROOT): { files: number; long: LongFunction[]; unknown: LongFunction[]; stale: string[] } {
  const files = FOLDERS.flatMap((f) => sourceFiles(join(root, f)));
  const long = files.flatMap((abs) => longFunctions(relative(root, abs), readFileSync(abs, 'utf8')));
  const key = (f: LongFunction) => `${f.file} ${f.name}`;
  return {
    files: files.length,
    long,
    unknown: long.filter((f) => !(key(f) in KNOWN_LONG)),
    stale: Object.keys(KNOWN_LONG).filter((k) => !long.some((f) => key(f) === k)),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const { long, unknown, stale } = report();
  for (const f of long)
    console.log(`${f.file}:${f.line} ${f.name}: ${f.lines} lines${KNOWN_LONG[`${f.file} ${f.name}`] ? ` (known: ${KNOWN_LONG[`${f.file} ${f.name}`]})` : ''}`);
  for (const k of stale) console.error(`function-length: ${k} is no longer over ${MAX_LINES} lines: remove it from KNOWN_LONG`);
  if (unknown.length) console.error(`function-length: ${unknown.length} function(s) over ${MAX_LINES} lines: split them into small functions`);
  if (!long.length) console.log(`function-length: no function over ${MAX_LINES} lines`);
  process.exitCode = unknown.length || stale.length ? 1 : 0;
}
