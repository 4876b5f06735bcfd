/** metadata/codes: every code table once, codes and keys unique within it, groups made of its keys. */
import { ptr } from '../load.ts';
import type { CompiledCodeTable } from '../runtime/model.ts';
import { chineseLabelProblem } from '../runtime/chinese-text.ts';
import type { CompileContext } from './context.ts';

type RawTable = { label: CompiledCodeTable['label']; values: CompiledCodeTable['values']; groups?: Record<string, string[]> };

/** Fills ctx.codeTables (later steps convert keys to codes through ctx.codeOf). */
export function compileCodeTables(ctx: CompileContext): Record<string, CompiledCodeTable> {
  const { err } = ctx;
  const codeTables: Record<string, CompiledCodeTable> = {};
  const codeTableFile: Record<string, string> = {};
  // code tables come from metadata/codes/ and from the "codeTables" of entity files (same form)
  for (const f of [...ctx.src.codes, ...ctx.src.entities.filter((x) => (x.data as { codeTables?: unknown }).codeTables)]) {
    const tables = (f.data as { codeTables: Record<string, RawTable> }).codeTables;
    for (const [name, t] of Object.entries(tables)) {
      const p = ptr('codeTables', name);
      if (codeTables[name]) {
        err(f.file, p, `code table "${name}" is already defined in ${codeTableFile[name]}`);
        continue;
      }
      const codes = new Set<string>();
      const keys = new Map<string, string>();
      t.values.forEach((val, i) => {
        if (codes.has(val.code)) err(f.file, ptr('codeTables', name, 'values', i, 'code'), `code "${val.code}" appears twice in table "${name}"`);
        if (keys.has(val.key)) err(f.file, ptr('codeTables', name, 'values', i, 'key'), `key "${val.key}" appears twice in table "${name}"`);
        codes.add(val.code);
        keys.set(val.key, val.code);
        const zh = chineseLabelProblem(val.label['zh-CN'], val.languageNeutral);
        if (zh)
          err(
            f.file,
            ptr('codeTables', name, 'values', i, 'label', 'zh-CN'),
            `code "${val.key}" of table "${name}": ${zh}, or mark the value "languageNeutral": true when the text is rightly the same in both languages (a standard's name such as "ISO 9001")`,
          );
      });
      const tableZh = chineseLabelProblem(t.label['zh-CN']);
      if (tableZh) err(f.file, ptr('codeTables', name, 'label', 'zh-CN'), `code table "${name}": ${tableZh}`);
      const groups: Record<string, string[]> = {};
      for (const [g, members] of Object.entries(t.groups ?? {})) {
        groups[g] = members.map((k, i) => {
          const c = keys.get(k);
          if (c === undefined) ctx.unknown(f.file, ptr('codeTables', name, 'groups', g, i), 'code key', k, keys.keys(), { of: `of table "${name}"` });
          return c ?? k;
        });
      }
      codeTables[name] = {
        name,
        label: t.label,
        values: t.values.map((x) => ({ code: x.code, key: x.key, label: x.label, ...(x.languageNeutral ? { languageNeutral: true as const } : {}) })),
        groups,
      };
      codeTableFile[name] = f.file;
    }
  }
  ctx.codeTables = codeTables;
  return codeTables;
}
