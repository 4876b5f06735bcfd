/**
 * View entities (metadata "view"): read-only entities computed from another entity by grouping
 * its rows, such as the settlement report (totals per supplier, period and status). Checked and
 * compiled here; compile/entities.ts calls it once every entity is compiled (the source may come later).
 * The database view itself is made by codegen/runtime/dialect.ts (viewDef) and server/db/migrate.ts.
 */
import { ptr } from '../load.ts';
import type { CompiledEntity } from '../runtime/model.ts';

type Err = (file: string, pointer: string, detail: string) => void;
interface RawView {
  from: string;
  groupBy: string[];
  aggregates: Record<string, { fn: 'count' | 'sum'; field?: string }>;
}

const numeric = (t: string) => t === 'integer' || t === 'decimal';

export function compileView(
  file: string,
  raw: { view?: RawView; versioned?: boolean; audit?: boolean },
  e: CompiledEntity,
  entities: Record<string, CompiledEntity>,
  err: Err,
): void {
  const v = raw.view;
  if (!v) return;
  const src = entities[v.from];
  if (!src) return err(file, '/view/from', `unknown entity "${v.from}" (expected one of: ${Object.keys(entities).join(', ')})`);
  if (src.view) err(file, '/view/from', `"${v.from}" is a view itself`);
  if (raw.versioned !== false || raw.audit !== false)
    err(file, '/view', 'a view has no version or audit columns: declare "versioned": false and "audit": false');
  for (const op of ['create', 'update', 'delete'] as const) if (e.access[op]) err(file, `/access/${op}`, 'a view is read-only: grant read and export only');
  if (Object.keys(e.actions).length) err(file, '/actions', 'a view has no actions');
  if (e.file) err(file, '/file', 'a view holds no files');
  if (e.indexes.length) err(file, '/indexes', 'a view cannot be indexed (index its source)');
  v.groupBy.forEach((n, i) => {
    const s = src.fields[n];
    const f = e.fields[n];
    if (!s) err(file, ptr('view', 'groupBy', i), `unknown field "${n}" of entity "${src.name}"`);
    else if (!f) err(file, ptr('view', 'groupBy', i), `"${n}" must be declared as a field of this entity too`);
    else if (s.type !== f.type || s.codeTable !== f.codeTable)
      err(file, ptr('fields', n), `must have the type of "${src.name}.${n}" (${s.type}${s.codeTable ? ` ${s.codeTable}` : ''})`);
  });
  for (const [n, a] of Object.entries(v.aggregates)) {
    const f = e.fields[n];
    const p = ptr('view', 'aggregates', n);
    if (!f) {
      err(file, p, `"${n}" must be declared as a field of this entity`);
      continue;
    }
    if (v.groupBy.includes(n)) err(file, p, `"${n}" is a group-by field`);
    if (a.fn === 'count') {
      if (f.type !== 'integer') err(file, ptr('fields', n), 'a count is an integer field');
      if (a.field) err(file, `${p}/field`, 'a count takes no field');
    } else {
      const s = a.field ? src.fields[a.field] : undefined;
      if (!s) err(file, `${p}/field`, `a sum needs a field of entity "${src.name}"`);
      else if (!numeric(s.type)) err(file, `${p}/field`, `field "${a.field}" of "${src.name}" is not a number`);
      else if (!numeric(f.type) || (s.type === 'decimal' && f.type === 'integer'))
        err(file, ptr('fields', n), `must be a number that holds the sum of "${src.name}.${a.field}" (${s.type})`);
    }
  }
  const covered = new Set([...v.groupBy, ...Object.keys(v.aggregates)]);
  for (const n of e.fieldOrder)
    if (!e.fields[n].system && !covered.has(n)) err(file, ptr('fields', n), `field "${n}" of a view is neither a group-by field nor an aggregate`);
  e.view = {
    from: v.from,
    groupBy: [...v.groupBy],
    aggregates: Object.fromEntries(Object.entries(v.aggregates).map(([n, a]) => [n, { fn: a.fn, ...(a.field ? { field: a.field } : {}) }])),
  };
}
