// @vitest-environment node
/**
 * The admin build's last step (admin/precompress.ts): the finished build is published by renaming
 * its folder over admin/dist, never file by file, so a reader sees the old build or the new one,
 * whole, and a second build in the same tree cannot delete what the first is still writing (the
 * ENOENT of issue 34). Here on folders made for the test.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { precompressDir, publishDir } from '../../admin/precompress.ts';

const root = mkdtempSync(join(tmpdir(), 'publish-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function build(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'assets'), { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}

describe('publishing a build', () => {
  it('replaces the published folder whole and leaves nothing else behind', () => {
    const dist = join(root, 'dist');
    publishDir(build('first', { 'index.html': 'one', 'assets/old.js': 'x' }), dist);
    publishDir(build('second', { 'index.html': 'two', 'assets/new.js': 'y' }), dist);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('two');
    expect(readdirSync(join(dist, 'assets'))).toEqual(['new.js']);
    expect(readdirSync(root).sort()).toEqual(['dist']);
  });

  it('writes the twins in the build folder before it is published', () => {
    const big = 'const a = 1;\n'.repeat(500);
    const dir = build('third', { 'index.html': big, 'assets/app.js': big });
    expect(precompressDir(dir)).toBe(2);
    publishDir(dir, join(root, 'dist'));
    expect(existsSync(join(root, 'dist', 'assets', 'app.js.br'))).toBe(true);
    expect(existsSync(join(root, 'dist', 'index.html.gz'))).toBe(true);
    expect(existsSync(dir)).toBe(false);
  });
});
