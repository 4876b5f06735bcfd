/**
 * The MUI theme: react-admin's default light theme, the chosen theme colour, the sidebar width
 * from metadata, and small ("mini" UI size, spec 9) controls by default.
 *
 * The theme colour stays what the settings say (#1890ff by the spec). MUI's primary colour, which
 * is drawn as text (links, outlined and text buttons, the selected tab) and under white text
 * (contained buttons, the active tag), is its shade that reaches the AA contrast ratio 4.5:1 on
 * every light surface (contrast.ts): #1168b8 for #1890ff. The sidebar's selected entry uses the
 * lighter shade that reaches 4.5:1 on the dark menu.
 */
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { deepmerge } from '@mui/utils';
import { metadata } from '../generated/index.ts';
import { SIDEBAR_SURFACES, sidebarShadeOf, textShadeOf } from './contrast.ts';

export { sidebarShadeOf, textShadeOf };

/** Sidebar colours (dark menu, as the portal's users know it from the legacy UI). */
export const [SIDEBAR_BG, SIDEBAR_SUB_BG] = SIDEBAR_SURFACES;
export const SIDEBAR_TEXT = '#bfcbd9';
/** height of the visited-tabs strip (TagsView), which the notification stack keeps clear of */
/** The header's height (layout/Header.tsx); here, not in Header.tsx, so that the notification's offset does not pull the header into the sign-in page's script. */
export const HEADER_HEIGHT = 50;
export const TAGS_HEIGHT = 34;
export const SIDEBAR_COLLAPSED_WIDTH = 54;

/**
 * The user's system asks for less motion (WCAG 2.3.3, `prefers-reduced-motion`): MUI's transitions
 * (dialogs, menus, drawers, the sidebar's width) take no time and buttons draw no ripple. Read when
 * the theme is built; the browser tests ask for it too (playwright.config.ts).
 */
export const prefersReducedMotion = (): boolean => typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

const STILL = {
  transitions: { create: () => 'none', duration: { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 } },
  components: { MuiButtonBase: { defaultProps: { disableRipple: true } } },
};

export function buildTheme(themeColor: string, reducedMotion = prefersReducedMotion()): RaThemeOptions {
  const theme = deepmerge(defaultTheme, {
    palette: {
      primary: { main: textShadeOf(themeColor) },
      background: { default: '#f0f2f5' },
    },
    sidebar: { width: metadata.app.sidebarWidthPx, closedWidth: SIDEBAR_COLLAPSED_WIDTH },
    typography: {
      fontFamily: '"Helvetica Neue", Helvetica, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", Arial, sans-serif',
      fontSize: 13,
    },
    components: {
      // sentence case: English labels read as written in the catalogues, not in capitals
      MuiButton: { defaultProps: { size: 'small' }, styleOverrides: { root: { textTransform: 'none' } } },
      MuiIconButton: { defaultProps: { size: 'small' } },
      MuiTable: { defaultProps: { size: 'small' } },
    },
  }) as RaThemeOptions;
  return reducedMotion ? (deepmerge(theme, STILL) as RaThemeOptions) : theme;
}
