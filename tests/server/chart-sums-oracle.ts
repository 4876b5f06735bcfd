/**
 * The charts' sums kept by the engine (server/home/chart-sums.ts) against the rows recounted: for
 * every summed chart, every warehouse and every supplier in the data (and "every supplier"), every
 * bucket (not only the window a chart shows). The recount is the list's own kind of condition, the
 * row scope as an OR over the supplier fields (access.ts scopeOf), so a row naming one supplier in
 * two fields counts once; it shares nothing with the engine's per-row bookkeeping.
 */
import type { Db } from '../../server/db/types.ts';
import { metadata } from '../../server/generated/index.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import { toStored } from '../../server/engine/access.ts';
import { allSummedCharts } from '../../server/home/chart-sums-build.ts';
import { ALL_SUPPLIERS, type SummedChart } from '../../server/home/chart-sums.ts';

type Sums = Map<string, string>;

const keyOf = (w: unknown, s: unknown, b: unknown) => `${String(w)} | ${String(s)} | ${String(b)}`;

/** the kept sums of a chart, added up per key and bucket, empty ones left out */
async function kept(db: Db, c: SummedChart): Promise<Sums> {
  const rows = await db.all<{ w: string; s: string; b: string; n: number; t: number }>(
    `SELECT warehouse AS w, supplier AS s, bucket AS b, SUM(n) AS n, SUM(total) AS t FROM _chart_sums WHERE chart = ? GROUP BY warehouse, supplier, bucket`,
    [c.summary.key],
  );
  return new Map(rows.filter((r) => Number(r.n) !== 0 || Number(r.t) !== 0).map((r) => [keyOf(r.w, r.s, r.b), `${Number(r.n)} / ${Number(r.t)}`]));
}

/** the same, recounted from the entity's rows with one query per supplier */
async function recounted(db: Db, { chart, summary }: SummedChart): Promise<Sums> {
  const e = metadata.entities[summary.entity];
  const col = (f: string) => `a.${quote(e.fields[f].column)}`;
  const g = e.fields[chart.groupBy.field];
  const bucket = chart.groupBy.bucket === 'day' ? db.dialect.dayOf(col(g.name), g.type as 'date') : `CAST(${col(g.name)} AS TEXT)`;
  const where = [`${col(g.name)} IS NOT NULL`];
  const params: unknown[] = [];
  for (const [f, values] of Object.entries(summary.where)) {
    where.push(`${col(f)} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values.map((v) => toStored(db.dialect, e, f, v)));
  }
  if (summary.softDelete) where.push(`${col(summary.softDelete)} = ${db.dialect.boolLiteral(false)}`);
  const warehouse = summary.warehouseField ? col(summary.warehouseField) : `''`;
  const suppliers = new Set<string>();
  for (const f of summary.supplierFields)
    for (const r of await db.all<{ s: string | null }>(`SELECT DISTINCT ${col(f)} AS s FROM ${quote(e.table)} a`)) if (r.s) suppliers.add(String(r.s));
  const out: Sums = new Map();
  for (const supplier of [ALL_SUPPLIERS, ...suppliers]) {
    const scope = supplier === ALL_SUPPLIERS ? [] : [`(${summary.supplierFields.map((f) => `${col(f)} = ?`).join(' OR ')})`];
    const rows = await db.all<{ w: string; b: string; n: number; t: number | null }>(
      `SELECT ${warehouse} AS w, ${bucket} AS b, COUNT(*) AS n, SUM(${chart.sum ? col(chart.sum) : '0'}) AS t FROM ${quote(e.table)} a WHERE ${[...where, ...scope].join(' AND ')} GROUP BY ${warehouse}, ${bucket}`,
      [...params, ...(scope.length ? summary.supplierFields.map(() => supplier) : [])],
    );
    for (const r of rows) out.set(keyOf(r.w, supplier, r.b), `${Number(r.n)} / ${Number(r.t ?? 0)}`);
  }
  return out;
}

/** Every difference between the kept sums and the recount, as `chart: key kept ... recounted ...`; [] when they agree. */
export async function chartSumsMismatches(db: Db): Promise<string[]> {
  const out: string[] = [];
  for (const c of allSummedCharts(metadata)) {
    const [k, r] = [await kept(db, c), await recounted(db, c)];
    for (const key of new Set([...k.keys(), ...r.keys()]))
      if (k.get(key) !== r.get(key)) out.push(`${c.summary.key}: ${key} kept ${k.get(key) ?? 'nothing'}, recounted ${r.get(key) ?? 'nothing'}`);
  }
  return out;
}

/** how many rows of _chart_sums a chart has (writers add, folds and builds shrink) */
export async function chartSumRows(db: Db, chart?: string): Promise<number> {
  const row = await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM _chart_sums${chart ? ' WHERE chart = ?' : ''}`, chart ? [chart] : []);
  return Number(row!.n);
}
