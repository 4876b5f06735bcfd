/**
 * npm run duplication: the copy-paste figure of the server and the tests (jscpd, its default
 * thresholds: 5 lines and 50 tokens; `-- --all` adds admin/src and codegen), and a failure when the
 * tests repeat themselves more than the server does (issue 23: shared fixtures in tests/support and
 * tests/server/helpers.ts instead of copies; docs/adr/0044-test-duplication-gate.md). `npm test`
 * runs it after lint and format. A failure lists the tests' copies, each with both places, so the
 * fix (a helper both places call) is one step away.
 *
 * Generated code, fixtures (data the tests load, meant to look alike) and bench results are left
 * out, as in the function-length check.
 */
import { createRequire } from 'node:module';
import { relative, resolve } from 'node:path';

// jscpd's CommonJS build: under tsx its packages' ESM entries resolve to their TypeScript sources,
// which import a CommonJS module by names it does not export
const { detectClonesAndStatistic } = createRequire(import.meta.url)('jscpd') as typeof import('jscpd');

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['server', 'admin/src', 'codegen', 'tests'] as const;
/** what the gate compares: the tests against the server */
const GATED = ['server', 'tests'] as const;
const IGNORE = ['**/generated/**', '**/node_modules/**', '**/dist/**', '**/fixtures/**', '**/results/**'];

export interface FolderFigure {
  folder: string;
  lines: number;
  duplicatedLines: number;
  percentage: number;
  copies: { lines: number; first: string; second: string }[];
}

/** One folder's figure (a path from the project root, or an absolute one): its duplicated lines against its lines, and each copy's two places. */
export async function measure(folder: string): Promise<FolderFigure> {
  const { clones, statistic } = await detectClonesAndStatistic({
    path: [resolve(ROOT, folder)],
    ignore: IGNORE,
    format: ['typescript', 'tsx', 'javascript'],
    minLines: 5,
    minTokens: 50,
    silent: true,
    reporters: [],
  });
  const place = (f: { sourceId: string; start: { line: number }; end: { line: number } }) => `${relative(ROOT, f.sourceId)}:${f.start.line}-${f.end.line}`;
  const total = statistic.total;
  return {
    folder,
    lines: total.lines,
    duplicatedLines: total.duplicatedLines,
    percentage: total.lines ? (100 * total.duplicatedLines) / total.lines : 0,
    copies: clones.map((c) => ({
      lines: c.duplicationA.end.line - c.duplicationA.start.line + 1,
      first: place(c.duplicationA),
      second: place(c.duplicationB),
    })),
  };
}

/**
 * The gate's verdict: nothing when the tests repeat at most the server's share of their lines (the
 * same detector and thresholds on both, in the same run, so the comparison is deterministic and
 * follows the server as it grows); else the message that fails `npm test`, naming every copy in the
 * tests, the longest first, each with both places.
 */
export function verdict(tests: FolderFigure, server: FolderFigure): string | undefined {
  if (tests.percentage <= server.percentage) return undefined;
  return [
    `The tests repeat ${tests.percentage.toFixed(2)}% of their lines, the server ${server.percentage.toFixed(2)}%: move these copies into a shared helper (tests/support, tests/server/helpers.ts):`,
    ...[...tests.copies].sort((a, b) => b.lines - a.lines).map((c) => `  ${c.lines} lines: ${c.first} ~ ${c.second}`),
  ].join('\n');
}

const line = (f: FolderFigure) =>
  `${f.folder.padEnd(10)} ${String(f.duplicatedLines).padStart(4)} of ${String(f.lines).padStart(6)} lines repeated (${f.percentage.toFixed(2)}%), ${f.copies.length} copies`;

/** `npm run duplication`: the two folders the gate compares; `-- --all`: every hand-written folder (the other two are reported, not gated). */
async function main(all: boolean) {
  const figures: FolderFigure[] = [];
  for (const folder of all ? FOLDERS : GATED) {
    figures.push(await measure(folder));
    console.log(line(figures[figures.length - 1]));
  }
  const [server, tests] = GATED.map((folder) => figures.find((f) => f.folder === folder)!);
  const failure = verdict(tests, server);
  if (!failure) return;
  console.error(`\n${failure}`);
  process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await main(process.argv.includes('--all'));
