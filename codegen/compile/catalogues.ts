/**
 * The message catalogues: read first (every later step asks for label keys), checked for a
 * missing language and for keys one language has and the other lacks; at the end they become the
 * bundles, with the code tables' labels added as `code.<table>.<code>`.
 */
import { ptr } from '../load.ts';
import { LOCALES, codeLabelKey, codeTableLabelKey, type Catalogues, type CompiledCodeTable } from '../runtime/model.ts';
import type { CompileContext } from './context.ts';

function flatten(node: Record<string, unknown>, prefix: string, out: Map<string, string>, dup: (k: string) => void): void {
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema' && !prefix) continue;
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') {
      if (out.has(key)) dup(key);
      out.set(key, v);
    } else if (v && typeof v === 'object') flatten(v as Record<string, unknown>, key, out, dup);
  }
}

/** Fills ctx.cat: every locale present, no key twice, the same keys in each. */
export function readCatalogues(ctx: CompileContext): void {
  const { src, err } = ctx;
  const keyFile = new Map<string, string>();
  for (const loc of LOCALES) {
    const files = src.i18n[loc];
    if (!files || files.length === 0) {
      err(`metadata/i18n/${loc}`, '', `the ${loc} catalogue is missing (expected JSON files in metadata/i18n/${loc}/)`);
      continue;
    }
    const m = new Map<string, string>();
    for (const f of files) {
      flatten(f.data as Record<string, unknown>, '', m, (k) => err(f.file, ptr(...k.split('.')), `key "${k}" is defined twice in the ${loc} catalogue`));
      const one = new Map<string, string>();
      flatten(f.data as Record<string, unknown>, '', one, () => {});
      for (const k of one.keys()) if (!keyFile.has(`${loc}:${k}`)) keyFile.set(`${loc}:${k}`, f.file);
    }
    ctx.cat.set(loc, m);
  }
  for (const loc of LOCALES) {
    const mine = ctx.cat.get(loc);
    if (!mine) continue;
    for (const other of LOCALES) {
      if (other === loc) continue;
      const theirs = ctx.cat.get(other);
      if (!theirs) continue;
      for (const k of mine.keys())
        if (!theirs.has(k))
          err(
            keyFile.get(`${loc}:${k}`) ?? `metadata/i18n/${loc}`,
            ptr(...k.split('.')),
            `key "${k}" has no ${other} translation (expected it in metadata/i18n/${other}/)`,
          );
    }
  }
}

/** The bundles: every key sorted, then the code tables' labels. */
export function bundles(ctx: CompileContext, codeTables: Record<string, CompiledCodeTable>): Catalogues {
  const catalogues = {} as Catalogues;
  for (const loc of LOCALES) {
    const m: Record<string, string> = {};
    const base = ctx.cat.get(loc) ?? new Map<string, string>();
    for (const k of [...base.keys()].sort()) m[k] = base.get(k)!;
    for (const t of Object.values(codeTables).sort((a, b) => a.name.localeCompare(b.name))) {
      m[codeTableLabelKey(t.name)] = t.label[loc];
      for (const val of t.values) m[codeLabelKey(t.name, val.code)] = val.label[loc];
    }
    catalogues[loc] = m;
  }
  return catalogues;
}
