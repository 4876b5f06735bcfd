/**
 * Every relative link of every Markdown file in the repository resolves: the file (or folder) it
 * names exists, and the heading it names after `#` is one of that file's headings (GitHub's anchor
 * rule). A clone must hold every document it cites; a renamed heading or a moved file fails here.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { headingAnchors, relativeLinks } from '../support/markdown.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Markdown files git tracks or would track (untracked but not ignored): what a clone holds. */
function markdownFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], { cwd: ROOT, encoding: 'utf8' });
  return out
    .split('\n')
    .filter(Boolean)
    .filter((f) => existsSync(join(ROOT, f)));
}

describe('Markdown links', () => {
  it('the anchor rule follows GitHub (lower case, punctuation dropped, spaces to dashes, repeats numbered)', () => {
    expect([...headingAnchors('# Quick start\n## Scaling out: PostgreSQL and several processes\n## A\n## A\n```\n# not a heading\n```')]).toEqual([
      'quick-start',
      'scaling-out-postgresql-and-several-processes',
      'a',
      'a-1',
    ]);
    expect(relativeLinks('see [x](docs/a.md#b), [y](https://e.example/z), [z](#top), ![i](p.png "t")')).toEqual([
      { target: 'docs/a.md', anchor: 'b' },
      { target: '', anchor: 'top' },
      { target: 'p.png', anchor: undefined },
    ]);
  });

  it('every relative link names an existing file and heading', () => {
    const broken: string[] = [];
    const files = markdownFiles();
    expect(files).toContain('README.md');
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const { target, anchor } of relativeLinks(text)) {
        const path = target ? resolve(ROOT, dirname(file), decodeURI(target)) : join(ROOT, file);
        if (!existsSync(path)) {
          broken.push(`${file}: ${target} (no such file)`);
          continue;
        }
        if (anchor === undefined || statSync(path).isDirectory() || !path.endsWith('.md')) continue;
        if (!headingAnchors(readFileSync(path, 'utf8')).has(decodeURIComponent(anchor).toLowerCase()))
          broken.push(`${file}: ${target}#${anchor} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
