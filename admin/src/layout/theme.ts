/**
 * The MUI theme: react-admin's default light theme, the chosen primary colour, the sidebar width
 * from metadata, and small ("mini" UI size, spec 9) controls by default.
 */
import { defaultTheme, type RaThemeOptions } from 'react-admin';
import { deepmerge } from '@mui/utils';
import { metadata } from '../generated/index.ts';

/** Sidebar colours (dark menu, as the portal's users know it from the legacy UI). */
export const SIDEBAR_BG = '#304156';
export const SIDEBAR_SUB_BG = '#1f2d3d';
export const SIDEBAR_TEXT = '#bfcbd9';
export const SIDEBAR_COLLAPSED_WIDTH = 54;

export function buildTheme(primary: string): RaThemeOptions {
  return deepmerge(defaultTheme, {
    palette: {
      primary: { main: primary },
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
}
