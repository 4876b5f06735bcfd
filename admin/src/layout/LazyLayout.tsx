/**
 * The portal layout, loaded on demand (issue 21, point 1): the sign-in page shows none of it, so
 * its code (header, sidebar, tabs, settings panel, session dialogs) stays out of what a first visit
 * downloads before the login form. Once the page is idle, preloadShell() fetches the layout, the
 * messages beyond the public pages' and the dashboard's code, while the user types the password, so
 * logging in does not wait for them.
 */
import { Suspense, type ReactNode } from 'react';
import { Loading } from 'react-admin';
import { currentLocale, preloadMessages } from '../providers/i18nProvider.ts';
import { loadDataProvider } from '../providers/lazyDataProvider.ts';
import { preloadable } from '../screens/preloadable.tsx';

// preloadable, not React.lazy: a page with a session fetches it before the first render (routing/landing.ts)
const Layout = preloadable<{ children: ReactNode }>(() => import('./Layout.tsx').then((m) => m.PortalLayout));
export const preloadLayout = Layout.preload;

export function PortalLayout({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<Loading />}>
      <Layout>{children}</Layout>
    </Suspense>
  );
}

let preloaded = false;
/**
 * Fetches (once) what the first screen after this page needs: the layout, the screens' entry, the
 * data provider and the session's messages (no-ops when loaded already), and, from the sign-in page (whose next page is the dashboard), the dashboard's code. Elsewhere the
 * open screen loads its own code: the dashboard's would be bytes spent on a slow link for nothing.
 */
export function preloadShell(onSignInPage: boolean): void {
  if (preloaded) return;
  preloaded = true;
  const fetchAll = () => {
    // failures are ignored here: the same imports run again (and report) when the code is needed
    void Layout.preload().catch(() => undefined);
    // a page without a session rendered with the public messages only: the next page needs the rest
    void preloadMessages(currentLocale(), ['session']).catch(() => undefined);
    void loadDataProvider().catch(() => undefined);
    void import('../screens').catch(() => undefined);
    if (onSignInPage) void import('../custom/NoticeCentre.tsx').catch(() => undefined);
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fetchAll, { timeout: 2000 });
  else setTimeout(fetchAll, 200);
}
