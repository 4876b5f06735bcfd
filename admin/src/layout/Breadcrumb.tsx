/**
 * Breadcrumb (react-admin's is Enterprise-only): Home / menu group / list page / current page,
 * all from metadata (the screen's menu group as the user's menu shows it, and activeMenu for hidden screens).
 */
import { Breadcrumbs, Link, Typography } from '@mui/material';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { getToken, getUser, type PortalUser } from '../providers/storage.ts';
import { screenTitleKey } from '../../../codegen/runtime/screen-title.ts';
import { buildMenu, groupOf } from './menuModel.ts';
import { DASHBOARD, HOME_PATH, screenByPath, screenForPath } from '../routing/routeTable.ts';

export interface Crumb {
  key: string;
  label: string;
  to?: string;
}

/**
 * The crumbs of a path for a user: the group crumb only when the user's menu shows that group (a
 * group with a single entry the user may open is shown as that entry, so it has no crumb either).
 */
export function crumbsFor(pathname: string, user: PortalUser | null, translate: (key: string) => string): Crumb[] {
  const screen = screenForPath(pathname);
  const crumbs: Crumb[] = [];
  if (DASHBOARD) crumbs.push({ key: 'home', label: translate(DASHBOARD.titleKey), to: screen?.path === HOME_PATH ? undefined : HOME_PATH });
  if (!screen || screen.path === HOME_PATH) return crumbs;
  const menuScreen = screen.activeMenu ? screenByPath(screen.activeMenu) : screen;
  const group = menuScreen ? groupOf(buildMenu(user), menuScreen.path) : undefined;
  if (group) crumbs.push({ key: `group-${group.key}`, label: translate(group.titleKey) });
  if (menuScreen && menuScreen !== screen)
    crumbs.push({ key: menuScreen.name, label: translate(screenTitleKey(menuScreen, user?.profile)), to: menuScreen.path });
  crumbs.push({ key: screen.name, label: translate(screenTitleKey(screen, user?.profile)) });
  return crumbs;
}

export function useCrumbs(pathname: string): Crumb[] {
  const translate = useTranslate();
  return crumbsFor(pathname, getToken() ? getUser() : null, translate);
}

export function Breadcrumb() {
  const location = useLocation();
  const crumbs = useCrumbs(location.pathname);
  return (
    <Breadcrumbs
      aria-label="breadcrumb"
      data-testid="breadcrumb"
      sx={{ fontSize: 14, minWidth: 0, '& ol': { flexWrap: 'nowrap' }, '& li': { whiteSpace: 'nowrap' } }}
    >
      {crumbs.map((c, i) =>
        c.to && i < crumbs.length - 1 ? (
          <Link key={c.key} component={RouterLink} to={c.to} underline="hover" color="inherit">
            {c.label}
          </Link>
        ) : (
          <Typography key={c.key} color={i === crumbs.length - 1 ? 'text.primary' : 'text.secondary'} sx={{ fontSize: 14 }}>
            {c.label}
          </Typography>
        ),
      )}
    </Breadcrumbs>
  );
}
