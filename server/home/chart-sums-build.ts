/**
 * A chart's sums built from the entity's rows (chart-sums.ts keeps them afterwards): when the
 * chart is new or its definition changed (`_chart_sum_builds` remembers which one its sums
 * follow), when a migration changed the entity's table (a step may rewrite stored values), and
 * after rows were written without the engine (demo data: server/seed/index.ts). One statement per
 * chart, in one transaction with the removal of its old rows; on PostgreSQL the entity's table and
 * the sums are locked against writes meanwhile (reads go on), so no write or fold falls between the
 * rows read and the sums replaced, and two processes starting at once build one after the other.
 */
import type { CompiledEntity, CompiledMetadata } from '../../codegen/runtime/model.ts';
import { quote, type Dialect } from '../../codegen/runtime/dialect.ts';
import type { Db } from '../db/types.ts';
import type { MigrateReport, Migration } from '../db/migrate.ts';
import { toStored, type SqlPart } from '../engine/access.ts';
import { ALL_SUPPLIERS, summedCharts, type SummedChart } from './chart-sums.ts';

/** What the sums of a chart depend on: built again when it changes. */
export function sumsDefinition(e: CompiledEntity, { chart, summary }: SummedChart): string {
  return JSON.stringify({ table: e.table, groupBy: chart.groupBy, sum: chart.sum ?? null, ...summary });
}

/**
 * The sums of a chart computed from the rows, as rows (w, s, b, n, t): one branch per supplier
 * field, each counting a row only under a code no earlier field of the row holds (one line counts
 * once per supplier), and one for every supplier; the same rules as chart-sums.ts applies per row.
 */
export function sumsFromRowsSql(d: Dialect, e: CompiledEntity, { chart, summary }: SummedChart): SqlPart {
  const col = (f: string) => `a.${quote(e.fields[f].column)}`;
  const g = e.fields[chart.groupBy.field];
  const bucket = chart.groupBy.bucket === 'day' ? d.dayOf(col(g.name), g.type as 'date' | 'datetime') : `CAST(${col(g.name)} AS TEXT)`;
  const warehouse = summary.warehouseField ? `COALESCE(CAST(${col(summary.warehouseField)} AS TEXT), '')` : `''`;
  const total = chart.sum ? `COALESCE(SUM(${col(chart.sum)}), 0)` : '0';
  const conditions = [`${col(g.name)} IS NOT NULL`];
  const params: unknown[] = [];
  for (const [field, values] of Object.entries(summary.where)) {
    conditions.push(`${col(field)} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values.map((v) => toStored(d, e, field, v)));
  }
  if (summary.softDelete) conditions.push(`${col(summary.softDelete)} = ${d.boolLiteral(false)}`);
  // PostgreSQL refuses a constant in GROUP BY: group by the expressions that read the row
  const branch = (supplier: string, own: string[]) =>
    `SELECT ${warehouse} AS w, ${supplier} AS s, ${bucket} AS b, COUNT(*) AS n, ${total} AS t FROM ${quote(e.table)} a WHERE ${[...conditions, ...own].join(' AND ')} GROUP BY ${[warehouse, supplier, bucket].filter((x) => !x.startsWith("'")).join(', ')}`;
  const branches = summary.supplierFields.map((f, i) =>
    branch(`CAST(${col(f)} AS TEXT)`, [
      `${col(f)} IS NOT NULL`,
      `${col(f)} <> ''`,
      ...summary.supplierFields.slice(0, i).map((earlier) => `(${col(earlier)} IS NULL OR ${col(earlier)} <> ${col(f)})`),
    ]),
  );
  branches.push(branch(`'${ALL_SUPPLIERS}'`, []));
  return { sql: branches.join(' UNION ALL '), params: branches.flatMap(() => params) };
}

/** Builds the sums of `charts` from their entities' rows, each chart in a transaction of its own. */
export async function rebuildChartSums(db: Db, meta: CompiledMetadata, charts: readonly SummedChart[], now = new Date().toISOString()): Promise<void> {
  for (const c of charts) {
    const e = meta.entities[c.summary.entity];
    const rows = sumsFromRowsSql(db.dialect, e, c);
    await db.transaction(async (q) => {
      // PostgreSQL: no write of the rows between those read and the sums replaced; no fold of the
      // sums meanwhile (a folded row committed after this DELETE's snapshot would stay beside the
      // built ones), no second build at once (two processes starting together). The entity's table
      // first, as its writers take it before they insert their deltas: no deadlock
      for (const table of [e.table, '_chart_sums']) {
        const lock = db.dialect.lockAgainstWrites(table);
        if (lock) await q.run(lock);
      }
      await q.run(`DELETE FROM _chart_sums WHERE chart = ?`, [c.summary.key]);
      await q.run(
        `INSERT INTO _chart_sums (chart, warehouse, supplier, bucket, n, total) SELECT ?, w, s, b, SUM(n), SUM(t) FROM (${rows.sql}) u GROUP BY w, s, b`,
        [c.summary.key, ...rows.params],
      );
      await q.run(
        `INSERT INTO _chart_sum_builds (chart, definition, built_at) VALUES (?, ?, ?) ON CONFLICT (chart) DO UPDATE SET definition = excluded.definition, built_at = excluded.built_at`,
        [c.summary.key, sumsDefinition(e, c), now],
      );
    });
  }
}

/** Every summed chart of the metadata. */
export const allSummedCharts = (meta: CompiledMetadata): SummedChart[] => [...summedCharts(meta).values()].flat();

/** The tables a migration changed: columns added or altered, and the tables its declared steps name. */
export function tablesMigrated(report: MigrateReport, migrations: readonly Migration[]): Set<string> {
  const out = new Set([...report.addedColumns, ...report.alteredColumns].map((c) => c.slice(0, c.lastIndexOf('.'))));
  for (const m of migrations) if (report.migrations.includes(m.id)) for (const s of m.steps) out.add(s.table);
  return out;
}

/**
 * At start, after the migration: builds the sums of charts that have none for their present
 * definition, or whose table `migrated` names; forgets the sums of charts no longer summed.
 * Returns a line per chart built, for the log.
 */
export async function ensureChartSums(db: Db, meta: CompiledMetadata, migrated: ReadonlySet<string> = new Set()): Promise<string[]> {
  const charts = allSummedCharts(meta);
  const built = new Map(
    (await db.all<{ chart: string; definition: string }>(`SELECT chart, definition FROM _chart_sum_builds`)).map((r) => [r.chart, r.definition]),
  );
  const keys = new Set(charts.map((c) => c.summary.key));
  for (const gone of [...built.keys()].filter((k) => !keys.has(k))) {
    await db.run(`DELETE FROM _chart_sums WHERE chart = ?`, [gone]);
    await db.run(`DELETE FROM _chart_sum_builds WHERE chart = ?`, [gone]);
  }
  const stale = charts.filter((c) => {
    const e = meta.entities[c.summary.entity];
    return built.get(c.summary.key) !== sumsDefinition(e, c) || migrated.has(e.table);
  });
  const lines: string[] = [];
  for (const c of stale) {
    const t0 = performance.now();
    await rebuildChartSums(db, meta, [c]);
    lines.push(
      `chart sums of "${c.summary.key}" built from the rows of "${meta.entities[c.summary.entity].table}" in ${Math.round(performance.now() - t0)} ms`,
    );
  }
  return lines;
}
