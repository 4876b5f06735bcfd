/**
 * The dashboard's two calls, GET /api/home/tiles and GET /api/home/charts, and their head start: a
 * page opened at a dashboard asks for them beside its code (routing/landing.ts, before the first
 * render), and the first query of each takes that answer instead of asking again. After a login
 * the numbers then arrive while the code loads, not after the screen has rendered once without them.
 * An answer is taken once, in the language it was asked in; every later query asks the server.
 */
import type { CompiledScreen } from '../../../../codegen/runtime/model.ts';
import type { TileCount } from '../../../../codegen/runtime/tiles.ts';
import type { ChartData } from '../../../../codegen/runtime/charts.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { currentLocale } from '../../providers/i18nProvider.ts';

/** One of the two calls: GET /api/home/<part>?screen=..., answering { <part>: [...] }. */
async function fetchHome<T>(part: 'tiles' | 'charts', screen: string): Promise<T[]> {
  const { status, json } = await httpClient(`/api/home/${part}?screen=${encodeURIComponent(screen)}`);
  if (status !== 200) throw new Error(`home ${part}: ${status}`);
  return (json as Record<string, T[]>)[part];
}
const fetchTiles = (screen: string) => fetchHome<TileCount>('tiles', screen);
const fetchCharts = (screen: string) => fetchHome<ChartData>('charts', screen);

const early = new Map<string, Promise<unknown>>();

function ahead(key: string, answer: Promise<unknown>): void {
  // a failure is reported by the query that takes the answer, not as an unhandled rejection here
  answer.catch(() => undefined);
  early.set(key, answer);
}

function take<T>(key: string, ask: () => Promise<T>): Promise<T> {
  const answer = early.get(key) as Promise<T> | undefined;
  early.delete(key);
  return answer ?? ask();
}

/** Asks for a dashboard's numbers ahead of its first render (no-op for a screen without tiles or charts). */
export function prefetchHomeData(screen: CompiledScreen): void {
  if (screen.tiles?.length) ahead(`tiles:${screen.name}`, fetchTiles(screen.name));
  if (screen.charts?.length) ahead(`charts:${screen.name}:${currentLocale()}`, fetchCharts(screen.name));
}

export const loadTiles = (screen: string): Promise<TileCount[]> => take(`tiles:${screen}`, () => fetchTiles(screen));
export const loadCharts = (screen: string, locale: string): Promise<ChartData[]> => take(`charts:${screen}:${locale}`, () => fetchCharts(screen));
