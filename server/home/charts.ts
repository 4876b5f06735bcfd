/**
 * The data behind a dashboard's charts (metadata: a dashboard screen's "charts"). A chart
 * aggregates the rows the list it names would show the caller, through the engine's own list
 * statements (row scope, warehouse rule, soft-delete rule, the list's fixed filter, the chart's
 * tab and filter), grouped by a code or by the UTC day of a date field within the chart's window,
 * counting rows or summing a field. The day window is a range on the stored column (not on the
 * day expression) so that an index on the column serves it.
 */
import type { CompiledChart, CompiledEntity, CompiledMetadata, CompiledScreen, Locale } from '../../codegen/runtime/model.ts';
import { quote } from '../../codegen/runtime/dialect.ts';
import { tileListFilter } from '../../codegen/runtime/tiles.ts';
import { windowDays, type ChartData, type ChartPoint } from '../../codegen/runtime/charts.ts';
import type { Engine } from '../engine/engine.ts';
import type { Principal } from '../engine/principal.ts';
import type { SqlPart } from '../engine/access.ts';
import { translate } from '../engine/i18n.ts';
import { mayShowOnDashboard } from './tiles.ts';
import { changeStamp, stampedAll } from './stamped-cache.ts';
import { readChartSums, sumsScope } from './chart-sums-read.ts';

/** The charts of a dashboard the caller may see: as tiles, those whose list it may open. */
export function visibleCharts(meta: CompiledMetadata, dashboard: CompiledScreen, p: Principal): { chart: CompiledChart; screen: CompiledScreen }[] {
  return (dashboard.charts ?? []).flatMap((chart) => {
    const screen = mayShowOnDashboard(meta, chart, p);
    return screen ? [{ chart, screen }] : [];
  });
}

/**
 * The SQL of one chart for the caller: the list's FROM and WHERE (scope, filters), the day window
 * as a range on the stored column, grouped by the bucket (the index-coverage test explains it).
 */
export function chartStatement(
  engine: Engine,
  p: Principal,
  e: CompiledEntity,
  chart: CompiledChart,
  screen: CompiledScreen,
  now: Date,
): SqlPart & { days: string[] } {
  const d = engine.d;
  const col = `a.${quote(e.fields[chart.groupBy.field].column)}`;
  const measure = chart.sum ? `COALESCE(SUM(a.${quote(e.fields[chart.sum].column)}), 0)` : 'COUNT(*)';
  const filter = JSON.stringify(tileListFilter(chart, screen, now));
  let group = col;
  let fixed: SqlPart | undefined;
  let days: string[] = [];
  if (chart.groupBy.bucket === 'day') {
    const type = e.fields[chart.groupBy.field].type as 'date' | 'datetime';
    group = d.dayOf(col, type);
    days = windowDays(chart.groupBy.lastDays!, now);
    const tomorrow = windowDays(1, new Date(now.getTime() + 86_400_000))[0];
    const bound = (day: string) => (type === 'date' ? day : `${day}T00:00:00.000Z`);
    fixed = { sql: `${col} >= ? AND ${col} < ?`, params: [bound(days[0]), bound(tomorrow)] };
  }
  const st = engine.listStatements(p, e, { filter, range: '[0,0]' }, 'read', fixed);
  return { sql: `SELECT ${group} AS k, ${measure} AS v${st.rows.sql} GROUP BY ${group}`, params: st.rows.params, days };
}

/** the key of the sums kept for the chart that is exactly the caller's scope, if any (chart-sums-read.ts) */
const sumsKey = (engine: Engine, p: Principal, chart: CompiledChart) =>
  chart.summary ? sumsScope(engine.meta, engine.meta.entities[chart.summary.entity], chart.summary, p) : null;

async function aggregate(engine: Engine, p: Principal, e: CompiledEntity, chart: CompiledChart, screen: CompiledScreen, now: Date, stamp: string) {
  // built first in every case: the list's refusals (grant, claim warehouse) are the chart's
  const st = chartStatement(engine, p, e, chart, screen, now);
  const key = sumsKey(engine, p, chart);
  if (key) return { rows: await readChartSums(engine.db, e, chart, key, st.days), days: st.days };
  const rows = await stampedAll<{ k: string | null; v: number | string }>(engine.db, stamp, st.sql, st.params);
  return { rows: new Map(rows.map((r) => [String(r.k), Number(r.v)])), days: st.days };
}

/** the codes a code chart has a bar for: those its filter keeps on the grouped field, else every code of the table, in its order */
function codesShown(meta: CompiledMetadata, chart: CompiledChart, table: string) {
  const kept = chart.filter[chart.groupBy.field];
  const only = kept === undefined ? undefined : new Set((Array.isArray(kept) ? kept : [kept]).map(String));
  return meta.codeTables[table].values.filter((v) => !only || only.has(v.code));
}

export async function chartData(engine: Engine, dashboard: CompiledScreen, p: Principal, locale: Locale, now = new Date()): Promise<ChartData[]> {
  const meta = engine.meta;
  const charts = visibleCharts(meta, dashboard, p);
  // charts without kept sums: unchanged since the last visit with no write in between, from the
  // stamped cache; the stamp is read once, before any of their queries
  const stamp = charts.some(({ chart }) => !sumsKey(engine, p, chart)) ? await changeStamp(engine.db) : '';
  return Promise.all(
    charts.map(async ({ chart, screen }) => {
      const e = meta.entities[meta.resources[screen.resource!]];
      const g = e.fields[chart.groupBy.field];
      const { rows, days } = await aggregate(engine, p, e, chart, screen, now, stamp);
      const points: ChartPoint[] =
        chart.groupBy.bucket === 'day'
          ? days.map((day) => ({ key: day, label: day, value: rows.get(day) ?? 0 }))
          : codesShown(meta, chart, g.codeTable!).map((v) => ({
              key: v.code,
              label: v.label[locale],
              value: rows.get(v.code) ?? 0,
            }));
      return {
        key: chart.key,
        title: translate(locale, chart.titleKey),
        valueLabel: translate(locale, chart.valueLabelKey),
        groupLabel: translate(locale, g.labelKey),
        kind: chart.kind,
        bucket: chart.groupBy.bucket,
        points,
      };
    }),
  );
}
