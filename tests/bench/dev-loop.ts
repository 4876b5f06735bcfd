/**
 * npx tsx tests/bench/dev-loop.ts: how long the README's "Adding a screen" example takes in
 * `npm run dev`, from saving the files to the screen in the browser. In a copy of the project
 * (tests/support/project-copy.ts), the dev loop starts on free ports; Chromium logs in as sup01;
 * then the entity file and its two catalogues are written (the fixture of tests/codegen/fixtures)
 * and the time until the new screen shows its title and demo rows is taken (the page reloads with
 * the new metadata, then the screen is opened), then twice for an edit of its label on the open
 * screen (swapped in place or reloaded: printed). Prints the times, the load average before each, and the loop's own log lines
 * (codegen's and the server reload's durations). A measurement, not a test: nothing is asserted.
 */
import { chromium } from 'playwright';
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addFixtureEntity, copyProject, stopGroup } from '../support/project-copy.ts';
import { chromiumPath } from '../e2e/chromium.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

const copy = copyProject('portal-dev-loop-bench-');
const [port, vitePort] = [await freePort(), await freePort()];
const vite = `http://127.0.0.1:${vitePort}`;
let log = '';
const dev = copy.start(join(copy.dir, 'node_modules/.bin/tsx'), ['codegen/dev.ts'], {
  env: { PORT: String(port), VITE_PORT: String(vitePort), PORTAL_DB: join(copy.dir, 'data/portal.db') },
});
for (const s of [dev.stdout, dev.stderr]) s?.on('data', (d: Buffer) => (log += d.toString()));
try {
  const t0 = Date.now();
  for (;;) {
    const up =
      (await fetch(`${vite}/api/meta`).then(
        (r) => r.ok,
        () => false,
      )) &&
      (await fetch(`${vite}/login`).then(
        (r) => r.ok,
        () => false,
      ));
    if (up) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  console.log(`npm run dev ready in ${Date.now() - t0} ms`);
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const page = await (await browser.newContext({ baseURL: vite, locale: 'zh-CN' })).newPage();
  await page.goto('/login');
  await page.getByTestId('login-page').waitFor({ timeout: 300_000 });
  await page.getByTestId('login-username').fill('sup01');
  await page.getByTestId('login-password').fill('demo2026A');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('layout').waitFor({ timeout: 300_000 });
  // a mark on the page tells whether it was reloaded (a label-only edit swaps the texts in place)
  const mark = () => page.evaluate(() => ((window as unknown as { benchMark?: number }).benchMark = 1));
  const marked = () => page.evaluate(() => (window as unknown as { benchMark?: number }).benchMark === 1).catch(() => false);
  for (const round of [1, 2, 3]) {
    await page.waitForTimeout(3000);
    await mark();
    const load = loadAverage();
    const t = Date.now();
    if (round === 1) {
      // as a developer would: save, let the page reload with the new metadata, open the new screen
      addFixtureEntity(copy, 'supplier-contact');
      while (await marked()) await page.waitForTimeout(50);
      await page.getByTestId('layout').waitFor({ timeout: 120_000 });
      await page.goto('/supplierContact/list');
    } else copy.editMetadata('i18n/zh-CN/supplier-contact.json', (j) => (j.route.supplierContactList = `供应商联系人${round}`));
    const title = round === 1 ? '供应商联系人' : `供应商联系人${round}`;
    await page.getByTestId('screen-title').filter({ hasText: title }).waitFor({ timeout: 120_000 });
    await page.getByTestId('lean-row').first().waitFor({ timeout: 120_000 });
    const how = round === 1 ? '' : (await marked()) ? ', texts swapped in place' : ', page reloaded';
    console.log(`${round === 1 ? 'new entity' : 'label edit'}: ${Date.now() - t} ms from saving to the screen (load average ${load}${how})`);
  }
  await browser.close();
  console.log(
    log
      .split('\n')
      .filter((l) => /reloaded|codegen: \d|demo data/.test(l))
      .join('\n'),
  );
} finally {
  await stopGroup(dev);
  copy.remove();
}
