/**
 * npx tsx tests/bench/dev-loop.ts: how long the example of docs/adding-a-screen.md takes in
 * `npm run dev`, from saving the files to the screen in the browser. In a copy of the project
 * (tests/support/project-copy.ts), the dev loop starts on free ports; Chromium logs in as sup01;
 * then the entity file and its two catalogues are written (the fixture of tests/codegen/fixtures)
 * and the time until the new screen shows its title and demo rows is taken (the page reloads with
 * the new metadata, then the screen is opened); then, on the open screen, three times each: a label
 * edit, a new column and a new action (with its button), each swapped in place or reloaded (printed,
 * with whether a filter text typed and a row selected before the edits are still there),
 * and the three kinds' medians side by side. Prints the times, the load average before each, and the loop's own log lines
 * (codegen's and the server reload's durations). A measurement, not a test: nothing is asserted.
 */
import { chromium } from 'playwright';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addFixtureEntity, copyProject, stopGroup } from '../support/project-copy.ts';
import { chromiumPath } from '../e2e/chromium.ts';
import { freePort } from '../support/free-port.ts';

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

const copy = copyProject('portal-dev-loop-bench-');
// E2E_PORT=n: the loop's API on n+1 and Vite on n+2 (a machine shared by several people); else free ports
const base = Number(process.env.E2E_PORT ?? 0);
const [port, vitePort] = base ? [base + 1, base + 2] : [await freePort(), await freePort()];
const vite = `http://127.0.0.1:${vitePort}`;
let log = '';
const dev = copy.start(join(copy.dir, 'node_modules/.bin/tsx'), ['codegen/dev.ts'], {
  env: { PORT: String(port), VITE_PORT: String(vitePort), PORTAL_DB: join(copy.dir, 'data/portal.db') },
});
/** the loop's log lines with the time each arrived: where an edit's time went */
const arrivals: { at: number; line: string }[] = [];
for (const s of [dev.stdout, dev.stderr])
  s?.on('data', (d: Buffer) => {
    log += d.toString();
    for (const line of d.toString().split('\n')) arrivals.push({ at: Date.now(), line });
  });
/** When codegen had written, the server had reloaded and Vite had sent the edit to the page, after `t` (ms after it), or '-' when it did not. */
function stages(t: number): string {
  const after = (re: RegExp) => arrivals.find((a) => a.at >= t && re.test(a.line));
  const at = (a: { at: number } | undefined) => (a ? `${a.at - t} ms` : '-');
  // the page's own stages (admin/src/providers/devLoopTrace.ts), up to the next edit
  const page = arrivals.filter(
    (a) => a.at >= t && a.line.startsWith('[dev-loop] ') && !arrivals.some((b) => b.at > t && b.at < a.at && b.line === 'edit saved'),
  );
  return (
    `codegen written at ${at(after(/codegen: \d/))}, server reloaded at ${at(after(/reloaded in/))}, sent to the page at ${at(after(/sent to the page/))}` +
    page.map((a) => `, ${a.line.slice('[dev-loop] '.length)} at ${a.at - t} ms`).join('')
  );
}
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
  page.on('console', (m) => {
    if (m.text().startsWith('[dev-loop] ')) arrivals.push({ at: Date.now(), line: m.text() });
  });
  await page.goto('/login');
  await page.getByTestId('login-page').waitFor({ timeout: 300_000 });
  await page.getByTestId('login-username').fill('sup01');
  await page.getByTestId('login-password').fill('demo2026A');
  await page.getByTestId('login-submit').click();
  await page.getByTestId('layout').waitFor({ timeout: 300_000 });
  // a mark on the page tells whether it was reloaded (label, column and action edits are swapped in place)
  const mark = () => page.evaluate(() => ((window as unknown as { benchMark?: number }).benchMark = 1));
  const marked = () => page.evaluate(() => (window as unknown as { benchMark?: number }).benchMark === 1).catch(() => false);
  const times: Record<string, number[]> = { label: [], 'new column': [], 'new action': [] };
  /** Saves an edit, waits for what it shows on the open screen, records the time and whether the page was reloaded. */
  async function timed(kind: string | null, edit: () => void, shown: () => Promise<unknown>): Promise<void> {
    await page.waitForTimeout(2000);
    await mark();
    const load = loadAverage();
    const t = Date.now();
    arrivals.push({ at: t, line: 'edit saved' });
    edit();
    await shown();
    const ms = Date.now() - t;
    if (!kind) return;
    times[kind].push(ms);
    console.log(
      `${kind}: ${ms} ms from saving to the screen (load average ${load}, ${(await marked()) ? 'swapped in place' : 'page reloaded'}; ${await kept()}; ${stages(t)})`,
    );
  }
  {
    // as a developer would: save, let the page reload with the new metadata, open the new screen
    await mark();
    const load = loadAverage();
    const t = Date.now();
    addFixtureEntity(copy, 'supplier-contact');
    while (await marked()) await page.waitForTimeout(50);
    await page.getByTestId('layout').waitFor({ timeout: 120_000 });
    await page.goto('/supplierContact/list');
    await page.getByTestId('screen-title').filter({ hasText: '供应商联系人' }).waitFor({ timeout: 120_000 });
    await page.getByTestId('lean-row').first().waitFor({ timeout: 120_000 });
    console.log(`new entity: ${Date.now() - t} ms from saving to the screen (load average ${load}, page reloaded)`);
  }
  // what the user did on the screen before the edits, checked after them: a half-typed filter and a selected row
  const filter = page.getByTestId(/^filter-name/).first();
  await filter.fill('typed before the edits');
  await page.getByTestId('lean-row').first().locator('input[data-role="toggle"]').click();
  const kept = async () =>
    `filter text ${(await filter.inputValue()) === 'typed before the edits' ? 'kept' : 'LOST'}, ` +
    `selection ${(await page.locator('[data-testid="lean-row"].lt-selected, [data-testid="lean-row"].lt-current').count()) ? 'kept' : 'LOST'}`;
  const screen = (j: Record<string, unknown>) => (j.screens as { columns: string[]; buttons: string[] }[])[0];
  const entityFile = 'entities/supplier-contact.json';
  for (const round of [1, 2, 3]) {
    const title = `供应商联系人${round}`;
    await timed(
      'label',
      () => copy.editMetadata('i18n/zh-CN/supplier-contact.json', (j) => (j.route.supplierContactList = title)),
      () => page.getByTestId('screen-title').filter({ hasText: title }).waitFor({ timeout: 120_000 }),
    );
  }
  const column = () => page.getByTestId('lean-table').first().getByTestId('lean-th-supplierCode');
  const button = () => page.getByTestId('btn-activate');
  for (const round of [1, 2, 3]) {
    await timed(
      'new column',
      () => copy.editMetadata(entityFile, (j) => screen(j).columns.push('supplierCode')),
      () => column().waitFor({ timeout: 120_000 }),
    );
    // taken away again (not timed) for the next round
    if (round < 3)
      await timed(
        null,
        () => copy.editMetadata(entityFile, (j) => (screen(j).columns = screen(j).columns.filter((c) => c !== 'supplierCode'))),
        () => column().waitFor({ state: 'detached', timeout: 120_000 }),
      );
  }
  for (const round of [1, 2, 3]) {
    await timed(
      'new action',
      () => {
        // the action's label in both languages first, then the action and its button
        for (const [loc, text] of [
          ['zh-CN', '启用'],
          ['en-US', 'Activate'],
        ])
          copy.editMetadata(`i18n/${loc}/supplier-contact.json`, (j) => (j.action.supplierContact.activate = text));
        copy.editMetadata(entityFile, (j) => {
          (j.actions as Record<string, unknown>).activate = { from: ['inactive'], to: 'active', allow: { supplier: true }, button: 'activate' };
          screen(j).buttons.push('activate');
        });
      },
      () => button().waitFor({ timeout: 120_000 }),
    );
    if (round < 3)
      await timed(
        null,
        () =>
          copy.editMetadata(entityFile, (j) => {
            delete (j.actions as Record<string, unknown>).activate;
            screen(j).buttons = screen(j).buttons.filter((b) => b !== 'activate');
          }),
        () => button().waitFor({ state: 'detached', timeout: 120_000 }),
      );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log('\nmedians, side by side (ms from saving to the screen):');
  for (const [kind, xs] of Object.entries(times)) console.log(`  ${kind.padEnd(11)} ${String(median(xs)).padStart(6)}   (${xs.join(', ')})`);
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
