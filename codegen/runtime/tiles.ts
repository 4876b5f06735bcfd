/**
 * A dashboard tile's filter, as the list it opens applies it. Shared by the server (which counts
 * the tile's rows with exactly the filter the list sends) and the admin (which opens the list with
 * the tile's filter as its search), so the number on a tile is the number of rows its list shows.
 * Relative dates ("within 3 days") are resolved when counted or opened, in UTC like the server clock.
 */
import type { CompiledScreen, CompiledTile, DaysFromToday } from './model.ts';

export type TileSeverity = 'info' | 'warning' | 'error';

/** One tile as GET /api/home/tiles answers it (server/home/tiles.ts), read by the admin's HomeTiles. */
export interface TileCount {
  key: string;
  labelKey: string;
  /** the list screen a click opens, and its tab */
  screen: string;
  path: string;
  tab?: string;
  /** the search the opened list applies (relative dates resolved, the same day as the count) */
  search: Record<string, unknown>;
  count: number;
  /** true: more than `count` rows (the count stopped at its bound) */
  more: boolean;
  severity: TileSeverity;
}

export const isDaysFromToday = (v: unknown): v is DaysFromToday =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as DaysFromToday).daysFromToday === 'number';

/** yyyy-MM-dd of today (UTC) plus `days` */
export function dateFromToday(days: number, now: Date = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

/** The tile's own conditions with relative dates resolved: the search the opened list shows in its filter bar. */
export function tileSearch(tile: Pick<CompiledTile, 'filter'>, now: Date = new Date()): Record<string, unknown> {
  return Object.fromEntries(Object.entries(tile.filter).map(([k, v]) => [k, isDaysFromToday(v) ? dateFromToday(v.daysFromToday, now) : v]));
}

/** Everything the list sends when opened from the tile: the screen's fixed filter, the tile's tab, the tile's search. */
export function tileListFilter(tile: Pick<CompiledTile, 'filter' | 'tab'>, screen: CompiledScreen, now: Date = new Date()): Record<string, unknown> {
  const tab = tile.tab ? screen.tabs.find((t) => t.key === tile.tab) : undefined;
  return { ...tileSearch(tile, now), ...screen.fixedFilter, ...(tab?.filter ?? {}) };
}
