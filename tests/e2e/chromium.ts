/** Debian's chromium (or CHROMIUM_PATH); Playwright's own browser download is never used here. */
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const p = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
      if (p) return p;
    } catch {
      /* not on PATH */
    }
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  throw new Error("Chromium not found: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH");
}
