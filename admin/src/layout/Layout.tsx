/**
 * The portal layout (spec 2), written for react-admin's <Admin layout> because its own Layout
 * has no tab bar, breadcrumb or 992 px rule: a collapsible sidebar (metadata's 260 px), a
 * temporary drawer below the mobile breakpoint, a header (fixed or not) with the tab bar under
 * it, and the dialogs the session needs (401 re-login, forced password change, settings).
 */
import { Suspense, useCallback, useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { Box, Drawer, useTheme } from '@mui/material';
import { ErrorBoundary } from 'react-error-boundary';
import { Error as RaError, Loading } from 'react-admin';
import { metadata } from '../generated/index.ts';
import { PersonalInfoDialog } from '../auth/PersonalInfoDialog.tsx';
import { PasswordNoticeDialog } from '../auth/PasswordNoticeDialog.tsx';
import { ReloginDialog } from '../auth/ReloginDialog.tsx';
import { MUST_CHANGE_PASSWORD } from '../providers/authProvider.ts';
import { useAccountStatus, useAuthEvents } from '../providers/hooks.ts';
import { KEYS, read, write } from '../providers/storage.ts';
import { SessionGate } from '../routing/SessionGate.tsx';
import { ConnectionBanner } from './ConnectionBanner.tsx';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink.tsx';
import { Header } from './Header.tsx';
import { SettingsPanel } from './SettingsPanel.tsx';
import { Sidebar } from './Sidebar.tsx';
import { TagsView } from './TagsView.tsx';
import { useSettings } from './settings.tsx';
import { SIDEBAR_COLLAPSED_WIDTH } from './theme.ts';
import { MOBILE_QUERY, useMobileMode } from './mobile.ts';

export const SIDEBAR_WIDTH = metadata.app.sidebarWidthPx;
export { MOBILE_QUERY };

function Shell({ children }: { children: ReactNode }) {
  const { settings } = useSettings();
  const location = useLocation();
  const isMobile = useMobileMode();
  const [collapsed, setCollapsed] = useState(() => read(KEYS.sidebarCollapsed) === '1');
  const [mobileOpen, setMobileOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const accountStatus = useAccountStatus();
  const { mustChangePassword } = useAuthEvents();
  const forced = mustChangePassword || accountStatus === MUST_CHANGE_PASSWORD;

  const toggle = useCallback(() => {
    if (isMobile) setMobileOpen((o) => !o);
    else
      setCollapsed((c) => {
        write(KEYS.sidebarCollapsed, c ? null : '1');
        return !c;
      });
  }, [isMobile]);

  // the drawer closes when a page is chosen or the window grows past the breakpoint
  useEffect(() => setMobileOpen(false), [location.pathname, isMobile]);

  const width = isMobile ? 0 : collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH;
  // 'none' when the system asks for less motion (layout/theme.ts)
  const transition = useTheme().transitions.create(['width', 'margin-left'], { duration: 280 });

  return (
    <Box data-testid="layout" data-mobile={isMobile} sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <SkipLink />
      {isMobile ? (
        <Drawer open={mobileOpen} onClose={() => setMobileOpen(false)} slotProps={{ paper: { sx: { width: SIDEBAR_WIDTH, border: 0 } } }}>
          <Sidebar collapsed={false} onNavigate={() => setMobileOpen(false)} />
        </Drawer>
      ) : (
        <Box
          sx={{
            position: 'fixed',
            top: 0,
            bottom: 0,
            left: 0,
            width,
            transition,
            zIndex: (t) => t.zIndex.appBar + 1,
            boxShadow: '2px 0 6px rgba(0,21,41,.35)',
          }}
        >
          <Sidebar collapsed={collapsed} />
        </Box>
      )}
      <Box sx={{ ml: `${width}px`, transition, minWidth: 0, display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
        <Box
          component="header"
          data-testid="header"
          data-fixed={settings.fixedHeader}
          sx={{ position: settings.fixedHeader ? 'sticky' : 'relative', top: 0, zIndex: (t) => t.zIndex.appBar }}
        >
          <Header
            sidebarOpen={isMobile ? mobileOpen : !collapsed}
            isMobile={isMobile}
            onToggleSidebar={toggle}
            onSettings={() => setSettingsOpen(true)}
            onProfile={() => setProfileOpen(true)}
          />
          {settings.tagsView && <TagsView />}
        </Box>
        <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} sx={{ flex: 1, p: 2, minWidth: 0, outline: 'none' }}>
          <ErrorBoundary
            resetKeys={[location.pathname]}
            fallbackRender={({ error, resetErrorBoundary }) => <RaError error={error as Error} resetErrorBoundary={resetErrorBoundary} />}
          >
            <Suspense fallback={<Loading />}>{children}</Suspense>
          </ErrorBoundary>
        </Box>
      </Box>
      <SettingsPanel open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <PersonalInfoDialog open={forced || profileOpen} forced={forced} onClose={() => setProfileOpen(false)} />
      {!forced && <PasswordNoticeDialog onChange={() => setProfileOpen(true)} />}
      <ReloginDialog />
      <ConnectionBanner />
    </Box>
  );
}

/** <Admin layout>: the session guard first, then the shell around the routed page. */
export function PortalLayout({ children }: { children: ReactNode }) {
  return (
    <SessionGate>
      <Shell>{children}</Shell>
    </SessionGate>
  );
}
