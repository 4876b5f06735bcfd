/**
 * Which charts the engine keeps summed (model.ts ChartSummary, server/home/chart-sums.ts): a chart
 * whose rows are a fixed condition on stored values, so that each row's contribution can be told
 * from the row alone when it is written. That holds when every condition of the list (its fixed
 * filter, the chart's tab, the chart's own filter) is an equality or a list of values on a field,
 * and the row scope is the entity's own columns (a warehouse field, supplier fields), not a
 * parent's. A chart with a relative date, a substring or a range in its condition, or over a child
 * entity, is aggregated from its rows at each call instead, as before.
 */
import type { ChartSummary, CompiledChart, CompiledEntity, CompiledScreen } from '../runtime/model.ts';

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

export function chartSummary(dashboard: string, chart: CompiledChart, list: CompiledScreen, ent: CompiledEntity): ChartSummary | undefined {
  if (ent.scope.parent) return undefined;
  const tab = chart.tab ? list.tabs.find((t) => t.key === chart.tab) : undefined;
  // the list sends these together (codegen/runtime/tiles.ts tileListFilter): later ones win
  const filter: Record<string, unknown> = { ...chart.filter, ...list.fixedFilter, ...(tab?.filter ?? {}) };
  const where: Record<string, Scalar[]> = {};
  for (const [key, value] of Object.entries(filter)) {
    const f = Object.hasOwn(ent.fields, key) ? ent.fields[key] : undefined;
    if (!f || f.private || key === 'id') return undefined;
    const values = Array.isArray(value) ? value : [value];
    if (!values.every(isScalar)) return undefined;
    where[key] = values;
  }
  return {
    key: `${dashboard}/${chart.key}`,
    entity: ent.name,
    ...(ent.scope.warehouseField ? { warehouseField: ent.scope.warehouseField } : {}),
    supplierFields: [...ent.scope.supplierFields],
    where,
    ...(ent.softDelete ? { softDelete: ent.softDelete } : {}),
  };
}
