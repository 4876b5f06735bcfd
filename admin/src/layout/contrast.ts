/**
 * Colour contrast (WCAG 2.1, 1.4.3): the theme colour stays what the user chose (#1890ff by the
 * spec), but #1890ff on white is 3.2:1 and small text needs 4.5:1. So text, links and the
 * backgrounds of white-text buttons use a shade of the theme colour that reaches 4.5:1 on every
 * surface it is drawn on; the theme colour itself stays for what carries no text (icons, borders).
 */

type Rgb = [number, number, number];

const HEX = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i;

export function parseHex(color: string): Rgb {
  const m = HEX.exec(color.trim());
  if (!m) throw new Error(`not a hex colour: ${color}`);
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb): string =>
  `#${rgb
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/** Relative luminance (WCAG 2.1). */
export function luminance(color: string): number {
  const [r, g, b] = parseHex(color).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

/**
 * The colour itself when it reaches `min` on every background, else the nearest shade that does:
 * mixed towards black on light backgrounds, towards white on dark ones, in 2 % steps.
 */
export function readableShade(color: string, backgrounds: readonly string[], min = 4.5): string {
  const passes = (c: string) => backgrounds.every((bg) => contrastRatio(c, bg) >= min);
  if (passes(color)) return color.toLowerCase();
  const dark = backgrounds.reduce((s, bg) => s + luminance(bg), 0) / backgrounds.length < 0.18;
  const base = parseHex(color);
  const target = dark ? 255 : 0;
  for (let t = 0.02; t <= 1; t += 0.02) {
    const c = toHex(base.map((v) => v + (target - v) * t) as Rgb);
    if (passes(c)) return c;
  }
  return dark ? '#ffffff' : '#000000';
}

/** The light surfaces text sits on: paper, page, striped, hovered, selected and current rows. */
export const LIGHT_SURFACES = ['#ffffff', '#f0f2f5', '#f5f7fa', '#fafafa', '#ecf5ff', '#e6f7ff', '#d6ebff'] as const;
/** The dark sidebar: its background and the background of a group's entries. */
export const SIDEBAR_SURFACES = ['#304156', '#1f2d3d'] as const;

/** The theme colour as text on light surfaces, and as the background of white text (AA). */
export const textShadeOf = (themeColor: string): string => readableShade(themeColor, LIGHT_SURFACES);
/** The theme colour as text on the dark sidebar (AA). */
export const sidebarShadeOf = (themeColor: string): string => readableShade(themeColor, SIDEBAR_SURFACES);
