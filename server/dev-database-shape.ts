/**
 * What the dev server's database step (prepare: migration, owed demo rows, trigram indexes) reads
 * of a generated bundle: the tables, the migrations and the entities' fields, seeds, code tables and
 * rules, and the charts the engine keeps sums for (their rows and buckets, not their labels).
 * Screens, menus, actions and texts are not in it: an edit of only those (a label, a column,
 * a button, the dev loop's common case) skips the database step and just builds the new app
 * (server/dev.ts). Demo rows that failed are retried on the edit that fixes their cause (a field, a
 * seed hint, a code table).
 */
import type { GeneratedBundle } from './generated/index.ts';

export function databaseShape(b: GeneratedBundle): string {
  const entities = Object.values(b.metadata.entities).map(({ actions: _actions, ...rest }) => rest);
  // the charts' sums (server/home/chart-sums-build.ts): a chart whose summed rows change is built again
  const chartSums = b.metadata.screens.flatMap((s) =>
    (s.charts ?? []).filter((c) => c.summary).map(({ titleKey: _t, valueLabelKey: _v, kind: _k, ...c }) => c),
  );
  return JSON.stringify([b.tables, b.migrations, b.metadata.codeTables, b.metadata.rules, entities, chartSums]);
}
