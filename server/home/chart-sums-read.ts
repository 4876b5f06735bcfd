/**
 * A chart answered from its sums (chart-sums.ts): the rows of the caller's key added up per
 * bucket, a few dozen rows instead of every matching row of the entity. The key is the caller's
 * row scope when that scope is exactly a warehouse and one supplier (or every supplier): a read
 * grant with conditions of its own, or a caller without a supplier code, is aggregated from the
 * rows as before (charts.ts).
 *
 * Writers only insert deltas, so a key's rows grow with its writes; a reader that finds more than
 * FOLD_SLACK rows beyond one per bucket folds the key: in one transaction it deletes the key's rows
 * it sees and inserts their sum per bucket (days before the chart's window are dropped: no window
 * reads them again). Deltas a concurrent write commits meanwhile are not among the rows deleted
 * (PostgreSQL: the DELETE's snapshot; SQLite: one writer at a time), so they stay and are counted
 * once; two readers folding at once delete each row once.
 */
import type { ChartSummary, CompiledChart, CompiledEntity, CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { Db } from '../db/types.ts';
import { operationGrant } from '../engine/access.ts';
import type { Principal } from '../engine/principal.ts';
import { ALL_SUPPLIERS, roundToScale, type SumKey } from './chart-sums.ts';

/** rows of a key beyond one per bucket that make a reader fold them */
export const FOLD_SLACK = 48;

export type ScopeKey = Omit<SumKey, 'bucket'>;

/** The key of the sums that is exactly the caller's row scope, or null: the chart is aggregated from the rows. */
export function sumsScope(meta: CompiledMetadata, e: CompiledEntity, s: ChartSummary, p: Principal): ScopeKey | null {
  const grant = operationGrant(e, 'read', p);
  if (!grant || (grant.where && Object.keys(grant.where).length)) return null;
  if (s.warehouseField && !p.warehouse) return null;
  let supplier = ALL_SUPPLIERS;
  // as scopeOf: a supplier-scoped profile sees the rows naming its supplier, its administrator every row
  if (meta.access.profiles[p.profile].supplierScoped && p.role !== 'admin' && s.supplierFields.length) {
    if (!p.supplierCode) return null;
    supplier = String(p.supplierCode);
  }
  return { warehouse: s.warehouseField ? String(p.warehouse) : '', supplier };
}

const KEY = `chart = ? AND warehouse = ? AND supplier = ?`;

/** The statement reading a key's sums per bucket (`days`: the window, first and last day); the index-coverage test explains it. */
export function sumsStatement(chart: CompiledChart, key: ScopeKey, days: readonly string[]): { sql: string; params: unknown[] } {
  const window = days.length ? ` AND bucket >= ? AND bucket <= ?` : '';
  return {
    sql: `SELECT bucket AS k, SUM(n) AS n, SUM(total) AS t, COUNT(*) AS r FROM _chart_sums WHERE ${KEY}${window} GROUP BY bucket`,
    params: [chart.summary!.key, key.warehouse, key.supplier, ...(days.length ? [days[0], days[days.length - 1]] : [])],
  };
}

/** The chart's value per bucket for the key (a count, or the sum of its field); folds the key's rows when they have grown. */
export async function readChartSums(db: Db, e: CompiledEntity, chart: CompiledChart, key: ScopeKey, days: readonly string[]): Promise<Map<string, number>> {
  const st = sumsStatement(chart, key, days);
  const rows = await db.all<{ k: string; n: number | string; t: number | string; r: number | string }>(st.sql, st.params);
  const round = roundToScale(e, chart);
  const out = new Map(rows.map((x) => [String(x.k), chart.sum ? round(Number(x.t)) : Number(x.n)]));
  const read = rows.reduce((sum, x) => sum + Number(x.r), 0);
  if (read > rows.length + FOLD_SLACK) await foldChartSums(db, e, chart, key, days[0]);
  return out;
}

/** One row per bucket for the key (buckets before `keepFrom` dropped, empty ones too), in one transaction. */
export async function foldChartSums(db: Db, e: CompiledEntity, chart: CompiledChart, key: ScopeKey, keepFrom?: string): Promise<void> {
  const round = roundToScale(e, chart);
  await db.transaction(async (q) => {
    const rows = await q.all<{ bucket: string; n: number | string; total: number | string }>(
      `DELETE FROM _chart_sums WHERE ${KEY} RETURNING bucket, n, total`,
      [chart.summary!.key, key.warehouse, key.supplier],
    );
    const sums = new Map<string, { n: number; total: number }>();
    for (const r of rows) {
      const s = sums.get(r.bucket) ?? { n: 0, total: 0 };
      s.n += Number(r.n);
      s.total += Number(r.total);
      sums.set(r.bucket, s);
    }
    const kept = [...sums].filter(([bucket, s]) => (keepFrom === undefined || bucket >= keepFrom) && (s.n !== 0 || round(s.total) !== 0));
    if (!kept.length) return;
    await q.run(
      `INSERT INTO _chart_sums (chart, warehouse, supplier, bucket, n, total) VALUES ${kept.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
      kept.flatMap(([bucket, s]) => [chart.summary!.key, key.warehouse, key.supplier, bucket, s.n, round(s.total)]),
    );
  });
}
