/**
 * Page helpers for the admin shell (login page, layout, menu, tab bar, settings, dialogs), so the
 * specs read as user steps. Selectors are the data-testid attributes the shell renders.
 */
import { expect, test, type Locator, type Page, type Request } from '@playwright/test';
import { KEYS } from '../../../admin/src/providers/storage.ts';

export const PASSWORD = 'demo2026A';

export interface LoginOptions {
  password?: string;
  warehouse?: 'PDC01' | 'PDC02';
  /** expect to land here after login (default /dashboard) */
  expectPath?: string | RegExp;
}

export const loginPage = {
  async open(page: Page, path = '/login'): Promise<void> {
    await page.goto(path);
    await expect(page.getByTestId('login-page')).toBeVisible();
  },
  async chooseWarehouse(page: Page, code: string): Promise<void> {
    await page.getByTestId('login-warehouse').click();
    await page.getByTestId(`login-warehouse-${code}`).click();
    await expect(page.getByTestId(`login-warehouse-${code}`)).toBeHidden();
  },
  async chooseLanguage(page: Page, locale: 'zh-CN' | 'en-US'): Promise<void> {
    await page.getByTestId('login-language').click();
    await page.getByTestId(`login-language-${locale}`).click();
    await expect(page.getByTestId(`login-language-${locale}`)).toBeHidden();
  },
  async submit(page: Page, user: string, opts: LoginOptions = {}): Promise<void> {
    await expect(page.getByTestId('login-warehouse')).not.toHaveAttribute('aria-disabled', 'true');
    await page.getByTestId('login-username').fill(user);
    await page.getByTestId('login-password').fill(opts.password ?? PASSWORD);
    if (opts.warehouse) await loginPage.chooseWarehouse(page, opts.warehouse);
    await page.getByTestId('login-submit').click();
  },
};

/** Logs in from /login and waits for the layout. */
export async function login(page: Page, user: string, opts: LoginOptions = {}): Promise<void> {
  await loginPage.open(page);
  await loginPage.submit(page, user, opts);
  await expect(page).toHaveURL(opts.expectPath ?? /\/dashboard$/);
  await expect(page.getByTestId('layout')).toBeVisible();
}

export async function logout(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('user-menu-logout').click();
  await expect(page).toHaveURL(/\/login$/);
}

/** Every menu entry's path, in menu order (entries of closed groups included). */
export async function menuPaths(page: Page): Promise<string[]> {
  await expect(page.getByTestId('menu')).toBeVisible();
  return page
    .getByTestId('menu')
    .locator('[data-testid="menu-item"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
}

/** Clicks a menu entry (opening its group first when needed); `clickTimeout` bounds the wait for a clickable entry (a dialog may cover it). */
export async function clickMenuItem(page: Page, path: string, clickTimeout?: number): Promise<void> {
  const item = page.getByTestId('menu').locator(`[data-testid="menu-item"][data-path="${path}"]`);
  // entries of a group sit in the Collapse right after the group's button; ask the group, not the
  // entry's visibility (an entry of a group that is closing is still visible for a moment)
  const key = await item.evaluate((el) => el.closest('.MuiCollapse-root')?.previousElementSibling?.getAttribute('data-key') ?? null);
  if (key) {
    const group = page.getByTestId('menu').locator(`[data-testid="menu-group"][data-key="${key}"]`);
    if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click({ timeout: clickTimeout });
    await expect(group).toHaveAttribute('aria-expanded', 'true');
  }
  await item.click({ timeout: clickTimeout });
}

/** Opens a page through the menu and waits for its address. */
export async function openViaMenu(page: Page, path: string, clickTimeout?: number): Promise<void> {
  await clickMenuItem(page, path, clickTimeout);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[/]/g, '\\/')}$`));
}

export const tags = (page: Page): Locator => page.getByTestId('tag');
export const tag = (page: Page, path: string): Locator => page.locator(`[data-testid="tag"][data-path="${path}"]`);
export async function tagPaths(page: Page): Promise<string[]> {
  return tags(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
}
export async function tagMenu(page: Page, path: string, item: 'tags-refresh' | 'tags-close' | 'tags-close-others' | 'tags-close-all'): Promise<void> {
  await tag(page, path).click({ button: 'right' });
  await page.getByTestId(item).click();
}

export async function openSettings(page: Page): Promise<Locator> {
  await page.getByTestId('settings-button').click();
  const panel = page.getByTestId('settings-panel');
  await expect(panel).toBeVisible();
  return panel;
}

/** The stored bearer token of the page's session. */
export const tokenOf = (page: Page): Promise<string | null> => page.evaluate(() => localStorage.getItem('portal.token'));

/**
 * Watches a page's API calls from now on; `idle()` waits until none is in flight for 500 ms. Unlike
 * Playwright's 'networkidle' it ignores the notification stream (Server-Sent Events), which stays
 * open as long as the page lives.
 */
export function watchApi(page: Page): { idle(): Promise<void> } {
  const inFlight = new Set<Request>();
  const tracked = (r: Request) => new URL(r.url()).pathname.startsWith('/api/') && !(r.headers()['accept'] ?? '').includes('text/event-stream');
  page.on('request', (r) => tracked(r) && inFlight.add(r));
  page.on('requestfinished', (r) => inFlight.delete(r));
  page.on('requestfailed', (r) => inFlight.delete(r));
  return {
    async idle() {
      let quietSince = Date.now();
      await expect
        .poll(
          () => {
            if (inFlight.size) quietSince = Date.now();
            return Date.now() - quietSince >= 500;
          },
          { timeout: 30_000, intervals: [50] },
        )
        .toBe(true);
    },
  };
}

/**
 * Signs in without the login page, as the login page does: the token from /connect/token, kept
 * where the app keeps its session (admin/src/providers/storage.ts KEYS), with the language chosen.
 * Nothing of the app is loaded: the next page.goto is the session's first page, which checks the
 * token with the server as any reload does. For tests of what comes after signing in (issue 34: the
 * login page, its form and the redirect cost each test a page load); the sign-in itself is tested
 * through the page by shell.spec, sign-in-path.spec, totp.spec and every persona of the metadata suite.
 */
export async function signIn(page: Page, user: string, opts: { locale?: 'zh-CN' | 'en-US'; warehouse?: string } = {}): Promise<void> {
  const warehouse = opts.warehouse ?? 'PDC01';
  const locale = opts.locale ?? 'zh-CN';
  const res = await page.request.post('/connect/token', {
    form: { grant_type: 'password', username: user, password: PASSWORD, warehouse, lang: locale },
    maxRetries: 2,
  });
  expect(res.status(), `signing ${user} in: ${await res.text()}`).toBe(200);
  const { access_token: token } = (await res.json()) as { access_token: string };
  // an empty document of the portal's origin to write its storage from, answered by the browser
  // itself (the server serves the app's page for any address, which would start the app)
  const blank = new URL('/__signing-in', String(test.info().project.use.baseURL)).toString();
  await page.route(blank, (r) => r.fulfill({ contentType: 'text/html', body: '<!doctype html><title>signing in</title>' }));
  await page.goto(blank);
  await page.unroute(blank);
  const entries: [string, string][] = [
    [KEYS.token, token],
    [KEYS.userId, user],
    [KEYS.warehouse, warehouse],
    [KEYS.locale, locale],
  ];
  await page.evaluate((kv) => kv.forEach(([k, v]) => localStorage.setItem(k, v)), entries);
}
