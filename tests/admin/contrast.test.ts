/** Colour contrast: the theme colour's readable shades (WCAG 2.1 AA, 4.5:1 for text). */
import { describe, expect, it } from 'vitest';
import { LIGHT_SURFACES, SIDEBAR_SURFACES, contrastRatio, readableShade, sidebarShadeOf, textShadeOf } from '../../admin/src/layout/contrast.ts';
import { THEME_COLORS } from '../../admin/src/layout/SettingsPanel.tsx';

describe('contrast', () => {
  it('computes the WCAG ratio', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#1890ff', '#ffffff')).toBeCloseTo(3.24, 2);
    expect(contrastRatio('#fff', '#ffffff')).toBe(1);
  });

  it('the spec colour #1890ff, too light for text on white, gets a darker shade of the same hue', () => {
    const shade = textShadeOf('#1890ff');
    expect(shade).toBe('#1168b8');
    for (const bg of LIGHT_SURFACES) expect(contrastRatio(shade, bg)).toBeGreaterThanOrEqual(4.5);
    // white text on it (contained buttons, the active tag) passes as well
    expect(contrastRatio('#ffffff', shade)).toBeGreaterThanOrEqual(4.5);
  });

  it('every theme colour offered gets shades readable on light surfaces and on the dark menu', () => {
    for (const c of THEME_COLORS) {
      for (const bg of LIGHT_SURFACES) expect(contrastRatio(textShadeOf(c), bg)).toBeGreaterThanOrEqual(4.5);
      for (const bg of SIDEBAR_SURFACES) expect(contrastRatio(sidebarShadeOf(c), bg)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('a colour that already passes is kept', () => {
    expect(readableShade('#304156', LIGHT_SURFACES)).toBe('#304156');
    expect(readableShade('#13C2C2', SIDEBAR_SURFACES)).toBe('#13c2c2');
  });
});
