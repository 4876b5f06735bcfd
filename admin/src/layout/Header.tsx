/** The header (spec 2): sidebar toggle, breadcrumb, then clock, warehouse, language, settings, user. */
import { Box, IconButton, Tooltip } from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpen from '@mui/icons-material/MenuOpen';
import SettingsIcon from '@mui/icons-material/Settings';
import { useTranslate } from 'react-admin';
import { Breadcrumb } from './Breadcrumb.tsx';
import { Clock } from './Clock.tsx';
import { LocaleSwitch } from './LocaleSwitch.tsx';
import { NotificationBell } from './NotificationBell.tsx';
import { UserMenu } from './UserMenu.tsx';
import { WarehouseSwitch } from './WarehouseSwitch.tsx';
import { HEADER_HEIGHT } from './theme.ts';

interface HeaderProps {
  sidebarOpen: boolean;
  isMobile: boolean;
  onToggleSidebar: () => void;
  onSettings: () => void;
  onProfile: () => void;
}

export function Header({ sidebarOpen, isMobile, onToggleSidebar, onSettings, onProfile }: HeaderProps) {
  const translate = useTranslate();
  return (
    <Box
      data-testid="navbar"
      sx={{
        height: HEADER_HEIGHT,
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: 1,
        bgcolor: 'background.paper',
        boxShadow: '0 1px 4px rgba(0,21,41,.08)',
      }}
    >
      <Tooltip title={translate('shell.header.toggleSidebar')}>
        <IconButton onClick={onToggleSidebar} data-testid="sidebar-toggle" aria-label={translate('shell.header.toggleSidebar')} aria-expanded={sidebarOpen}>
          {sidebarOpen ? <MenuOpen /> : <MenuIcon />}
        </IconButton>
      </Tooltip>
      {!isMobile && <Breadcrumb />}
      <Box sx={{ flex: 1 }} />
      {!isMobile && <Clock />}
      <WarehouseSwitch />
      <LocaleSwitch />
      <NotificationBell />
      <Tooltip title={translate('shell.header.settings')}>
        <IconButton onClick={onSettings} data-testid="settings-button" aria-label={translate('shell.header.settings')}>
          <SettingsIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <UserMenu onProfile={onProfile} />
    </Box>
  );
}
