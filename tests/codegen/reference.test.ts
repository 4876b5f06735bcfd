/**
 * metadata/REFERENCE.md is generated from the meta-schemas: it is up to date, every option of
 * every meta-schema is in it, and every option says what it does (a new option without a
 * "description" fails here).
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REFERENCE_FILE, referenceMarkdown } from '../../codegen/reference.ts';
import { headingAnchors } from '../support/markdown.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SCHEMAS = join(ROOT, 'metadata/schema');
type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every property name declared anywhere in a schema (nested objects, items, maps, variants, definitions). */
function propertyNames(s: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(s)) s.forEach((x) => propertyNames(x, out));
  else if (s && typeof s === 'object') {
    const o = s as Schema;
    for (const n of Object.keys(o.properties ?? {})) if (n !== '$schema') out.add(n);
    for (const v of Object.values(o)) propertyNames(v, out);
  }
  return out;
}

describe('the metadata reference', () => {
  const generated = referenceMarkdown(SCHEMAS);

  it('is the committed metadata/REFERENCE.md (npm run codegen writes it)', () => {
    expect(readFileSync(join(ROOT, REFERENCE_FILE), 'utf8')).toBe(generated.text);
  });

  it('lists every option of every meta-schema', () => {
    const missing: string[] = [];
    for (const f of readdirSync(SCHEMAS)) {
      for (const n of propertyNames(JSON.parse(readFileSync(join(SCHEMAS, f), 'utf8'))))
        if (!generated.text.includes(`| \`${n}\` |`)) missing.push(`${f}: ${n}`);
    }
    expect(missing).toEqual([]);
  });

  it('describes every option', () => {
    expect(generated.undocumented).toEqual([]);
  });

  it('links only to sections it has', () => {
    // GitHub's anchors (the Markdown link test applies the same rule to every document)
    const anchors = headingAnchors(generated.text);
    const links = [...generated.text.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(50);
    for (const l of links) expect(anchors.has(l), l).toBe(true);
  });
});
