/**
 * The Content-Security-Policy allows scripts from the portal's own origin only ('self'), no inline
 * script. The built admin's index.html carries one small inline script on purpose (admin/preloadApp.ts:
 * it starts the download of the page's language's messages while the HTML is parsed, a round trip
 * less on a slow link). It is allowed by its hash, the CSP's way to name one exact script: read
 * from the index.html the server serves, at start-up. Any other inline script (an injected one, or
 * an index.html rebuilt under a running server) stays blocked; that one is only a hint, the page
 * works without it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `<script>` elements without a src attribute, their text as the browser hashes it. */
const INLINE_SCRIPT = /<script(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/** The CSP source expressions ('sha256-...') of the inline scripts of `html`. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].filter((m) => m[1].trim()).map((m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
}

/** The hashes of the admin's index.html in `adminDir` (none without a built admin). */
export function adminInlineScriptHashes(adminDir: string | undefined): string[] {
  const file = adminDir ? join(adminDir, 'index.html') : '';
  return file && existsSync(file) ? inlineScriptHashes(readFileSync(file, 'utf8')) : [];
}
