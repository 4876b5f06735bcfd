/**
 * `npm run dev` in a real browser: the dev loop runs in a copy of the project (its own ports and
 * database); a logged-in user sees a label edit and a new column of a screen without logging in
 * again, without a single 5xx answer (the server reloads the metadata in place; once the API serves
 * it, the page swaps the texts of a label-only edit in place, and the screen definitions of a new
 * column in place too: the filter typed before is kept), and a server that is down for a while (a broken server file) makes the
 * page wait and carry on with the same session once it is back.
 * The time from the edit to the new label on screen is printed (docs/adding-a-screen.md).
 * On PostgreSQL (npm run test:e2e:pg: E2E_DATABASE_URL set) the dev loop gets a database of its own
 * on the same server.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { copyProject, stopGroup, type ProjectCopy } from '../support/project-copy.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { PASSWORD } from './pages/shell.ts';
import { freePort } from '../support/free-port.ts';
import { scaled } from '../support/waits.ts';

test.describe.configure({ mode: 'serial' });

let copy: ProjectCopy;
let pg: TestDatabase | null = null;
let dev: ChildProcess;
let output = '';
let vite = '';
let context: BrowserContext;
let page: Page;
const serverErrors: string[] = [];
const logouts: string[] = [];

/** A port nobody listens on now. */

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what} did not happen within ${timeoutMs / 1000} s; dev loop output:\n${output.slice(-4000)}`);
}

/** Writes a file the way many editors save: a new file renamed over the old one. */
function saveAs(file: string, content: string): void {
  writeFileSync(`${file}.swp`, content);
  renameSync(`${file}.swp`, file);
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(scaled(600_000));
  copy = copyProject('portal-dev-loop-');
  const [port, vitePort] = [await freePort(), await freePort()];
  vite = `http://127.0.0.1:${vitePort}`;
  if (process.env.E2E_DATABASE_URL) {
    const server = new URL(process.env.E2E_DATABASE_URL);
    server.pathname = '/postgres';
    pg = await createTestDatabase(server.toString(), 'portal_devloop');
  }
  const database = pg ? { DATABASE_URL: pg.url } : { PORTAL_DB: join(copy.dir, 'data/portal.db') };
  dev = copy.start(join(copy.dir, 'node_modules/.bin/tsx'), ['codegen/dev.ts'], {
    env: { PORT: String(port), VITE_PORT: String(vitePort), ...database, LOG_LEVEL: 'warn' },
  });
  for (const s of [dev.stdout, dev.stderr]) s?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20000)));
  // the API through Vite's proxy, and the page itself
  await waitFor('the dev loop start', async () => (await fetch(`${vite}/api/meta`)).ok && (await fetch(`${vite}/login`)).ok, 480_000);
  context = await browser.newContext({ baseURL: vite, locale: 'zh-CN' });
  page = await context.newPage();
  page.on('response', (r) => {
    if (r.status() >= 500) serverErrors.push(`${r.status()} ${r.url()}`);
  });
  page.on('request', (r) => {
    if (r.url().includes('/connect/logout')) logouts.push(r.url());
  });
});

test.afterAll(async () => {
  await context?.close();
  if (dev) await stopGroup(dev);
  await pg?.drop();
  copy?.remove();
});

const token = () => page.evaluate(() => localStorage.getItem('portal.token'));

test('a label edit and a new column show in the browser, the session kept, no 5xx', async () => {
  test.setTimeout(scaled(600_000));
  // Vite compiles the app on the first visit: give it time
  await page.goto('/login');
  await expect(page.getByTestId('login-page')).toBeVisible({ timeout: 240_000 });
  await page.getByTestId('login-username').fill('sup01');
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('layout')).toBeVisible({ timeout: 240_000 });
  await page.goto('/orderConfirm/list');
  await expect(page.getByTestId('screen-title')).toHaveText('订单确认', { timeout: 120_000 });
  const before = await token();
  expect(before).toBeTruthy();

  // a label: the title of the screen and its menu entry. Only texts changed, so the page swaps
  // them in place: a mark left on the page before the edit is still there after it (no reload)
  await page.evaluate(() => ((window as unknown as { devLoopMark?: number }).devLoopMark = 1));
  // and what was typed into the search form (not searched yet) stays
  await page.getByTestId('filter-orderNo_like').fill('PO-typed');
  const catalogue = join(copy.dir, 'metadata/i18n/zh-CN/business.json');
  const edited = Date.now();
  saveAs(catalogue, readFileSync(catalogue, 'utf8').replace('"orderConfirm": "订单确认"', '"orderConfirm": "订单确认（新）"'));
  await expect(page.getByTestId('screen-title')).toHaveText('订单确认（新）', { timeout: 120_000 });
  console.log(`dev loop: label edit to screen in ${Date.now() - edited} ms (texts swapped in place)`);
  await expect(page.getByTestId('menu').getByText('订单确认（新）', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { devLoopMark?: number }).devLoopMark), 'the page was not reloaded').toBe(1);
  await expect(page.getByTestId('filter-orderNo_like')).toHaveValue('PO-typed');
  await expect(page.getByTestId('layout')).toBeVisible();
  expect(page.url()).toContain('/orderConfirm/list');

  // a column: the screen gets one more, and the server answers for it
  const screenFile = join(copy.dir, 'metadata/screens/order-confirm.json');
  const columnEdited = Date.now();
  saveAs(screenFile, readFileSync(screenFile, 'utf8').replace('"partsItemCount"\n  ]', '"partsItemCount", "shippedQty"\n  ]'));
  await expect(page.getByTestId('lean-table').first().getByTestId('lean-th-shippedQty')).toBeVisible({ timeout: 120_000 });
  console.log(`dev loop: column edit to screen in ${Date.now() - columnEdited} ms (screen definitions swapped in place)`);
  // only the screen's definition changed: swapped in place, so no reload, and the typed filter stays
  expect(await page.evaluate(() => (window as unknown as { devLoopMark?: number }).devLoopMark), 'the page was not reloaded').toBe(1);
  await expect(page.getByTestId('filter-orderNo_like')).toHaveValue('PO-typed');
  await expect(page.getByTestId('lean-table').first().getByTestId('lean-row').first()).toBeVisible();

  expect(await token()).toBe(before);
  expect(serverErrors).toEqual([]);
  expect(logouts).toEqual([]);
});

test('a server that is down makes the page wait, and the session carries on when it is back', async () => {
  test.setTimeout(scaled(600_000));
  const before = await token();
  // a broken server file: tsx watch restarts the server, which cannot start until it is mended
  const appFile = join(copy.dir, 'server/app.ts');
  const good = readFileSync(appFile, 'utf8');
  saveAs(appFile, `${good}\nexport const broken = ;\n`);
  await waitFor('the server going down', async () => (await fetch(`${vite}/api/meta`)).status === 502, 120_000);

  await page.reload();
  await expect(page.getByTestId('reconnecting')).toBeVisible({ timeout: 60_000 });
  expect(page.url()).toContain('/orderConfirm/list');

  saveAs(appFile, good);
  await expect(page.getByTestId('screen-title')).toHaveText('订单确认（新）', { timeout: 240_000 });
  await expect(page.getByTestId('reconnecting')).toBeHidden();
  expect(await token()).toBe(before);
  expect(logouts).toEqual([]);
});
