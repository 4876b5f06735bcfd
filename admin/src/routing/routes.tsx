/**
 * The route table as react-admin children, all from metadata (spec 2):
 * - public pages without the layout: /401, /404, /auth-redirect, the sign-in flow's pages
 *   (screens of kind "auth": forgot password, set a new password);
 * - inside the layout (behind the session guard): / -> dashboard, each business path's default
 *   child, every page screen at its path (and sub-paths, for ids), /redirect/<path>;
 * - one <Resource> per entity (no pages of its own: screens live at their metadata paths) so
 *   react-admin knows its label and record representation; its own URLs go to /404.
 * Unknown paths go to /404 (catchAll), react-admin's access-denied page to /401.
 */
import { Suspense } from 'react';
import { Navigate, Route } from 'react-router-dom';
import { CustomRoutes, Resource } from 'react-admin';
import { metadata } from '../generated/index.ts';
import { ScreenRoute } from './ScreenRoute.tsx';
import { AuthRedirect, ErrorPage, Redirect, RefreshRedirect } from './pages.tsx';
import { authPages } from '../auth/authPages.ts';
import {
  AUTH_REDIRECT_SCREEN,
  AUTH_SCREENS,
  DEFAULT_CHILDREN,
  ERROR_SCREENS,
  HOME_PATH,
  NOT_FOUND_PATH,
  PAGE_SCREENS,
  REFRESH_PREFIX,
  UNAUTHORIZED_PATH,
} from './routeTable.ts';

export const CatchAll = () => <Navigate to={NOT_FOUND_PATH} replace />;
export const AccessDenied = () => <Navigate to={UNAUTHORIZED_PATH} replace />;

/** Elements, built when the app renders: the installed metadata changes with a login (auth/enterSession.ts). */
export const resources = () =>
  Object.values(metadata.entities).map((e) => (
    <Resource key={e.resource} name={e.resource} recordRepresentation={e.titleField} options={{ label: e.labelKey }}>
      <Route path="*" element={<CatchAll />} />
    </Resource>
  ));

export const publicRoutes = () => (
  <CustomRoutes noLayout key="public">
    {ERROR_SCREENS.map((s) => (
      <Route key={s.path} path={s.path} element={<ErrorPage screen={s} />} />
    ))}
    {AUTH_REDIRECT_SCREEN && <Route path={AUTH_REDIRECT_SCREEN.path} element={<AuthRedirect screen={AUTH_REDIRECT_SCREEN} />} />}
    {AUTH_SCREENS.map((s) => {
      const Page = authPages[s.component ?? ''];
      return Page ? (
        <Route
          key={s.path}
          path={s.path}
          element={
            <Suspense fallback={null}>
              <Page screen={s} />
            </Suspense>
          }
        />
      ) : null;
    })}
  </CustomRoutes>
);

export const layoutRoutes = () => (
  <CustomRoutes key="layout">
    <Route path="/" element={<Navigate to={HOME_PATH} replace />} />
    {DEFAULT_CHILDREN.map((d) => (
      <Route key={d.from} path={d.from} element={<Redirect to={d.to} />} />
    ))}
    {PAGE_SCREENS.map((s) => (
      <Route key={s.path} path={`${s.path}/*`} element={<ScreenRoute screen={s} />} />
    ))}
    <Route path={`${REFRESH_PREFIX}/*`} element={<RefreshRedirect />} />
  </CustomRoutes>
);
