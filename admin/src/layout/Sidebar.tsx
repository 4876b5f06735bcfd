/**
 * The sidebar (spec 2): logo, then the menu built from the screens the user may open. Groups are
 * collapsible with one open at a time (the group of the current page opens by itself). Collapsed,
 * only icons show and a group opens its entries in a popup menu.
 */
import { useEffect, useMemo, useState, type MouseEvent } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { Box, Collapse, List, ListItemButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip, Typography } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import LocalShipping from '@mui/icons-material/LocalShipping';
import { useTranslate } from 'react-admin';
import { metadata } from '../generated/index.ts';
import { useUser } from '../providers/hooks.ts';
import { HOME_PATH, menuPathOf, screenForPath } from '../routing/routeTable.ts';
import { NavIcon } from './icons.tsx';
import { buildMenu, groupOf, type MenuGroup, type MenuLeaf } from './menuModel.ts';
import { SIDEBAR_BG, SIDEBAR_SUB_BG, SIDEBAR_TEXT } from './theme.ts';
import { useSettings } from './settings.tsx';

export const LOGO_HEIGHT = 50;

interface SidebarProps {
  collapsed: boolean;
  /** called after a menu entry was chosen (the mobile drawer closes) */
  onNavigate?: () => void;
}

const itemSx = (depth: number, collapsed: boolean) => ({
  minHeight: 48,
  pl: collapsed ? 2 : 2.5 + depth * 2,
  color: SIDEBAR_TEXT,
  bgcolor: depth ? SIDEBAR_SUB_BG : 'transparent',
  '&:hover': { bgcolor: 'rgba(0,0,0,0.2)' },
  '&.Mui-selected, &.Mui-selected:hover': { color: 'primary.main', bgcolor: depth ? SIDEBAR_SUB_BG : 'transparent' },
  '& .MuiListItemIcon-root': { color: 'inherit', minWidth: collapsed ? 0 : 36 },
});

function Leaf({ item, depth, active, collapsed, onNavigate }: { item: MenuLeaf; depth: number; active: boolean; collapsed: boolean; onNavigate?: () => void }) {
  const translate = useTranslate();
  const label = translate(item.titleKey);
  const button = (
    <ListItemButton component={RouterLink} to={item.path} selected={active} onClick={onNavigate} title={collapsed ? undefined : label} sx={itemSx(depth, collapsed)} data-testid="menu-item" data-path={item.path} aria-current={active ? 'page' : undefined}>
      <ListItemIcon>
        <NavIcon name={item.icon} />
      </ListItemIcon>
      {!collapsed && <ListItemText primary={label} slotProps={{ primary: { noWrap: true, fontSize: 14 } }} />}
    </ListItemButton>
  );
  return collapsed ? (
    <Tooltip title={label} placement="right">
      {button}
    </Tooltip>
  ) : (
    button
  );
}

function Group({ group, open, onToggle, activePath, collapsed, onNavigate }: { group: MenuGroup; open: boolean; onToggle: () => void; activePath: string; collapsed: boolean; onNavigate?: () => void }) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const containsActive = group.items.some((i) => i.path === activePath);
  const label = translate(group.titleKey);
  if (collapsed) {
    return (
      <>
        <Tooltip title={label} placement="right">
          <ListItemButton onClick={(e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget)} selected={containsActive} sx={itemSx(0, true)} data-testid="menu-group" data-key={group.key}>
            <ListItemIcon>
              <NavIcon name={group.icon} />
            </ListItemIcon>
          </ListItemButton>
        </Tooltip>
        <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'top', horizontal: 'right' }}>
          {group.items.map((i) => (
            <MenuItem key={i.path} component={RouterLink} to={i.path} selected={i.path === activePath} onClick={() => { setAnchor(null); onNavigate?.(); }} data-testid="menu-item" data-path={i.path}>
              {translate(i.titleKey)}
            </MenuItem>
          ))}
        </Menu>
      </>
    );
  }
  return (
    <>
      <ListItemButton onClick={onToggle} sx={{ ...itemSx(0, false), ...(containsActive ? { color: '#fff' } : {}) }} data-testid="menu-group" data-key={group.key} aria-expanded={open}>
        <ListItemIcon>
          <NavIcon name={group.icon} />
        </ListItemIcon>
        <ListItemText primary={label} slotProps={{ primary: { noWrap: true, fontSize: 14 } }} />
        {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      </ListItemButton>
      <Collapse in={open} timeout="auto">
        <List disablePadding>
          {group.items.map((i) => (
            <Leaf key={i.path} item={i} depth={1} active={i.path === activePath} collapsed={false} onNavigate={onNavigate} />
          ))}
        </List>
      </Collapse>
    </>
  );
}

export function Logo({ collapsed }: { collapsed: boolean }) {
  const translate = useTranslate();
  return (
    <Box component={RouterLink} to={HOME_PATH} data-testid="sidebar-logo" sx={{ height: LOGO_HEIGHT, display: 'flex', alignItems: 'center', justifyContent: collapsed ? 'center' : 'flex-start', gap: 1.25, px: collapsed ? 0 : 2, bgcolor: '#2b2f3a', color: '#fff', textDecoration: 'none', flexShrink: 0 }}>
      <LocalShipping sx={{ color: 'primary.main' }} />
      {!collapsed && (
        <Typography noWrap sx={{ fontWeight: 600, fontSize: 15 }}>
          {translate(metadata.app.titleKey)}
        </Typography>
      )}
    </Box>
  );
}

export function Sidebar({ collapsed, onNavigate }: SidebarProps) {
  const user = useUser();
  const location = useLocation();
  const { settings } = useSettings();
  const entries = useMemo(() => buildMenu(user), [user]);
  const screen = screenForPath(location.pathname);
  const activePath = screen ? menuPathOf(screen) : location.pathname;
  const [openKey, setOpenKey] = useState<string | null>(() => groupOf(entries, activePath)?.key ?? null);

  // opening a page opens its group (and so closes any other)
  useEffect(() => {
    const g = groupOf(entries, activePath);
    if (g) setOpenKey(g.key);
  }, [entries, activePath]);

  return (
    <Box component="nav" data-testid="sidebar" data-collapsed={collapsed} sx={{ height: '100%', display: 'flex', flexDirection: 'column', bgcolor: SIDEBAR_BG, overflowX: 'hidden' }}>
      {settings.sidebarLogo && <Logo collapsed={collapsed} />}
      <Box sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}>
        <List disablePadding data-testid="menu">
          {entries.map((e) =>
            e.kind === 'item' ? (
              <Leaf key={e.path} item={e} depth={0} active={e.path === activePath} collapsed={collapsed} onNavigate={onNavigate} />
            ) : (
              <Group key={e.key} group={e} open={openKey === e.key} onToggle={() => setOpenKey((k) => (k === e.key ? null : e.key))} activePath={activePath} collapsed={collapsed} onNavigate={onNavigate} />
            ),
          )}
        </List>
      </Box>
    </Box>
  );
}
