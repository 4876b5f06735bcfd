/**
 * The admin application: react-admin over our providers, the portal layout and login page, and
 * the route table of spec 2 generated from metadata.screens (routing/routes.tsx). Settings sit
 * above <Admin> so the chosen theme colour applies everywhere, the login page included.
 */
import { useEffect, useMemo, useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import type { I18nProvider } from 'react-admin';
import { LoginPage } from './auth/LoginPage.tsx';
import { onSessionEntered } from './auth/enterSession.ts';
import { PortalLayout, preloadShell } from './layout/LazyLayout.tsx';
import { PortalAdminUI } from './layout/PortalAdminUI.tsx';
import { PortalNotification } from './layout/Notification.tsx';
import { SettingsProvider, useSettings } from './layout/settings.tsx';
import { buildTheme } from './layout/theme.ts';
import { authProvider } from './providers/authProvider.ts';
import { lazyDataProvider, loadDataProvider } from './providers/lazyDataProvider.ts';
import { portalStore } from './providers/store.ts';
import { getToken } from './providers/storage.ts';
import { AccessDenied, CatchAll, layoutRoutes, publicRoutes, resources } from './routing/routes.tsx';
import { LOGIN_PATH } from './routing/routeTable.ts';

const store = portalStore();

function PortalAdmin({ i18nProvider }: { i18nProvider: I18nProvider }) {
  const { settings } = useSettings();
  const theme = useMemo(() => buildTheme(settings.themeColor), [settings.themeColor]);
  // built from the metadata installed when this mounted: a login installs the session's and mounts anew
  const routes = useMemo(() => [resources(), publicRoutes(), layoutRoutes()], []);
  return (
    <PortalAdminUI
      dataProvider={lazyDataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      store={store}
      theme={theme}
      layout={PortalLayout}
      loginPage={LoginPage}
      catchAll={CatchAll}
      accessDenied={AccessDenied}
      authenticationError={AccessDenied}
      notification={PortalNotification}
      disableTelemetry
    >
      {routes}
    </PortalAdminUI>
  );
}

export function App({ i18nProvider: first }: { i18nProvider: I18nProvider }) {
  // a login in this page brings the session's texts and metadata: the admin below mounts anew with them (auth/enterSession.ts)
  const [session, setSession] = useState({ i18nProvider: first, generation: 0 });
  useEffect(() => onSessionEntered((i18nProvider) => setSession((s) => ({ i18nProvider, generation: s.generation + 1 }))), []);
  // npm run dev swaps the texts of a metadata edit below <Admin>, which keeps this provider (providers/LiveTexts.tsx)
  // the sign-in page shows no layout: fetch it (and the dashboard's code) once the page is idle
  useEffect(() => preloadShell(window.location.pathname === LOGIN_PATH), []);
  // a page with a session reads records at once: its data provider loads beside the layout
  useEffect(() => void (getToken() && loadDataProvider().catch(() => undefined)), []);
  return (
    <BrowserRouter>
      <SettingsProvider>
        <PortalAdmin key={session.generation} i18nProvider={session.i18nProvider} />
      </SettingsProvider>
    </BrowserRouter>
  );
}
