/**
 * The counts behind the dashboard's work tiles (metadata: a dashboard screen's "tiles"). A tile
 * counts what the list it opens would show the caller: the list's fixed filter, the tile's tab and
 * its own conditions, through the engine's list statements, so the caller's row scope, warehouse
 * rule and soft-delete rule apply exactly as on the list. The count is the list's bounded count
 * statement with a lower bound (TILE_COUNT_CAP rows, index-served): a tile is a call to work, and
 * "more than 1000" says that as well as the exact number would, while seven tiles reading up to
 * 10,000 rows each (the list's bound) took most of a second on a million order lines.
 */
import type { CompiledMetadata, CompiledScreen, CompiledTile } from '../../codegen/runtime/model.ts';
import { screenRefusal } from '../../codegen/runtime/access-rules.ts';
import { tileListFilter, tileSearch, type TileCount, type TileSeverity } from '../../codegen/runtime/tiles.ts';
import type { Engine } from '../engine/engine.ts';
import type { Principal } from '../engine/principal.ts';
import { changeStamp, stampedAll } from './stamped-cache.ts';

/** a tile counts at most this many rows; beyond, it says "more than" */
export const TILE_COUNT_CAP = 1000;

export function severityOf(t: CompiledTile, count: number): TileSeverity {
  if (t.severity.error !== undefined && count >= t.severity.error) return 'error';
  if (t.severity.warning !== undefined && count >= t.severity.warning) return 'warning';
  return 'info';
}

/**
 * Whether the caller sees a dashboard item (a tile or a chart) that names a list screen: its
 * profile is listed (or none is) and it may open the list (the server's screen rule).
 */
export function mayShowOnDashboard(meta: CompiledMetadata, item: { profiles: string[]; screen: string }, p: Principal): CompiledScreen | undefined {
  if (item.profiles.length && !item.profiles.includes(p.profile) && p.role !== 'admin') return undefined;
  const screen = meta.screens.find((s) => s.name === item.screen);
  const entity = screen?.resource ? meta.entities[meta.resources[screen.resource]] : undefined;
  return screen && entity && !screenRefusal(screen, p, entity) ? screen : undefined;
}

/** The tiles of a dashboard the caller may see. */
export function visibleTiles(meta: CompiledMetadata, dashboard: CompiledScreen, p: Principal): { tile: CompiledTile; screen: CompiledScreen }[] {
  return (dashboard.tiles ?? []).flatMap((tile) => {
    const screen = mayShowOnDashboard(meta, tile, p);
    return screen ? [{ tile, screen }] : [];
  });
}

export async function countTiles(engine: Engine, dashboard: CompiledScreen, p: Principal, now = new Date()): Promise<TileCount[]> {
  const meta = engine.meta;
  // counts unchanged since the last visit with no write in between come from the stamped cache
  const tiles = visibleTiles(meta, dashboard, p);
  const stamp = tiles.length ? await changeStamp(engine.db) : '';
  return Promise.all(
    tiles.map(async ({ tile, screen }) => {
      const entity = meta.entities[meta.resources[screen.resource!]];
      const st = engine.listStatements(p, entity, { filter: JSON.stringify(tileListFilter(tile, screen, now)), range: '[0,0]' });
      // the count statement's last parameter is its cap (one more row than the cap tells "more")
      const [row] = await stampedAll<{ n: number }>(engine.db, stamp, st.count.sql, [...st.count.params.slice(0, -1), TILE_COUNT_CAP + 1]);
      const n = Number(row.n);
      const more = n > TILE_COUNT_CAP;
      const count = more ? TILE_COUNT_CAP : n;
      return {
        key: tile.key,
        labelKey: tile.labelKey,
        screen: screen.name,
        path: screen.path,
        ...(tile.tab ? { tab: tile.tab } : {}),
        search: tileSearch(tile, now),
        count,
        more,
        severity: severityOf(tile, count),
      };
    }),
  );
}
