/**
 * A system that asks for less motion (prefers-reduced-motion, WCAG 2.3.3) gets a theme whose
 * transitions take no time and whose buttons draw no ripple; any other gets MUI's motion.
 */
import { describe, expect, it } from 'vitest';
import { createTheme } from '@mui/material';
import { buildTheme } from '../../admin/src/layout/theme.ts';

describe('the theme and the system preference for less motion', () => {
  it('asked for less motion: no transition takes time, no ripple', () => {
    const theme = createTheme(buildTheme('#1890ff', true));
    expect(theme.transitions.create(['width'])).toBe('none');
    expect(Object.values(theme.transitions.duration).every((ms) => ms === 0)).toBe(true);
    expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
    // the rest of the theme is the portal's (colours, sizes)
    expect(theme.components?.MuiButton?.defaultProps?.size).toBe('small');
  });

  it('otherwise: MUI motion as usual', () => {
    const theme = createTheme(buildTheme('#1890ff', false));
    expect(theme.transitions.create(['width'])).toMatch(/^width \d+ms/);
    expect(theme.transitions.duration.standard).toBeGreaterThan(0);
    expect(theme.components?.MuiButtonBase?.defaultProps?.disableRipple).toBeUndefined();
  });

  it("reads the browser's preference when not told", () => {
    // jsdom has no matchMedia: no preference, so motion
    expect(createTheme(buildTheme('#1890ff')).transitions.duration.standard).toBeGreaterThan(0);
  });
});
