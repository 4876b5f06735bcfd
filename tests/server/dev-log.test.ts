/** npm run dev's refusal of a metadata change reads as a paragraph: real line breaks, each problem and its fix on a line. */
import { describe, expect, it } from 'vitest';
import { refusalParagraph } from '../../server/dev-log.ts';
import { MigrationRefused } from '../../server/db/migrate.ts';

describe('refusalParagraph', () => {
  it('prints a migration refusal line by line, indented under its head, with nothing escaped', () => {
    const err = new MigrationRefused(['table "notice": column "content" is no longer in the metadata', 'table "claim": the new field "x" is required']);
    const text = refusalParagraph('metadata abc NOT loaded, still serving def:', err.message);
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('metadata abc NOT loaded, still serving def:');
    expect(lines[1]).toMatch(/^ {2}The database cannot follow the metadata/);
    expect(lines[2]).toBe('    - table "notice": column "content" is no longer in the metadata');
    expect(lines[3]).toBe('    - table "claim": the new field "x" is required');
    expect(lines[4]).toMatch(/^ {2}Add a migration file in metadata\/migrations\//);
    expect(text).not.toContain('\\n');
    expect(text).not.toMatch(/^\{/m);
  });
});
