/**
 * The data provider, loaded on its first call (issue 21): the sign-in page reads no record (its
 * warehouse list comes through httpClient), yet react-admin needs a data provider from the start,
 * and ra-data-simple-rest brought query-string and its helpers into the first script. This stands
 * in with the same methods, each waiting for the module; the sign-in page fetches it once idle
 * (layout/LazyLayout.tsx, preloadShell) and a page with a session at once (App.tsx), beside the
 * layout, so no screen's first call waits for it.
 */
import type { PortalDataProvider } from './dataProvider.ts';

let loading: Promise<PortalDataProvider> | null = null;
export const loadDataProvider = (): Promise<PortalDataProvider> => (loading ??= import('./dataProvider.ts').then((m) => m.dataProvider));

/**
 * As ra-core's own proxy of a data provider (useDataProvider): symbols and `then` are not methods
 * (the object must not look like a promise), `supportAbortSignal` is the provider's flag (true: it
 * passes react-query's signal on), every other name is a method called once the module is there.
 */
export const lazyDataProvider = new Proxy({} as PortalDataProvider, {
  get: (_, name) => {
    if (typeof name === 'symbol' || name === 'then') return undefined;
    if (name === 'supportAbortSignal') return true;
    return (...args: unknown[]) =>
      loadDataProvider().then((dp) => {
        const method = (dp as unknown as Record<string, unknown>)[name];
        if (typeof method !== 'function') throw new Error(`Unknown dataProvider function: ${name}`);
        return (method as (...a: unknown[]) => unknown).apply(dp, args);
      });
  },
});
