/**
 * Breadcrumb (react-admin's is Enterprise-only): Home / menu group / list page / current page,
 * all from metadata (the screen's menu group, and activeMenu for hidden screens).
 */
import { Breadcrumbs, Link, Typography } from '@mui/material';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useTranslate } from 'react-admin';
import { metadata } from '../generated/index.ts';
import { DASHBOARD, HOME_PATH, screenByPath, screenForPath } from '../routing/routeTable.ts';

interface Crumb {
  key: string;
  label: string;
  to?: string;
}

export function useCrumbs(pathname: string): Crumb[] {
  const translate = useTranslate();
  const screen = screenForPath(pathname);
  const crumbs: Crumb[] = [];
  if (DASHBOARD) crumbs.push({ key: 'home', label: translate(DASHBOARD.titleKey), to: screen?.path === HOME_PATH ? undefined : HOME_PATH });
  if (!screen || screen.path === HOME_PATH) return crumbs;
  const menuScreen = screen.activeMenu ? screenByPath(screen.activeMenu) : screen;
  const group = metadata.app.menuGroups.find((g) => g.key === menuScreen?.menu?.group);
  if (group) crumbs.push({ key: `group-${group.key}`, label: translate(group.titleKey) });
  if (menuScreen && menuScreen !== screen) crumbs.push({ key: menuScreen.name, label: translate(menuScreen.titleKey), to: menuScreen.path });
  crumbs.push({ key: screen.name, label: translate(screen.titleKey) });
  return crumbs;
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
