/**
 * `npm run format:check` (a stage of `npm test`): Prettier's `--check` over the project's files,
 * skipping each file whose exact text it passed before. Prettier's own `--cache` names files by
 * absolute path inside an opaque hash, so a clone in another folder (every CI run) checks all
 * ~800 files again (28 s of a CPU lane, issue 34); this cache names them relative to the root.
 *
 * The files: what git tracks or would track (`git ls-files --cached --others --exclude-standard`),
 * handed to Prettier by name with `--ignore-unknown`, so Prettier applies `.prettierignore` and
 * `.gitignore` and skips types it does not format, as `prettier --check .` does. The cache
 * (`.tmp/prettier/checked.json`) holds each passed file's SHA-256, under a key of Prettier's version
 * and its configuration and ignore files: another Prettier or rule checks everything again. It is
 * written only when the check passes. `.ci/run` keeps it between runs like the compiler's cache.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const CACHE = join(ROOT, '.tmp', 'prettier', 'checked.json');
/** what else decides Prettier's verdict on a file besides its text */
const SETTINGS = ['.prettierrc.json', '.prettierignore', '.gitignore', '.editorconfig'];

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function prettierBin(): { bin: string; version: string } {
  const pkgPath = createRequire(import.meta.url).resolve('prettier/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { version: string; bin: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.prettier;
  return { bin: join(dirname(pkgPath), bin), version: pkg.version };
}

/** The project's files, or null outside a git work tree (a copy without .git: then Prettier's own `.`). */
function projectFiles(): string[] | null {
  const r = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) return null;
  return r.stdout.split('\0').filter((f) => f && existsSync(join(ROOT, f)) && statSync(join(ROOT, f)).isFile());
}

function main(): number {
  const { bin, version } = prettierBin();
  const key = sha([version, ...SETTINGS.map((f) => (existsSync(join(ROOT, f)) ? readFileSync(join(ROOT, f), 'utf8') : ''))].join('\0'));
  let passed: Record<string, string> = {};
  try {
    const cached = JSON.parse(readFileSync(CACHE, 'utf8')) as { key: string; files: Record<string, string> };
    if (cached.key === key) passed = cached.files;
  } catch {
    /* no cache yet, or unreadable: check everything */
  }
  const files = projectFiles();
  if (!files) return spawnSync(process.execPath, [bin, '--check', '.'], { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
  const now = Object.fromEntries(files.map((f) => [f, sha(readFileSync(join(ROOT, f)))]));
  const todo = Object.keys(now).filter((f) => passed[f] !== now[f]);
  if (todo.length) {
    const r = spawnSync(process.execPath, [bin, '--check', '--ignore-unknown', ...todo], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) return r.status ?? 1;
  }
  mkdirSync(dirname(CACHE), { recursive: true });
  writeFileSync(CACHE, JSON.stringify({ key, files: now }));
  console.log(`format: ${todo.length} files checked, ${Object.keys(now).length - todo.length} unchanged since they passed (${CACHE.slice(ROOT.length + 1)})`);
  return 0;
}

process.exitCode = main();
