/**
 * The charts of dashboard screens ("charts"): each names a list screen (and optionally a tab and
 * conditions on its declared filters, like a tile), so the chart aggregates exactly the rows that
 * list would show the caller; then a field to group by (a code field: one bar per code; a date or
 * datetime field: one point per day over the last `lastDays` days) and optionally an integer or
 * decimal field to sum (else rows are counted). Runs after every screen is compiled.
 */
import type { CompiledChart, CompiledEntity, CompiledScreen } from '../runtime/model.ts';
import type { CompileContext } from './context.ts';
import type { RawChart } from './raw.ts';
import { compileListFilter, listTarget } from './tiles.ts';
import { chartSummary } from './chart-sums.ts';

interface ChartSource {
  screen: CompiledScreen;
  charts: RawChart[];
  file: string;
  base: string;
}

const SUMMABLE = new Set(['integer', 'decimal']);

export function compileCharts(
  ctx: CompileContext,
  screens: CompiledScreen[],
  entities: Record<string, CompiledEntity>,
  resources: Record<string, string>,
  sources: ChartSource[],
): void {
  const byName = new Map(screens.map((s) => [s.name, s]));
  for (const { screen, charts, file, base } of sources) {
    const r = ctx.at(base);
    const keys = new Set<string>();
    if (charts.length && screen.kind !== 'dashboard') r.err(file, '/charts', 'only a dashboard screen has charts');
    screen.charts = charts.map((c, i): CompiledChart => {
      const at = `/charts/${i}`;
      if (keys.has(c.key)) r.err(file, `${at}/key`, `duplicate chart key "${c.key}"`);
      keys.add(c.key);
      r.needKey(file, `${at}/titleKey`, c.titleKey, `chart "${c.key}"`);
      r.needKey(file, `${at}/valueLabelKey`, c.valueLabelKey, `chart "${c.key}"`);
      const out: CompiledChart = {
        key: c.key,
        titleKey: c.titleKey,
        screen: c.screen,
        filter: {},
        groupBy: { field: c.groupBy.field, bucket: 'code' },
        valueLabelKey: c.valueLabelKey,
        kind: c.kind ?? 'bar',
        profiles: c.profiles ?? [],
      };
      if (c.tab) out.tab = c.tab;
      if (c.sum) out.sum = c.sum;
      const list = listTarget(r, file, at, `chart "${c.key}"`, c, byName, entities, resources);
      if (!list) return out;
      out.filter = compileListFilter(r, file, at, c.screen, list.target, list.ent, c.filter ?? {});
      const fields = list.ent.fields;
      const g = fields[c.groupBy.field];
      if (!g) r.unknown(file, `${at}/groupBy/field`, 'field', c.groupBy.field, Object.keys(fields), { of: `of entity "${list.ent.name}"` });
      else if (g.private) r.err(file, `${at}/groupBy/field`, `chart "${c.key}" may not group by the private field "${g.name}"`);
      else if (g.type === 'date' || g.type === 'datetime') {
        out.groupBy = { field: g.name, bucket: 'day', lastDays: c.groupBy.lastDays ?? 30 };
      } else if (g.type === 'code' && g.codeTable) {
        if (c.groupBy.lastDays !== undefined)
          r.err(file, `${at}/groupBy/lastDays`, `"lastDays" goes with a date or datetime field, not the code field "${g.name}"`);
      } else r.err(file, `${at}/groupBy/field`, `chart "${c.key}" groups by a code, date or datetime field ("${g.name}" is ${g.type})`);
      if (c.sum !== undefined) {
        const s = fields[c.sum];
        if (!s) r.unknown(file, `${at}/sum`, 'field', c.sum, Object.keys(fields), { of: `of entity "${list.ent.name}"` });
        else if (s.private) r.err(file, `${at}/sum`, `chart "${c.key}" may not sum the private field "${s.name}"`);
        else if (!SUMMABLE.has(s.type)) r.err(file, `${at}/sum`, `chart "${c.key}" sums an integer or decimal field ("${s.name}" is ${s.type})`);
      }
      const summary = chartSummary(screen.name, out, list.target, list.ent);
      if (summary) out.summary = summary;
      return out;
    });
  }
}
