/**
 * Debian's Chromium (or CHROMIUM_PATH); Playwright's own browser download is never used here.
 *
 * The browser suite prefers Debian's `chromium-headless-shell` (the old headless mode, a build of
 * its own without the browser's UI): what Playwright itself runs for headless tests. The same
 * Blink renders the page; on the dialogs spec it took 0.8x the wall time of `chromium --headless`
 * (88 s against 107 s; issue 34, docs/adr/0046-suite-in-lanes.md). The benchmarks keep the full
 * browser, so their figures stay comparable with earlier runs.
 */
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const onPath = (name: string): string | null => {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null; // not on PATH
  }
};

export function chromiumPath(opts: { headlessShell?: boolean } = {}): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const names = [...(opts.headlessShell ? ['chromium-headless-shell'] : []), 'chromium', 'chromium-browser'];
  for (const name of names) {
    const p = onPath(name);
    if (p) return p;
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  throw new Error("Chromium not found: install Debian's package (apt-get install chromium chromium-headless-shell) or set CHROMIUM_PATH");
}
