/**
 * npx tsx server/env-docs.ts: writes the table of docs/environment.md from server/env-schema.ts (between
 * its two markers); tests/server/config.test.ts fails when the table is not what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ENV_VARIABLES } from './env-schema.ts';

export const ENV_DOC = resolve(import.meta.dirname, '../docs/environment.md');
const START = '<!-- GENERATED from server/env-schema.ts by `npx tsx server/env-docs.ts`: edit the schema, not this table -->';
const END = '<!-- end of the generated table -->';

/** What a variable may hold, in words: its type and range or values. */
function kind(v: (typeof ENV_VARIABLES)[string]): string {
  if (v.enum) return v.enum.map((x) => `\`${x}\``).join(' / ');
  if (v.type === 'integer') return `integer ${v.minimum}–${v.maximum}`;
  return v.minLength ? `text, ${v.minLength}+ characters` : 'text';
}

export function environmentTable(): string {
  const rows = Object.entries(ENV_VARIABLES).map(([name, v]) => {
    const dflt = v.defaultText ?? (v.default !== undefined ? `\`${v.default}\`` : 'unset');
    const where = v.readElsewhere ? ` (read in \`${v.readElsewhere}\`)` : '';
    return `| \`${name}\` | ${kind(v)} | ${dflt} | ${v.description}${where} |`;
  });
  return [START, '', '| Variable | Type | Default | Meaning |', '|---|---|---|---|', ...rows, '', END].join('\n');
}

/** docs/environment.md with its generated table replaced by `table`. */
export function withTable(doc: string, table = environmentTable()): string {
  const i = doc.indexOf(START);
  const j = doc.indexOf(END);
  if (i < 0 || j < 0) throw new Error(`${ENV_DOC} lacks the markers of its generated table`);
  return doc.slice(0, i) + table + doc.slice(j + END.length);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) writeFileSync(ENV_DOC, withTable(readFileSync(ENV_DOC, 'utf8')));
