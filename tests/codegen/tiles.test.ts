/**
 * The dashboard tiles' checks (codegen/compile/tiles.ts): a copy of the real metadata is broken in
 * one place and the error names the file and the JSON pointer; and what a correct tile compiles to.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { useMetadataCopy } from './metadata-copy.ts';
import { dateFromToday, tileListFilter, tileSearch } from '../../codegen/runtime/tiles.ts';
import type { CompiledMetadata } from '../../codegen/runtime/model.ts';

const m = useMetadataCopy('tiles-');
const { edit, expectError } = m;
const FILE = 'screens/dashboard.json';
const tileIndex = (key: string) =>
  (JSON.parse(readFileSync(resolve('metadata', FILE), 'utf8')) as { tiles: { key: string }[] }).tiles.findIndex((t) => t.key === key);

describe('dashboard tiles: checks', () => {
  it('an unknown screen, with a did-you-mean', async () => {
    edit(FILE, (j) => (j.tiles[0].screen = 'orderConfirn'));
    await expectError(FILE, '/tiles/0/screen', /unknown screen "orderConfirn".*did you mean "orderConfirm"/);
  });

  it('a screen that is not a list', async () => {
    edit(FILE, (j) => (j.tiles[0].screen = 'settlementDetail'));
    await expectError(FILE, '/tiles/0/screen', /must name a list screen/);
  });

  it('a filter the list does not declare, an unknown tab, a wrong value shape, an unknown code key', async () => {
    edit(FILE, (j) => (j.tiles[0].filter = { deliveryPlace: 'x' }));
    await expectError(FILE, '/tiles/0/filter/deliveryPlace', /unknown filter "deliveryPlace" of screen "orderConfirm"/);
    edit(FILE, (j) => (j.tiles[0].filter = { orderType: ['urgent'] }));
    await expectError(FILE, '/tiles/0/filter/orderType', /is "eq": give one value/);
    edit(FILE, (j) => (j.tiles[0].filter = { orderType: 'urgnt' }));
    await expectError(FILE, '/tiles/0/filter/orderType', /unknown .*"urgnt"/);
    edit(FILE, (j) => (j.tiles[0].filter = { forecastReceiveDate: { fromDays: 3, toDays: 1 } }));
    await expectError(FILE, '/tiles/0/filter/forecastReceiveDate', /"fromDays" is after "toDays"/);
    edit(FILE, (j) => (j.tiles[0].filter = { forecastReceiveDate: '2026-01-01' }));
    await expectError(FILE, '/tiles/0/filter/forecastReceiveDate', /fromDays.*toDays.*date field/);
    edit(FILE, (j) => (j.tiles[tileIndex('hazardToConfirm')].tab = 'pendng'));
    await expectError(FILE, `/tiles/${tileIndex('hazardToConfirm')}/tab`, /unknown tab "pendng" of screen "recConfirm"/);
  });

  it('a label missing from the catalogues, a duplicate key', async () => {
    edit(FILE, (j) => (j.tiles[0].labelKey = 'tile.nothingHere'));
    await expectError(FILE, '/tiles/0/labelKey', /tile\.nothingHere/);
    edit(FILE, (j) => (j.tiles[1].key = j.tiles[0].key));
    await expectError(FILE, '/tiles/1/key', /duplicate tile key/);
  });
});

describe('dashboard tiles: compiled', () => {
  const meta = JSON.parse(readFileSync(resolve('server/generated/metadata.json'), 'utf8')) as CompiledMetadata;
  const dashboard = meta.screens.find((s) => s.name === 'dashboard')!;
  const tile = (key: string) => dashboard.tiles!.find((t) => t.key === key)!;
  const now = new Date('2026-03-30T23:30:00Z');

  it('a date range becomes days from today, resolved in UTC across a month end', () => {
    expect(tile('linesDueSoon').filter).toEqual({ forecastReceiveDate_gte: { daysFromToday: 0 }, forecastReceiveDate_lte: { daysFromToday: 3 } });
    expect(tileSearch(tile('linesDueSoon'), now)).toEqual({ forecastReceiveDate_gte: '2026-03-30', forecastReceiveDate_lte: '2026-04-02' });
    expect(dateFromToday(-1, new Date('2026-01-01T00:10:00Z'))).toBe('2025-12-31');
  });

  it("the list filter is the screen's fixed filter, the tab's filter and the tile's, code keys as stored codes", () => {
    const orderShip = meta.screens.find((s) => s.name === 'orderShip')!;
    expect(tileListFilter(tile('linesOverdue'), orderShip, now)).toEqual({ forecastReceiveDate_lte: '2026-03-29', status: '1' });
    const recConfirm = meta.screens.find((s) => s.name === 'recConfirm')!;
    expect(tileListFilter(tile('hazardToConfirm'), recConfirm, now)).toEqual({ status: ['0', '1'] });
    expect(tile('dfsUnsent').filter).toEqual({ shipStatus: ['0', '1'] });
  });
});
