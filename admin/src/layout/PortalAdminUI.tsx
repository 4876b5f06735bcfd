/**
 * react-admin's <Admin> without its default pages (issue 21, point 1): <Admin> renders AdminUI,
 * which imports react-admin's own login form (react-hook-form, ra-ui-materialui's inputs), layout,
 * menus and error page as defaults, so all of them were in the sign-in page's script although the
 * portal replaces each. Here AdminContext (providers, theme) and ra-core's CoreAdminUI get the
 * portal's components only; the full error page loads when an error is shown.
 */
import { createElement, lazy, Suspense, type ComponentProps, type ComponentType, type ReactNode } from 'react';
import { CssBaseline } from '@mui/material';
import { AdminContext, CoreAdminUI, LoadingPage, type AdminContextProps, type CoreAdminUIProps } from 'react-admin';
import { LiveTexts } from '../providers/LiveTexts.tsx';

const RaError = lazy(() => import('./AppError.tsx'));

type ErrorProps = ComponentProps<NonNullable<CoreAdminUIProps['error']>>;
function AppError(props: ErrorProps) {
  return (
    <Suspense fallback={null}>
      <RaError {...props} />
    </Suspense>
  );
}

export interface PortalAdminProps extends AdminContextProps, Omit<CoreAdminUIProps, 'children'> {
  notification: ComponentType;
  children: ReactNode;
}

/** As <Admin>: context and routes, the notification beside them, CSS baseline around. */
export function PortalAdminUI({
  notification,
  children,
  layout,
  loginPage,
  catchAll,
  accessDenied,
  authenticationError,
  disableTelemetry,
  ...context
}: PortalAdminProps) {
  return (
    <AdminContext {...context}>
      {/* npm run dev's text swaps re-render the components that translate, nothing else */}
      <LiveTexts>
        <CssBaseline enableColorScheme>
          <CoreAdminUI
            layout={layout}
            loginPage={loginPage}
            catchAll={catchAll}
            accessDenied={accessDenied}
            authenticationError={authenticationError}
            disableTelemetry={disableTelemetry}
            error={AppError}
            loading={LoadingPage}
          >
            {children}
          </CoreAdminUI>
          {createElement(notification)}
        </CssBaseline>
      </LiveTexts>
    </AdminContext>
  );
}
