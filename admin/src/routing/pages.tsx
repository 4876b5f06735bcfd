/**
 * The small pages of the route table: /401 and /404 (one component, the code read from the
 * screen's path), /redirect/<path> (remounts a page: the tab bar's refresh), /auth-redirect
 * (forwards to its redirect parameter, or to login), and the business paths' default children.
 */
import { useEffect } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { Box, Button, Paper, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { CompiledScreen } from '../../../codegen/runtime/model.ts';
import { getToken } from '../providers/storage.ts';
import { loginPathFor } from '../providers/authProvider.ts';
import { HOME_PATH, safeTarget } from './routeTable.ts';
import { useDocumentTitle } from './useDocumentTitle.ts';

export function ErrorPage({ screen }: { screen: CompiledScreen }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  useDocumentTitle(screen.titleKey);
  const code = /(\d{3})$/.exec(screen.path)?.[1] ?? '';
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'background.default', p: 2 }}>
      <Paper data-testid={`error-page-${code}`} sx={{ p: 5, maxWidth: 520, width: '100%', textAlign: 'center' }}>
        <Typography variant="h1" color="primary" sx={{ fontWeight: 700, fontSize: 96, lineHeight: 1 }}>
          {code}
        </Typography>
        <Typography variant="h5" sx={{ mt: 2 }}>
          {translate(screen.titleKey)}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
          {translate(`shell.error.${code}`, { _: '' })}
        </Typography>
        <Button variant="contained" size="medium" onClick={() => navigate(HOME_PATH)}>
          {translate('shell.error.back')}
        </Button>
      </Paper>
    </Box>
  );
}

/** /redirect/orderShip/list?x=1 -> /orderShip/list?x=1, replacing the history entry. */
export function RefreshRedirect() {
  const params = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const target = `/${params['*'] ?? ''}${location.search}`;
  useEffect(() => {
    navigate(target, { replace: true });
  }, [navigate, target]);
  return null;
}

export function AuthRedirect({ screen }: { screen: CompiledScreen }) {
  const location = useLocation();
  useDocumentTitle(screen.titleKey);
  const target = safeTarget(new URLSearchParams(location.search).get('redirect')) ?? HOME_PATH;
  return <Navigate to={getToken() ? target : loginPathFor(target)} replace />;
}

export const Redirect = ({ to }: { to: string }) => {
  const location = useLocation();
  return <Navigate to={to + location.search} replace />;
};
