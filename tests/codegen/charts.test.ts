/**
 * The dashboard charts' checks (codegen/compile/charts.ts and the meta-schema): a copy of the real
 * metadata is broken in one place and the error names the file and the JSON pointer; and what the
 * declared charts compile to.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { useMetadataCopy } from './metadata-copy.ts';
import { windowDays } from '../../codegen/runtime/charts.ts';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';

const m = useMetadataCopy('charts-');
const { edit, expectError } = m;
const FILE = 'screens/dashboard.json';

describe('dashboard charts: checks', () => {
  it('an unknown screen with a did-you-mean; a screen that is not a list', async () => {
    edit(FILE, (j) => (j.charts[0].screen = 'orderSerch'));
    await expectError(FILE, '/charts/0/screen', /unknown screen "orderSerch".*did you mean "orderSearch"/);
    edit(FILE, (j) => (j.charts[0].screen = 'settlementDetail'));
    await expectError(FILE, '/charts/0/screen', /chart "shippedPerDay" must name a list screen/);
  });

  it('an unknown group field with a did-you-mean; a field that is neither code nor date; lastDays on a code', async () => {
    edit(FILE, (j) => (j.charts[0].groupBy.field = 'lastShipedAt'));
    await expectError(FILE, '/charts/0/groupBy/field', /unknown field "lastShipedAt".*did you mean "lastShippedAt"/);
    edit(FILE, (j) => (j.charts[0].groupBy.field = 'partsCode'));
    await expectError(FILE, '/charts/0/groupBy/field', /groups by a code, date or datetime field \("partsCode" is string\)/);
    edit(FILE, (j) => (j.charts[1].groupBy.lastDays = 7));
    await expectError(FILE, '/charts/1/groupBy/lastDays', /"lastDays" goes with a date or datetime field/);
  });

  it('a sum over an unknown or a non-numeric field', async () => {
    edit(FILE, (j) => (j.charts[1].sum = 'unsentQtty'));
    await expectError(FILE, '/charts/1/sum', /unknown field "unsentQtty".*did you mean "unsentQty"/);
    edit(FILE, (j) => (j.charts[1].sum = 'orderNo'));
    await expectError(FILE, '/charts/1/sum', /sums an integer or decimal field/);
  });

  it('a filter the list does not declare, an unknown tab', async () => {
    edit(FILE, (j) => (j.charts[0].filter = { deliveryPlace: 'x' }));
    await expectError(FILE, '/charts/0/filter/deliveryPlace', /unknown filter "deliveryPlace" of screen "orderSearch"/);
    edit(FILE, (j) => (j.charts[0].tab = 'pending'));
    await expectError(FILE, '/charts/0/tab', /unknown tab "pending" of screen "orderSearch"/);
  });

  it('labels missing from the catalogues, a duplicate key, a kind the meta-schema does not know', async () => {
    edit(FILE, (j) => (j.charts[0].titleKey = 'chart.nothingHere'));
    await expectError(FILE, '/charts/0/titleKey', /chart\.nothingHere/);
    edit(FILE, (j) => (j.charts[1].valueLabelKey = 'chart.noValue'));
    await expectError(FILE, '/charts/1/valueLabelKey', /chart\.noValue/);
    edit(FILE, (j) => (j.charts[1].key = j.charts[0].key));
    await expectError(FILE, '/charts/1/key', /duplicate chart key/);
    edit(FILE, (j) => (j.charts[0].kind = 'pie'));
    await expectError(FILE, '/charts/0/kind', /bar|line|allowed/);
  });
});

describe('dashboard charts: compiled', () => {
  const meta = JSON.parse(readFileSync(resolve('server/generated/metadata.json'), 'utf8')) as CompiledMetadata;
  const charts = meta.screens.find((s) => s.name === 'dashboard')!.charts!;

  it('a datetime field groups by day over 30 days; a code field by code, summing a field', () => {
    expect(charts.map((c) => [c.key, c.groupBy, c.sum ?? null])).toEqual([
      ['shippedPerDay', { field: 'lastShippedAt', bucket: 'day', lastDays: 30 }, null],
      ['openQtyByStatus', { field: 'status', bucket: 'code' }, 'unsentQty'],
    ]);
  });

  it('the window: 30 days ending today in UTC, oldest first, across a month end', () => {
    const days = windowDays(30, new Date('2026-03-01T23:30:00Z'));
    expect([days.length, days[0], days.at(-1)]).toEqual([30, '2026-01-31', '2026-03-01']);
  });
});
