/**
 * Migration files name tables and columns by their SQL names: a step that fills or retypes a
 * column must name one the metadata declares (the server takes the column's declaration from it),
 * and ids are unique. Steps that drop or rename name what the database has, not the metadata, so
 * they are not checked here.
 */
import { ptr } from '../../load.ts';
import type { Check } from '../run-checks.ts';

export default {
  about: 'migration steps that fill or retype a column name a table and column of the metadata; ids are unique',
  run({ model, src, err, unknown }) {
    const tables = new Map(Object.values(model.entities).map((e) => [e.table, new Set(Object.values(e.fields).map((f) => f.column))]));
    const ids = new Map<string, string>();
    for (const f of src.migrations) {
      const m = f.data as { id: string; steps: { op: string; table: string; column?: string; copyFrom?: string }[] };
      if (ids.has(m.id)) err(f.file, '/id', `migration id "${m.id}" is already used by ${ids.get(m.id)}`);
      ids.set(m.id, f.file);
      m.steps.forEach((s, i) => {
        if (s.op !== 'addColumn' && s.op !== 'retypeColumn') return;
        const cols = tables.get(s.table);
        if (!cols) return unknown(f.file, ptr('steps', i, 'table'), 'table', s.table, tables.keys(), { of: 'of the metadata' });
        if (s.column && !cols.has(s.column)) unknown(f.file, ptr('steps', i, 'column'), 'column', s.column, cols, { of: `of table "${s.table}"` });
      });
    }
  },
} satisfies Check;
