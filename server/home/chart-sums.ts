/**
 * The sums the engine keeps for the dashboard's charts (model.ts ChartSummary; docs/home-and-
 * notifications.md "Charts' sums kept by every write"). A chart over a million order lines would
 * read hundreds of thousands of index entries at every call; its sums per scope and bucket are a
 * few dozen rows of `_chart_sums`, changed in the transaction of every write of the entity.
 *
 * A row contributes one to the count (and its summed field to the total) of each key it falls in:
 * its warehouse, each distinct supplier code among the entity's supplier fields (a line whose
 * direct and production supplier are one supplier counts once for it) plus ALL_SUPPLIERS (what a
 * caller sees who is not limited to one supplier), and its bucket (the code, or the UTC day of the
 * date). Rows outside the chart's fixed condition, soft-deleted rows and rows without a bucket
 * contribute nothing.
 *
 * No hot row: a write never updates a sums row. It inserts its delta (the new row's contributions
 * minus the old row's) as rows of their own, so ten ships of one supplier at once on PostgreSQL
 * wait for no lock; readers add the rows of their key up (chart-sums-read.ts), and fold them into
 * one row per bucket when they have grown.
 */
import type { ChartSummary, CompiledChart, CompiledEntity, CompiledMetadata } from '../../codegen/runtime/model.ts';
import type { Queryable } from '../db/types.ts';

type Rec = Record<string, unknown>;

/** the supplier key of a row's contribution seen by callers not limited to one supplier (never a supplier code: codes are not empty) */
export const ALL_SUPPLIERS = '';

export interface SummedChart {
  chart: CompiledChart;
  summary: ChartSummary;
}

const byEntity = new WeakMap<CompiledMetadata, Map<string, SummedChart[]>>();

/** The summed charts of every dashboard, by entity name. */
export function summedCharts(meta: CompiledMetadata): Map<string, SummedChart[]> {
  let out = byEntity.get(meta);
  if (out) return out;
  out = new Map();
  for (const s of meta.screens)
    for (const chart of s.charts ?? []) {
      if (!chart.summary) continue;
      out.set(chart.summary.entity, [...(out.get(chart.summary.entity) ?? []), { chart, summary: chart.summary }]);
    }
  byEntity.set(meta, out);
  return out;
}

/** a stored or read value as the sums compare it (booleans come back as true/false, or 0/1 from SQLite) */
const comparable = (v: unknown): string => (v === true ? '1' : v === false ? '0' : String(v));

/** The bucket a row falls in for the chart: the code, or the UTC day (both backends give ISO text in UTC), or null. */
export function bucketOf(chart: CompiledChart, row: Rec): string | null {
  const v = row[chart.groupBy.field];
  if (v === null || v === undefined) return null;
  return chart.groupBy.bucket === 'day' ? (v instanceof Date ? v.toISOString() : String(v)).slice(0, 10) : String(v);
}

/** Whether the row is one the chart counts (its fixed condition, not soft-deleted). */
export function countedRow(s: ChartSummary, row: Rec): boolean {
  // as the list's `= false`: a row without a value is hidden too
  if (s.softDelete && row[s.softDelete] !== false && row[s.softDelete] !== 0) return false;
  return Object.entries(s.where).every(([field, values]) => values.some((v) => comparable(v) === comparable(row[field])));
}

/** the distinct supplier codes a row names, and the key of every supplier */
export function supplierKeys(s: ChartSummary, row: Rec): string[] {
  const codes = new Set<string>();
  for (const f of s.supplierFields) if (row[f] !== null && row[f] !== undefined && row[f] !== '') codes.add(String(row[f]));
  return [...codes, ALL_SUPPLIERS];
}

export interface SumKey {
  warehouse: string;
  supplier: string;
  bucket: string;
}
type Deltas = Map<string, { key: SumKey; n: number; total: number }>;

/** Adds the row's contributions to `into`, signed (+1 a row now, -1 a row before the write). */
function addContributions(chart: CompiledChart, s: ChartSummary, row: Rec | null, sign: 1 | -1, into: Deltas): void {
  if (!row || !countedRow(s, row)) return;
  const bucket = bucketOf(chart, row);
  if (bucket === null) return;
  const warehouse = s.warehouseField ? String(row[s.warehouseField] ?? '') : '';
  const value = chart.sum ? Number(row[chart.sum] ?? 0) : 0;
  for (const supplier of supplierKeys(s, row)) {
    const id = `${warehouse}\u0000${supplier}\u0000${bucket}`;
    const d = into.get(id) ?? { key: { warehouse, supplier, bucket }, n: 0, total: 0 };
    d.n += sign;
    d.total += sign * value;
    into.set(id, d);
  }
}

/** A sum rounded to its field's scale: decimals add up in floating point, and a delta of 0.30000000000000004 is 0.3. */
export function roundToScale(e: CompiledEntity, chart: CompiledChart): (x: number) => number {
  const f = chart.sum ? e.fields[chart.sum] : undefined;
  const factor = 10 ** (f?.type === 'decimal' ? (f.scale ?? 0) : 0);
  return (x) => Math.round(x * factor) / factor;
}

/** rows per INSERT: 6 parameters each, well under both databases' limits */
const ROWS_PER_INSERT = 500;

/**
 * Records, in the writing transaction `q`, what writing rows of `e` changed in its charts' sums:
 * `before[i]` became `after[i]` (null: inserted, or deleted). Only keys whose count or total
 * changed get a row; a write that touches none of a chart's fields writes nothing.
 */
export async function recordChartSums(
  q: Queryable,
  meta: CompiledMetadata,
  e: CompiledEntity,
  before: readonly (Rec | null)[],
  after: readonly (Rec | null)[],
): Promise<void> {
  const charts = summedCharts(meta).get(e.name);
  if (!charts) return;
  const rows: unknown[][] = [];
  for (const { chart, summary } of charts) {
    const deltas: Deltas = new Map();
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      addContributions(chart, summary, before[i] ?? null, -1, deltas);
      addContributions(chart, summary, after[i] ?? null, 1, deltas);
    }
    const round = roundToScale(e, chart);
    for (const d of deltas.values()) {
      const total = round(d.total);
      if (d.n !== 0 || total !== 0) rows.push([summary.key, d.key.warehouse, d.key.supplier, d.key.bucket, d.n, total]);
    }
  }
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
    const chunk = rows.slice(at, at + ROWS_PER_INSERT);
    await q.run(
      `INSERT INTO _chart_sums (chart, warehouse, supplier, bucket, n, total) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
      chunk.flat(),
    );
  }
}
