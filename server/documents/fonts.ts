/**
 * The one place that finds the CJK font embedded in generated PDFs.
 *
 * pdfkit's 14 standard fonts are ASCII-only, so every PDF with Chinese text embeds a TrueType CJK
 * font (pdfkit subsets it: only the glyphs used end up in the file). It must be TrueType (glyf
 * outlines): CFF-flavoured .otf/.ttc fonts such as Debian's Noto Sans CJK lose glyphs when pdfkit
 * subsets them (pdfkit#1106), so they are refused here rather than producing blank characters.
 *
 * Lookup order:
 *  1. PORTAL_CJK_FONT: path to a TrueType .ttf (operators may choose their own font);
 *  2. the npm package @expo-google-fonts/noto-sans-sc (Noto Sans SC 400, TrueType, OFL-1.1),
 *     a dependency, so a fresh `npm install` is enough;
 *  3. Debian's fonts-droid-fallback (DroidSansFallbackFull.ttf), if installed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const NPM_FONT = '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf';
const SYSTEM_FONTS = ['/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf'];

export class FontMissingError extends Error {
  constructor(detail: string) {
    super(
      `No usable CJK TrueType font for PDF generation (${detail}). Run \`npm install\` (it installs ` +
        `${NPM_FONT.split('/').slice(0, 2).join('/')}), or set PORTAL_CJK_FONT to a TrueType .ttf that covers Chinese.`,
    );
    this.name = 'FontMissingError';
  }
}

function candidates(): string[] {
  const out: string[] = [];
  if (process.env.PORTAL_CJK_FONT) out.push(process.env.PORTAL_CJK_FONT);
  try {
    out.push(require.resolve(NPM_FONT));
  } catch {
    // package not installed: fall through to the system fonts
  }
  return [...out, ...SYSTEM_FONTS];
}

/** TrueType outlines: sfnt version 0x00010000 or 'true'. ('OTTO' is CFF, 'ttcf' a collection.) */
const isTrueType = (b: Buffer): boolean => b.length > 12 && (b.readUInt32BE(0) === 0x00010000 || b.toString('latin1', 0, 4) === 'true');

let cached: { path: string; data: Buffer } | undefined;

/** The CJK font file (read once per process: ~10 MB, parsed by pdfkit per document). */
export function cjkFont(): { path: string; data: Buffer } {
  if (cached) return cached;
  const tried: string[] = [];
  for (const path of candidates()) {
    if (!existsSync(path)) {
      tried.push(`${path}: not found`);
      continue;
    }
    const data = readFileSync(path);
    if (!isTrueType(data)) {
      // an explicit choice that cannot work is an error, not something to skip silently
      if (path === process.env.PORTAL_CJK_FONT)
        throw new FontMissingError(`${path} is not a TrueType font (CFF .otf and .ttc collections lose glyphs in pdfkit)`);
      tried.push(`${path}: not TrueType`);
      continue;
    }
    cached = { path, data };
    return cached;
  }
  throw new FontMissingError(tried.join('; ') || 'no candidates');
}
