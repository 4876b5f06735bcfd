/**
 * The route guard of spec 2 for everything inside the layout:
 * - no token: to /login?redirect=<target>;
 * - token: the user info is fetched once per page load (roles and warehouse may have changed);
 *   if that fails, the message ('Verification failed, please Login again.' for a refused token,
 *   else the server's or 'Has Error'), the token is reset and the user goes to login;
 * - but a server that cannot be reached (restarting) is no reason to log out: the page says it is
 *   reconnecting and asks again until the server answers, the token kept.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { Loading, useNotify } from 'react-admin';
import { loginPathFor } from '../providers/authProvider.ts';
import { useSessionQuery, useToken } from '../providers/hooks.ts';
import { resetToken } from '../providers/storage.ts';
import { translate } from '../providers/i18nProvider.ts';
import { isServerUnavailable } from '../providers/connection.ts';
import { ConnectionBanner } from '../layout/ConnectionBanner.tsx';

/** How long the guard waits before asking an unreachable server again (each ask waits itself too). */
const SESSION_RETRY_MS = 2000;

export function SessionGate({ children }: { children: ReactNode }) {
  const token = useToken();
  const location = useLocation();
  const navigate = useNavigate();
  const notify = useNotify();
  const session = useSessionQuery();
  const failedOnce = useRef(false);

  const unavailable = session.isError && isServerUnavailable(session.error);
  useEffect(() => {
    if (!unavailable) return;
    const timer = setTimeout(() => void session.refetch(), SESSION_RETRY_MS);
    return () => clearTimeout(timer);
  }, [unavailable, session]);

  useEffect(() => {
    if (!session.isError || unavailable || failedOnce.current) return;
    failedOnce.current = true;
    notify(session.error?.message || translate('error.hasError'), { type: 'error' });
    const target = location.pathname + location.search;
    resetToken();
    navigate(loginPathFor(target), { replace: true });
  }, [session.isError, unavailable, session.error, notify, navigate, location.pathname, location.search]);

  if (!token) return <Navigate to={loginPathFor(location.pathname + location.search)} replace />;
  if (!session.data)
    return (
      <>
        <ConnectionBanner force={unavailable} />
        <Loading />
      </>
    );
  return <>{children}</>;
}
