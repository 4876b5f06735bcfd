/**
 * The sidebar (spec 2): logo, then the menu built from the screens the user may open. Groups are
 * collapsible with one open at a time (the group of the current page opens by itself). Collapsed,
 * only icons show and a group opens its entries in a popup menu.
 *
 * The menu is a valid list (every entry an <li>, a group's entries a nested list in its <li>), and
 * a label longer than the sidebar wraps onto a second line instead of being cut off. The selected
 * entry is drawn in the theme colour's shade that is readable on the dark menu (contrast.ts).
 */
import { useEffect, useMemo, useState, type MouseEvent } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { Box, Collapse, List, ListItem, ListItemButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip, Typography } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import LocalShipping from '@mui/icons-material/LocalShipping';
import { useTranslate } from 'react-admin';
import { metadata } from '../generated/index.ts';
import { useUser } from '../providers/hooks.ts';
import { HOME_PATH, menuPathOf, screenForPath } from '../routing/routeTable.ts';
import { NavIcon } from './icons.tsx';
import { buildMenu, groupOf, type MenuGroup, type MenuLeaf } from './menuModel.ts';
import { SIDEBAR_BG, SIDEBAR_SUB_BG, SIDEBAR_TEXT, sidebarShadeOf } from './theme.ts';
import { useSettings } from './settings.tsx';

export const LOGO_HEIGHT = 50;

interface SidebarProps {
  collapsed: boolean;
  /** called after a menu entry was chosen (the mobile drawer closes) */
  onNavigate?: () => void;
}

const itemSx = (depth: number, collapsed: boolean, selectedColor: string) => ({
  minHeight: 48,
  pl: collapsed ? 2 : 2.5 + depth * 2,
  color: SIDEBAR_TEXT,
  bgcolor: depth ? SIDEBAR_SUB_BG : 'transparent',
  '&:hover': { bgcolor: 'rgba(0,0,0,0.2)' },
  '&.Mui-selected, &.Mui-selected:hover': { color: selectedColor, bgcolor: depth ? SIDEBAR_SUB_BG : 'transparent' },
  '& .MuiListItemIcon-root': { color: 'inherit', minWidth: collapsed ? 0 : 36 },
});

/** a long label wraps (two lines fit the 48 px entry) rather than being cut off */
const LABEL_PROPS = { primary: { fontSize: 14, lineHeight: 1.3, sx: { overflowWrap: 'anywhere' } } } as const;

/** the theme colour as the selected entry's text, readable on the dark menu */
function useSelectedColor(): string {
  const { settings } = useSettings();
  return useMemo(() => sidebarShadeOf(settings.themeColor), [settings.themeColor]);
}

function Leaf({ item, depth, active, collapsed, onNavigate }: { item: MenuLeaf; depth: number; active: boolean; collapsed: boolean; onNavigate?: () => void }) {
  const translate = useTranslate();
  const selectedColor = useSelectedColor();
  const label = translate(item.titleKey);
  const button = (
    <ListItemButton
      component={RouterLink}
      to={item.path}
      selected={active}
      onClick={onNavigate}
      sx={itemSx(depth, collapsed, selectedColor)}
      data-testid="menu-item"
      data-path={item.path}
      aria-current={active ? 'page' : undefined}
    >
      <ListItemIcon>
        <NavIcon name={item.icon} />
      </ListItemIcon>
      {!collapsed && <ListItemText primary={label} slotProps={LABEL_PROPS} />}
    </ListItemButton>
  );
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      {collapsed ? (
        <Tooltip title={label} placement="right">
          {button}
        </Tooltip>
      ) : (
        button
      )}
    </ListItem>
  );
}

function Group({
  group,
  open,
  onToggle,
  activePath,
  collapsed,
  onNavigate,
}: {
  group: MenuGroup;
  open: boolean;
  onToggle: () => void;
  activePath: string;
  collapsed: boolean;
  onNavigate?: () => void;
}) {
  const translate = useTranslate();
  const selectedColor = useSelectedColor();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const containsActive = group.items.some((i) => i.path === activePath);
  const label = translate(group.titleKey);
  if (collapsed) {
    return (
      <ListItem disablePadding sx={{ display: 'block' }}>
        <Tooltip title={label} placement="right">
          <ListItemButton
            onClick={(e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget)}
            selected={containsActive}
            sx={itemSx(0, true, selectedColor)}
            data-testid="menu-group"
            data-key={group.key}
            aria-label={label}
            aria-haspopup="menu"
          >
            <ListItemIcon>
              <NavIcon name={group.icon} />
            </ListItemIcon>
          </ListItemButton>
        </Tooltip>
        <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'top', horizontal: 'right' }}>
          {group.items.map((i) => (
            <MenuItem
              key={i.path}
              component={RouterLink}
              to={i.path}
              selected={i.path === activePath}
              onClick={() => {
                setAnchor(null);
                onNavigate?.();
              }}
              data-testid="menu-item"
              data-path={i.path}
            >
              {translate(i.titleKey)}
            </MenuItem>
          ))}
        </Menu>
      </ListItem>
    );
  }
  return (
    <ListItem disablePadding sx={{ display: 'block' }}>
      <ListItemButton
        onClick={onToggle}
        sx={{ ...itemSx(0, false, selectedColor), ...(containsActive ? { color: '#fff' } : {}) }}
        data-testid="menu-group"
        data-key={group.key}
        aria-expanded={open}
      >
        <ListItemIcon>
          <NavIcon name={group.icon} />
        </ListItemIcon>
        <ListItemText primary={label} slotProps={LABEL_PROPS} />
        {open ? <ExpandLess fontSize="small" /> : <ExpandMore fontSize="small" />}
      </ListItemButton>
      <Collapse in={open} timeout="auto">
        <List disablePadding>
          {group.items.map((i) => (
            <Leaf key={i.path} item={i} depth={1} active={i.path === activePath} collapsed={false} onNavigate={onNavigate} />
          ))}
        </List>
      </Collapse>
    </ListItem>
  );
}

export function Logo({ collapsed }: { collapsed: boolean }) {
  const translate = useTranslate();
  const { settings } = useSettings();
  return (
    <Box
      component={RouterLink}
      to={HOME_PATH}
      data-testid="sidebar-logo"
      sx={{
        height: LOGO_HEIGHT,
        display: 'flex',
        alignItems: 'center',
        justifyContent: collapsed ? 'center' : 'flex-start',
        gap: 1.25,
        px: collapsed ? 0 : 2,
        bgcolor: '#2b2f3a',
        color: '#fff',
        textDecoration: 'none',
        flexShrink: 0,
      }}
    >
      {/* an icon carries no text: the theme colour itself */}
      <LocalShipping sx={{ color: settings.themeColor }} />
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
    <Box
      component="nav"
      data-testid="sidebar"
      data-collapsed={collapsed}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', bgcolor: SIDEBAR_BG, overflowX: 'hidden' }}
    >
      {settings.sidebarLogo && <Logo collapsed={collapsed} />}
      <Box sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}>
        <List disablePadding data-testid="menu">
          {entries.map((e) =>
            e.kind === 'item' ? (
              <Leaf key={e.path} item={e} depth={0} active={e.path === activePath} collapsed={collapsed} onNavigate={onNavigate} />
            ) : (
              <Group
                key={e.key}
                group={e}
                open={openKey === e.key}
                onToggle={() => setOpenKey((k) => (k === e.key ? null : e.key))}
                activePath={activePath}
                collapsed={collapsed}
                onNavigate={onNavigate}
              />
            ),
          )}
        </List>
      </Box>
    </Box>
  );
}
