/**
 * What the sign-in page downloads (issue 21, docs/performance-wan.md section 5): everything its
 * script needs is named by the first HTML (no chain of round trips), within a byte budget, without
 * the header's or the charts' code; the messages of the browser's language are preloaded by the
 * page's inline script (allowed by the CSP through its hash), the other language's never fetched.
 * Structural checks of the build and of the requests, never timings.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import type { Locale } from '../../codegen/runtime/model.ts';

const DIST = fileURLToPath(new URL('../../admin/dist/', import.meta.url));
const LOCALES: Locale[] = ['zh-CN', 'en-US'];
/** The sign-in page's scripts as sent (brotli), one language's messages included: measured 220.9 kB (240.8 kB before this budget). */
const SCRIPT_BUDGET_BYTES = 235 * 1024;
/**
 * Texts only code the sign-in page never runs carries: the header's tooltips and the chart library
 * (their class names), react-router's data router (which ra-core's own adapter would bring:
 * admin/leanModules.ts) and the es-shims intrinsics of node-polyglot's Object.entries polyfill.
 */
const NOT_ON_SIGN_IN = ['MuiTooltip', 'MuiBarChart', 'non-empty routes array', '%AsyncFromSyncIteratorPrototype%'];

/** The scripts index.html names: its entry and its modulepreload links. */
const namedScripts = (html: string) => [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
/** The message chunk of each language, as the inline script names it. */
const messageChunk = (html: string, locale: Locale) => new RegExp(`"${locale}":"/(assets/messages\\.${locale}-[^"]+\\.js)"`).exec(html)?.[1];

test("the sign-in page's scripts: all named by the first HTML, within the budget, without the header's or the charts' code", async ({ request }) => {
  const html = await (await request.get('/login')).text();
  const scripts = namedScripts(html);
  expect(scripts.length).toBeGreaterThan(1);
  for (const locale of LOCALES) {
    const files = [...scripts, messageChunk(html, locale)!];
    expect(files.at(-1), locale).toBeTruthy();
    let bytes = 0;
    for (const file of files) {
      // files under 1 kB have no twin (admin/precompress.ts): counted plain
      bytes += readFileSync(existsSync(DIST + file + '.br') ? DIST + file + '.br' : DIST + file).length;
      const text = readFileSync(DIST + file, 'utf8');
      for (const mark of NOT_ON_SIGN_IN) expect(text.includes(mark), `${file} carries ${mark}`).toBe(false);
    }
    expect(bytes, `${locale}: ${bytes} bytes`).toBeLessThanOrEqual(SCRIPT_BUDGET_BYTES);
  }
});

for (const locale of LOCALES) {
  test(`the sign-in page preloads its language's messages only, under the CSP (${locale})`, async ({ browser }) => {
    const context = await browser.newContext({ locale });
    try {
      const page = await context.newPage();
      const refused: string[] = [];
      page.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
      });
      const requested: string[] = [];
      page.on('request', (r) => requested.push(new URL(r.url()).pathname));
      await page.goto('/login');
      await expect(page.getByTestId('login-submit')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      const other = LOCALES.find((l) => l !== locale)!;
      // the inline script ran (the CSP let it) and named this language's bundle
      const preloads = await page.evaluate(() =>
        [...document.head.querySelectorAll('link[rel="modulepreload"]')].map((l) => new URL((l as HTMLLinkElement).href).pathname),
      );
      expect(preloads.filter((p) => p.includes('/messages.'))).toEqual([expect.stringContaining(`/messages.${locale}-`)]);
      expect(requested.filter((p) => p.includes(`/messages.${locale}-`))).toHaveLength(1);
      expect(requested.filter((p) => p.includes(`/messages.${other}-`))).toEqual([]);
      expect(requested).not.toContain('/favicon.ico');
      expect(refused).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
