/**
 * The dev server skips its database step for an edit of only labels, screens or actions
 * (server/dev-database-shape.ts), and runs it for anything the migration, the demo rows or the
 * trigram indexes read, or the charts' sums are built from.
 */
import { describe, expect, it } from 'vitest';
import { databaseShape } from '../../server/dev-database-shape.ts';
import * as generated from '../../server/generated/index.ts';
import type { GeneratedBundle } from '../../server/generated/index.ts';

const bundle = (): GeneratedBundle =>
  structuredClone({
    metadata: generated.metadata,
    schemas: generated.schemas,
    messages: generated.messages,
    tables: generated.tables,
    migrations: generated.migrations,
  });
const entityWithActions = () => Object.values(generated.metadata.entities).find((e) => Object.keys(e.actions ?? {}).length)!;

describe('the dev server database step', () => {
  it('is skipped for a label, a column or an action', () => {
    const before = databaseShape(bundle());
    const b = bundle();
    b.messages['en-US'] = { ...b.messages['en-US'], 'route.x': 'X' };
    const screen = b.metadata.screens.find((s) => s.columns.length)!;
    screen.columns = [...screen.columns, { ...screen.columns[0], field: 'id' }];
    const e = b.metadata.entities[entityWithActions().name];
    e.actions = { ...e.actions, extra: { ...Object.values(e.actions)[0], name: 'extra' } };
    expect(databaseShape(b)).toBe(before);
  });

  it('runs for a field, a table or a code table', () => {
    const before = databaseShape(bundle());
    const field = bundle();
    const e = Object.values(field.metadata.entities)[0];
    e.fields = { ...e.fields, extra: { ...Object.values(e.fields)[0], name: 'extra' } };
    expect(databaseShape(field)).not.toBe(before);
    const table = bundle();
    table.tables.sqlite = table.tables.sqlite.slice(1);
    expect(databaseShape(table)).not.toBe(before);
    const code = bundle();
    const t = Object.values(code.metadata.codeTables)[0];
    t.values = t.values.slice(1);
    expect(databaseShape(code)).not.toBe(before);
  });

  it('runs for a chart whose summed rows change (its sums are built again), not for its title', () => {
    const before = databaseShape(bundle());
    const dashboard = (b: GeneratedBundle) => b.metadata.screens.find((s) => s.charts?.some((c) => c.summary))!;
    const title = bundle();
    dashboard(title).charts![0].titleKey = 'chart.other';
    expect(databaseShape(title)).toBe(before);
    const rows = bundle();
    const chart = dashboard(rows).charts!.find((c) => c.summary)!;
    chart.summary = { ...chart.summary!, where: { ...chart.summary!.where, status: ['9'] } };
    expect(databaseShape(rows)).not.toBe(before);
  });
});
