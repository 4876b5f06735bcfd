/**
 * The tab bar of visited pages (spec 2): click to switch, x to close, right-click for refresh,
 * close, close others, close all. Pinned tabs (the dashboard) have no x and survive "close all".
 * Refresh goes through /redirect/<path>, which remounts the page (and so refetches its data).
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type MouseEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Box, ButtonBase, Divider, ListItemIcon, Menu, MenuItem } from '@mui/material';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import CloseIcon from '@mui/icons-material/Close';
import Refresh from '@mui/icons-material/Refresh';
import { useTranslate } from 'react-admin';
import { useUser } from '../providers/hooks.ts';
import { screenAllowed } from '../providers/permissions.ts';
import { HOME_PATH, PAGE_SCREENS, REFRESH_PREFIX, screenForPath } from '../routing/routeTable.ts';
import { scrollTabIntoView, TabScrollArrow, useTabBarEnds } from './tagsScroll.tsx';
import { addTab, closeAllTabs, closeOtherTabs, closeTab, keepTabs, tagsStore, type Tab } from './tagsStore.ts';

// kept in theme.ts so the notification stack (loaded with the sign-in page) need not load this strip
import { TAGS_HEIGHT } from './theme.ts';
export { TAGS_HEIGHT };

export function useTabs(): Tab[] {
  return useSyncExternalStore(tagsStore.subscribe, tagsStore.get);
}

export function TagsView() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const location = useLocation();
  const user = useUser();
  const tabs = useTabs();
  const [menu, setMenu] = useState<{ x: number; y: number; tab: Tab } | null>(null);

  // pinned screens are always there; tabs of pages the user may no longer open go (warehouse change)
  const pinned = useMemo(() => PAGE_SCREENS.filter((s) => s.pinned && screenAllowed(s, user)), [user]);
  useEffect(() => {
    let next = keepTabs(tagsStore.get(), (t) => {
      const s = screenForPath(t.path);
      return !!s && screenAllowed(s, user);
    });
    for (const s of pinned)
      if (!next.some((t) => t.path === s.path)) next = addTab(next, { path: s.path, fullPath: s.path, titleKey: s.titleKey, pinned: true });
    tagsStore.set(next);
  }, [pinned, user]);

  const isActive = (t: Tab) => t.path === location.pathname;
  // The handlers ask the URL, not the rendered location: the router renders a navigation as a React
  // transition, which yields to input, so a tab closed while the next page still renders would be
  // judged by the page before it (seen on a loaded CI machine: the closed page stayed open).
  const isCurrent = (t: Tab) => t.path === window.location.pathname;
  // the active tab is always in view: a tab opened (or chosen) beyond the bar's width scrolls into it
  const barRef = useRef<HTMLDivElement>(null);
  const ends = useTabBarEnds(barRef, tabs.length);
  useEffect(() => {
    const bar = barRef.current;
    const el = bar?.querySelector<HTMLElement>('[data-testid="tag"][aria-selected="true"]');
    if (bar && el) scrollTabIntoView(bar, el);
    // again once the arrows appear: they narrow the bar
  }, [location.pathname, tabs, ends.overflows]);

  /** after closing, an active tab that disappeared hands over to the last remaining tab */
  const settle = (next: Tab[], wasActive: boolean) => {
    tagsStore.set(next);
    if (wasActive) navigate(next.length ? next[next.length - 1].fullPath : HOME_PATH);
  };

  const onClose = (t: Tab) => settle(closeTab(tagsStore.get(), t.path), isCurrent(t));
  const onCloseOthers = (t: Tab) => {
    const next = closeOtherTabs(tagsStore.get(), t.path);
    tagsStore.set(next);
    if (!isCurrent(t)) navigate(t.fullPath);
  };
  const onCloseAll = () => {
    const current = tagsStore.get().find(isCurrent);
    settle(closeAllTabs(tagsStore.get()), !current?.pinned);
  };
  const onRefresh = (t: Tab) => navigate(`${REFRESH_PREFIX}${t.fullPath}`, { replace: isCurrent(t) });

  const openMenu = (e: MouseEvent, tab: Tab) => {
    e.preventDefault();
    setMenu({ x: e.clientX, y: e.clientY, tab });
  };
  const run = (fn: () => void) => {
    setMenu(null);
    fn();
  };

  return (
    <Box
      sx={{
        height: TAGS_HEIGHT,
        display: 'flex',
        alignItems: 'center',
        bgcolor: 'background.paper',
        borderBottom: 1,
        borderColor: 'divider',
        boxShadow: '0 1px 3px 0 rgba(0,0,0,.12), 0 0 3px 0 rgba(0,0,0,.04)',
      }}
    >
      {ends.overflows && (
        <TabScrollArrow bar={barRef} direction={-1} disabled={ends.atStart} label={translate('ui.tabsScrollLeft')} icon={<ChevronLeft fontSize="small" />} />
      )}
      <Box
        ref={barRef}
        data-testid="tags-view"
        role="tablist"
        sx={{
          flex: 1,
          minWidth: 0,
          height: '100%',
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          px: 1,
          overflowX: 'auto',
          overflowY: 'hidden',
          whiteSpace: 'nowrap',
          scrollbarWidth: 'none',
        }}
      >
        {tabs.map((t) => {
          const active = isActive(t);
          return (
            <ButtonBase
              key={t.path}
              component="div"
              role="tab"
              aria-selected={active}
              data-testid="tag"
              data-path={t.path}
              data-pinned={t.pinned}
              onClick={() => !active && navigate(t.fullPath)}
              onContextMenu={(e: MouseEvent) => openMenu(e, t)}
              onAuxClick={(e: MouseEvent) => e.button === 1 && !t.pinned && onClose(t)}
              sx={{
                height: 26,
                px: 1,
                gap: 0.5,
                fontSize: 12,
                border: 1,
                borderRadius: 0.5,
                flexShrink: 0,
                borderColor: active ? 'primary.main' : 'divider',
                bgcolor: active ? 'primary.main' : 'background.paper',
                color: active ? 'primary.contrastText' : 'text.primary',
                '&::before': active ? { content: '""', width: 8, height: 8, borderRadius: '50%', bgcolor: '#fff', mr: 0.5 } : undefined,
              }}
            >
              {translate(t.titleKey)}
              {!t.pinned && (
                <Box
                  component="span"
                  role="button"
                  aria-label={translate('shell.tags.close')}
                  data-testid="tag-close"
                  onClick={(e: MouseEvent) => {
                    e.stopPropagation();
                    onClose(t);
                  }}
                  sx={{ display: 'inline-flex', borderRadius: '50%', '&:hover': { bgcolor: 'rgba(0,0,0,0.2)' } }}
                >
                  <CloseIcon sx={{ fontSize: 14 }} />
                </Box>
              )}
            </ButtonBase>
          );
        })}
      </Box>
      {ends.overflows && (
        <TabScrollArrow bar={barRef} direction={1} disabled={ends.atEnd} label={translate('ui.tabsScrollRight')} icon={<ChevronRight fontSize="small" />} />
      )}
      <Menu
        open={!!menu}
        onClose={() => setMenu(null)}
        anchorReference="anchorPosition"
        anchorPosition={menu ? { top: menu.y, left: menu.x } : undefined}
        data-testid="tags-menu"
      >
        <MenuItem dense onClick={() => menu && run(() => onRefresh(menu.tab))} data-testid="tags-refresh">
          <ListItemIcon>
            <Refresh fontSize="small" />
          </ListItemIcon>
          {translate('shell.tags.refresh')}
        </MenuItem>
        <MenuItem dense disabled={!!menu?.tab.pinned} onClick={() => menu && run(() => onClose(menu.tab))} data-testid="tags-close">
          <ListItemIcon>
            <CloseIcon fontSize="small" />
          </ListItemIcon>
          {translate('shell.tags.close')}
        </MenuItem>
        <Divider />
        <MenuItem dense onClick={() => menu && run(() => onCloseOthers(menu.tab))} data-testid="tags-close-others">
          {translate('shell.tags.closeOthers')}
        </MenuItem>
        <MenuItem dense onClick={() => run(onCloseAll)} data-testid="tags-close-all">
          {translate('shell.tags.closeAll')}
        </MenuItem>
      </Menu>
    </Box>
  );
}
