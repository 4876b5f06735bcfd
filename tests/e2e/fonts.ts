/**
 * The fonts the browser suite measures with, pinned (tests/e2e/fonts/fonts.conf): a test that
 * finds a header cut off must find the same thing on every machine, and with whatever fonts happen
 * to be installed it did not (issue 34: Liberation Sans, which Debian's chromium recommends, left
 * a header whole that DejaVu Sans cut). Chromium reads fontconfig's FONTCONFIG_FILE; the fonts are
 * Debian's fonts-liberation and fonts-noto-cjk, which the README's set-up and .ci/run install.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FONTS_CONF = fileURLToPath(new URL('./fonts/fonts.conf', import.meta.url));

/** One file of each pinned font family, and the Debian package that brings it. */
const REQUIRED: [string, string][] = [
  ['/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf', 'fonts-liberation'],
  ['/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', 'fonts-noto-cjk'],
];

/** The browser's environment with the pinned fonts; throws, naming the packages, when one is missing. */
export function pinnedFontsEnv(): Record<string, string> {
  const missing = REQUIRED.filter(([file]) => !existsSync(file)).map(([, pkg]) => pkg);
  if (missing.length) throw new Error(`the browser tests measure text in pinned fonts: apt-get install ${missing.join(' ')} (tests/e2e/fonts.ts)`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, FONTCONFIG_FILE: FONTS_CONF };
}
