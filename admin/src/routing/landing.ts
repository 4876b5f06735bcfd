/**
 * The code of the page a session opens at, fetched before the app's first render (main.tsx): the
 * layout, the data provider and the screen of the address ('/' leads home), with its special
 * component or kind (screens/index.tsx, preloadScreenCode), and a dashboard's tiles and charts
 * (screens/home/homeData.ts).
 *
 * Why before: each of those is a chunk of its own behind a Suspense boundary, and React reveals a
 * boundary's content no sooner than 300 ms after the last fallback it showed (its reveal throttle,
 * FALLBACK_THROTTLE_MS in react-dom). Loaded one after another as the tree reached them, the layout,
 * the screens' entry, the dashboard and its chart cost about a second after a login on the loopback
 * (bench `home` step, docs/home-and-notifications.md); fetched together first, nothing suspends.
 * A failed fetch is ignored here: the same import runs again at render and reports there.
 */
import { preloadLayout } from '../layout/LazyLayout.tsx';
import { loadDataProvider } from '../providers/lazyDataProvider.ts';
import { HOME_PATH, screenForPath } from './routeTable.ts';
import { preloadScreen } from './ScreenRoute.tsx';
import { prefetchHomeData } from '../screens/home/homeData.ts';

export function preloadLanding(pathname: string): Promise<unknown> {
  const screen = screenForPath(pathname === '/' ? HOME_PATH : pathname);
  const quietly = (p: Promise<unknown>) => p.catch(() => undefined);
  // a dashboard's numbers come with its code (screens/home/homeData.ts)
  if (screen) prefetchHomeData(screen);
  return Promise.all([quietly(preloadLayout()), quietly(loadDataProvider()), screen ? quietly(preloadScreen(screen)) : undefined]);
}
