/**
 * The work tiles of dashboard screens ("tiles"): each names a list screen (and optionally one of
 * its tabs) and conditions on that screen's declared filters, so that a click can open the list
 * with exactly the condition the tile counts. Runs after every screen is compiled (a tile names
 * another screen). Code keys become stored codes; a date range's bounds become days from today.
 */
import type { CompiledEntity, CompiledScreen, CompiledTile } from '../runtime/model.ts';
import type { CompileContext, Reporter } from './context.ts';
import type { RawTile } from './raw.ts';

interface TileSource {
  screen: CompiledScreen;
  tiles: RawTile[];
  file: string;
  base: string;
}

export function compileTiles(
  ctx: CompileContext,
  screens: CompiledScreen[],
  entities: Record<string, CompiledEntity>,
  resources: Record<string, string>,
  sources: TileSource[],
): void {
  const byName = new Map(screens.map((s) => [s.name, s]));
  for (const { screen, tiles, file, base } of sources) {
    const r = ctx.at(base);
    const keys = new Set<string>();
    if (tiles.length && screen.kind !== 'dashboard') r.err(file, '/tiles', 'only a dashboard screen has tiles');
    screen.tiles = tiles.map((t, i): CompiledTile => {
      const at = `/tiles/${i}`;
      if (keys.has(t.key)) r.err(file, `${at}/key`, `duplicate tile key "${t.key}"`);
      keys.add(t.key);
      r.needKey(file, `${at}/labelKey`, t.labelKey, `tile "${t.key}"`);
      const out: CompiledTile = { key: t.key, labelKey: t.labelKey, screen: t.screen, filter: {}, profiles: t.profiles ?? [], severity: t.severity ?? {} };
      if (t.tab) out.tab = t.tab;
      const list = listTarget(r, file, at, `tile "${t.key}"`, t, byName, entities, resources);
      if (!list) return out;
      out.filter = compileListFilter(r, file, at, t.screen, list.target, list.ent, t.filter ?? {});
      return out;
    });
  }
}

/** The list screen a tile or chart names (and its tab), or undefined after reporting why it cannot be one. */
export function listTarget(
  r: Reporter,
  file: string,
  at: string,
  what: string,
  t: { screen: string; tab?: string },
  byName: Map<string, CompiledScreen>,
  entities: Record<string, CompiledEntity>,
  resources: Record<string, string>,
): { target: CompiledScreen; ent: CompiledEntity } | undefined {
  const target = byName.get(t.screen);
  if (!target) {
    r.unknown(file, `${at}/screen`, 'screen', t.screen, byName.keys());
    return undefined;
  }
  const ent = target.resource ? entities[resources[target.resource]] : undefined;
  if (target.kind !== 'list' || !ent) {
    r.err(file, `${at}/screen`, `${what} must name a list screen ("${t.screen}" is a ${target.kind} screen)`);
    return undefined;
  }
  if (t.tab && !target.tabs.some((x) => x.key === t.tab))
    r.unknown(
      file,
      `${at}/tab`,
      'tab',
      t.tab,
      target.tabs.map((x) => x.key),
      { of: `of screen "${t.screen}"` },
    );
  return { target, ent };
}

/**
 * A tile's or chart's conditions on a list screen's declared filters, as list-protocol keys with
 * stored values (code keys become codes) and relative dates; refuses what the list cannot filter.
 */
export function compileListFilter(
  r: Reporter,
  file: string,
  at: string,
  screenName: string,
  target: CompiledScreen,
  ent: CompiledEntity,
  filter: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(filter)) {
    const p = `${at}/filter/${field}`;
    const decl = target.filters.find((f) => f.field === field);
    const fd = ent.fields[field];
    if (!decl || !fd) {
      r.unknown(
        file,
        p,
        'filter',
        field,
        target.filters.map((f) => f.field),
        { of: `of screen "${screenName}" (a tile or chart filters as its list can)` },
      );
      continue;
    }
    const isRange = typeof value === 'object' && value !== null && !Array.isArray(value);
    if (decl.op === 'range') {
      if (!isRange || fd.type !== 'date') {
        r.err(file, p, `a tile's or chart's range on "${field}" is { "fromDays", "toDays" } over a date field`);
        continue;
      }
      const { fromDays, toDays } = value as { fromDays?: number; toDays?: number };
      if (fromDays !== undefined) out[`${field}_gte`] = { daysFromToday: fromDays };
      if (toDays !== undefined) out[`${field}_lte`] = { daysFromToday: toDays };
      if (fromDays !== undefined && toDays !== undefined && fromDays > toDays) r.err(file, p, `"fromDays" is after "toDays"`);
    } else if (isRange) r.err(file, p, `filter "${field}" of screen "${screenName}" is "${decl.op}", not a range`);
    else if (decl.op === 'contains') out[`${field}_like`] = value;
    else if (Array.isArray(value) !== (decl.op === 'in'))
      r.err(file, p, `filter "${field}" of screen "${screenName}" is "${decl.op}": give ${decl.op === 'in' ? 'a list' : 'one value'}`);
    else if (fd.type === 'code' && fd.codeTable)
      out[field] = Array.isArray(value) ? value.map((v, j) => r.codeOf(file, `${p}/${j}`, fd.codeTable!, v)) : r.codeOf(file, p, fd.codeTable, value);
    else out[field] = value;
  }
  return out;
}
