/**
 * The admin shell in a real browser against the real server (fresh temporary database with the
 * demo data): login and menus per role, navigation rules, tab bar, settings, language, the forced
 * password change of a 602 account and the 401 dialog (spec points 2, 4, 6, 8).
 */
import { expect, test } from '@playwright/test';
import { parseHex, sidebarShadeOf, textShadeOf } from '../../admin/src/layout/contrast.ts';
import { PASSWORD, login, loginPage, logout, menuPaths, openSettings, openViaMenu, tag, tagMenu, tagPaths, tags, tokenOf, watchApi } from './pages/shell.ts';
import { scaled } from '../support/waits.ts';

/** Role user's menu (suppliers; internal staff see account administration too), in menu order; groups with one entry show it directly. */
const USER_MENU = [
  '/dashboard',
  '/orderConfirm/list',
  '/orderShip/list',
  '/orderSearch/list',
  '/DFSOrderShip/list',
  '/ChildPartsStockQuery/list',
  '/ChildPartsDiffAdjustApplyQuery/list',
  '/ChildPartsReceiveSendDetailQuery/list',
  '/claim/list',
  '/consulting/list',
  '/consulting/fee-items',
  '/initiated/list',
  '/consulting/report',
  '/recConfirm/list',
];

test.describe('login and menus by role', () => {
  test('the login page has user ID, password, warehouse, language, login and reset', async ({ page }) => {
    await loginPage.open(page);
    await expect(page).toHaveTitle('登录 - 供应商门户');
    await expect(page.getByTestId('login-username')).toBeVisible();
    await expect(page.getByTestId('login-password')).toBeVisible();
    await expect(page.getByTestId('login-warehouse')).toContainText('PDC01');
    await page.getByTestId('login-warehouse').click();
    await expect(page.getByTestId('login-warehouse-PDC02')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('login-language')).toContainText('简体中文');
    await page.getByTestId('login-username').fill('sup01');
    await page.getByTestId('login-password').fill('x');
    await page.getByTestId('login-reset').click();
    await expect(page.getByTestId('login-username')).toHaveValue('');
    await expect(page.getByTestId('login-password')).toHaveValue('');
    // the form refuses a password under 6 characters before calling the server
    await page.getByTestId('login-username').fill('sup01');
    await page.getByTestId('login-password').fill('12345');
    await page.getByTestId('login-submit').click();
    await expect(page.getByText('密码不能小于 6 位')).toBeVisible();
  });

  test('a wrong password and a locked account are refused with the server message', async ({ page }) => {
    // the page's clock runs as usual, and the test jumps it ahead instead of sleeping through 10 s
    await page.clock.install();
    await loginPage.open(page);
    await loginPage.submit(page, 'sup01', { password: 'wrong2026A' });
    await expect(page.getByText('用户ID或密码错误')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    // messages stay 10 s unless closed
    await page.clock.fastForward(9_000);
    await expect(page.getByText('用户ID或密码错误')).toBeVisible();
    await page.getByTestId('notification-close').click();
    await expect(page.getByText('用户ID或密码错误')).toBeHidden();
    await loginPage.submit(page, 'locked01');
    await expect(page.getByText('该用户已被锁定，请联系管理员！')).toBeVisible();
    // and go by themselves after 10 s
    await page.clock.fastForward(10_500);
    await expect(page.getByText('该用户已被锁定，请联系管理员！')).toBeHidden();
  });

  test('a supplier sees every user screen, not notice management', async ({ page }) => {
    await login(page, 'sup01');
    await expect.poll(() => menuPaths(page)).toEqual(USER_MENU);
    await expect(page.getByTestId('user-name')).toHaveText('张伟');
    await expect(page).toHaveTitle('首页 - 供应商门户');
    await page.goto('/notice/list');
    await expect(page).toHaveURL(/\/401$/);
    await expect(page.getByTestId('error-page-401')).toBeVisible();
  });

  test('the supplier admin (role sys) sees home and notice management only', async ({ page }) => {
    await login(page, 'supadmin');
    await expect.poll(() => menuPaths(page)).toEqual(['/dashboard', '/notice/list']);
    await openViaMenu(page, '/notice/list');
    await expect(page).toHaveTitle('公告查询 - 供应商门户');
    await page.goto('/orderShip/list');
    await expect(page).toHaveURL(/\/401$/);
  });

  test('internal staff (role user) see the user screens, the interface log and account administration', async ({ page }) => {
    await login(page, 'staff01');
    await expect.poll(() => menuPaths(page)).toEqual([...USER_MENU, '/interface/log', '/account/list', '/account/clients']);
  });

  test('claim screens are blocked when the warehouse is not a claim warehouse: a deep link says why and offers the switch', async ({ page }) => {
    await login(page, 'sup01', { warehouse: 'PDC02' });
    await expect.poll(() => menuPaths(page)).not.toContain('/claim/list');
    await page.goto('/claim/list');
    await expect(page).toHaveURL(/\/claim\/list$/);
    await expect(page.getByTestId('claim-warehouse-only')).toContainText('索赔功能仅在索赔仓库可用');
    await expect(page.getByTestId('screen-claimList')).toHaveCount(0);
    await page.getByTestId('switch-to-PDC01').click();
    // the screens' chunk loads now, for the first time on this page (a loaded machine takes a while)
    await expect(page.getByTestId('screen-claimList')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('warehouse-switch')).toContainText('PDC01');
  });

  test('changing the warehouse replaces the token and the routes', async ({ page }) => {
    await login(page, 'sup01');
    const before = await tokenOf(page);
    await openViaMenu(page, '/claim/list');
    await page.getByTestId('warehouse-switch').click();
    await page.getByTestId('warehouse-PDC02').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('warehouse-switch')).toContainText('PDC02');
    expect(await tokenOf(page)).not.toBe(before);
    await expect.poll(() => menuPaths(page)).not.toContain('/claim/list');
  });

  test('changing the warehouse while the screen is still loading leaves it too, when the new warehouse refuses it', async ({ page }) => {
    await login(page, 'sup01');
    // the list screens' code held back: the address is the claim list's, the page still the home's
    // (the router renders a navigation as a transition, which keeps the old page until the new one can draw)
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/ListScreen-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await openViaMenu(page, '/claim/list');
    await page.getByTestId('warehouse-switch').click();
    await page.getByTestId('warehouse-PDC02').click();
    await expect(page.getByTestId('warehouse-switch')).toContainText('PDC02');
    release();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('layout')).toBeVisible();
    await expect(page.getByTestId('claim-warehouse-only')).toHaveCount(0);
  });
});

test.describe('navigation rules', () => {
  test('no token: any page goes to login carrying the target, and back to it after login', async ({ page }) => {
    await page.goto('/orderSearch/list?x=1');
    await expect(page).toHaveURL('/login?redirect=%2ForderSearch%2Flist%3Fx%3D1');
    await loginPage.submit(page, 'sup01');
    await expect(page).toHaveURL('/orderSearch/list?x=1');
    await expect(page).toHaveTitle('订单查询 - 供应商门户');
  });

  test('unknown paths go to /404; / to /dashboard; a business path to its list; logged in, /login goes home', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL('/login?redirect=%2Fno%2Fsuch%2Fpage');
    await loginPage.submit(page, 'sup01');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByTestId('error-page-404')).toBeVisible();
    await expect(page).toHaveTitle('页面不存在 - 供应商门户');
    await page.getByRole('button', { name: '返回首页' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/orderShip');
    await expect(page).toHaveURL(/\/orderShip\/list$/);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/auth-redirect?redirect=%2ForderConfirm%2Flist');
    await expect(page).toHaveURL(/\/orderConfirm\/list$/);
  });

  test('a dead token on page load: the message, the token reset, to login with the target', async ({ page }) => {
    await login(page, 'sup01');
    await openViaMenu(page, '/orderShip/list');
    // the page must have finished loading: a list call still in flight would meet the revoked
    // token too and raise the dialog before the navigation below (seen on a loaded machine)
    await expect(page.getByTestId('lean-row').first()).toBeVisible();
    const token = await tokenOf(page);
    await page.request.post('/connect/logout', { headers: { Authorization: `Bearer ${token}` } });
    await page.reload();
    await expect(page).toHaveURL('/login?redirect=%2ForderShip%2Flist');
    await expect(page.getByText('验证失败，请重新登录。')).toBeVisible();
    expect(await tokenOf(page)).toBeNull();
    await expect(page.getByTestId('relogin-dialog')).toHaveCount(0);
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/orderShip\/list$/);
    await expect(page.getByTestId('layout')).toBeVisible();
  });

  test('a login continues in the open page, and a second login after logout gets its own profile’s menu and screens', async ({ page }) => {
    // a value kept in the page's JavaScript lives as long as the document
    const sameDocument = () => page.evaluate(() => (window as unknown as { marker?: number }).marker === 1);
    await loginPage.open(page, '/login?redirect=%2ForderShip%2Flist');
    await page.evaluate(() => ((window as unknown as { marker?: number }).marker = 1));
    await loginPage.submit(page, 'sup01');
    await expect(page).toHaveURL(/\/orderShip\/list$/);
    await expect(page.getByTestId('lean-row').first()).toBeVisible();
    expect(await sameDocument()).toBe(true);
    await expect.poll(() => menuPaths(page)).toEqual(USER_MENU);

    await logout(page);
    await loginPage.submit(page, 'supadmin');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect.poll(() => menuPaths(page)).toEqual(['/dashboard', '/notice/list']);
    await openViaMenu(page, '/notice/list');
    await expect(page).toHaveTitle('公告查询 - 供应商门户');
    // the supplier's screens are not this profile's: its route table went with the last session
    await page.goto('/orderShip/list');
    await expect(page).toHaveURL(/\/401$/);

    // that was a new document: from here, logout and the next login stay in one
    await page.goto('/dashboard');
    await expect(page.getByTestId('layout')).toBeVisible();
    await page.evaluate(() => ((window as unknown as { marker?: number }).marker = 1));
    await logout(page);
    await loginPage.submit(page, 'staff01');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect.poll(() => menuPaths(page)).toEqual([...USER_MENU, '/interface/log', '/account/list', '/account/clients']);
    expect(await sameDocument()).toBe(true);
  });

  test('header: breadcrumb, a ticking clock from the server time, the user menu', async ({ page }) => {
    await login(page, 'sup01');
    await openViaMenu(page, '/orderShip/list');
    await expect(page.getByTestId('breadcrumb')).toHaveText(/首页.*订单管理.*订单发货/);
    const clock = page.getByTestId('header-clock');
    await expect(clock).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const t1 = await clock.textContent();
    await expect(clock).not.toHaveText(t1 ?? '', { timeout: 3000 });
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-home').click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('logout clears the session and the list parameters, and goes to /login', async ({ page }) => {
    await login(page, 'sup01');
    await page.evaluate(() => localStorage.setItem('RaStorePortal.orders.listParams', '{"page":2}'));
    await logout(page);
    const left = await page.evaluate(() => Object.keys(localStorage));
    for (const k of ['portal.token', 'portal.accountStatus', 'portal.user', 'portal.warehouse', 'portal.userId', 'RaStorePortal.orders.listParams'])
      expect(left).not.toContain(k);
    expect(await page.evaluate(() => sessionStorage.getItem('portal.tabs'))).toBeNull();
    await page.goto('/dashboard');
    await expect(page).toHaveURL('/login?redirect=%2Fdashboard');
  });

  test('below 992 px the sidebar becomes a drawer', async ({ page }) => {
    await page.setViewportSize({ width: 900, height: 700 });
    await login(page, 'sup01');
    await expect(page.getByTestId('layout')).toHaveAttribute('data-mobile', 'true');
    await expect(page.getByTestId('sidebar')).toBeHidden();
    await page.getByTestId('sidebar-toggle').click();
    await expect(page.getByTestId('sidebar')).toBeVisible();
    await openViaMenu(page, '/orderConfirm/list');
    await expect(page.getByTestId('sidebar')).toBeHidden();
  });

  test('the sidebar collapses to icons and opens one group at a time', async ({ page }) => {
    await login(page, 'sup01');
    const sidebar = page.getByTestId('sidebar');
    await expect(sidebar).toHaveAttribute('data-collapsed', 'false');
    expect(Math.round((await sidebar.boundingBox())!.width)).toBe(260);
    const order = page.locator('[data-testid="menu-group"][data-key="order"]');
    const child = page.locator('[data-testid="menu-group"][data-key="childParts"]');
    await order.click();
    await expect(order).toHaveAttribute('aria-expanded', 'true');
    await child.click();
    await expect(child).toHaveAttribute('aria-expanded', 'true');
    await expect(order).toHaveAttribute('aria-expanded', 'false');
    await page.getByTestId('sidebar-toggle').click();
    await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
    await expect.poll(async () => Math.round((await sidebar.boundingBox())!.width)).toBeLessThan(80);
  });
});

test.describe('tab bar', () => {
  test('keeps at most 10 tabs with the dashboard pinned; close, close others, close all, refresh', async ({ page }) => {
    // fifteen page visits, each loading a list of up to 500 rows (the first try in one CI run
    // used up 120 s on a loaded machine)
    test.setTimeout(scaled(180_000));
    await login(page, 'sup01');
    await expect(tags(page)).toHaveCount(1);
    await expect(tag(page, '/dashboard').getByTestId('tag-close')).toHaveCount(0);
    const visits = USER_MENU.slice(1, 12); // 11 pages
    for (const p of visits) await openViaMenu(page, p);
    await expect(tags(page)).toHaveCount(10);
    // dashboard pinned first, the two oldest pages dropped
    await expect.poll(() => tagPaths(page)).toEqual(['/dashboard', ...visits.slice(2)]);

    // revisiting an open page adds no tab
    await openViaMenu(page, visits[5]);
    await expect(tags(page)).toHaveCount(10);

    // x on the active tab: the last tab takes over
    await openViaMenu(page, visits[10]);
    await tag(page, visits[10]).getByTestId('tag-close').click();
    await expect(tags(page)).toHaveCount(9);
    await expect(page).toHaveURL(new RegExp(`${visits[9]}$`));

    // x clicked while the next page still renders: the router renders a navigation as a transition,
    // so for a while the URL names the new page and the screen shows the old one. The page in the
    // URL is the one closed (a loaded machine showed it staying open). pushState outside the router
    // holds that moment still: the URL moves, the router hears nothing.
    await openViaMenu(page, visits[10]);
    await openViaMenu(page, visits[5]);
    await page.evaluate((path) => history.pushState(history.state, '', path), visits[10]);
    await tag(page, visits[10]).getByTestId('tag-close').click();
    await expect(tags(page)).toHaveCount(9);
    await expect(page).toHaveURL(new RegExp(`${visits[9]}$`));

    // refresh keeps the page
    await tagMenu(page, visits[9], 'tags-refresh');
    await expect(page).toHaveURL(new RegExp(`${visits[9]}$`));
    await expect(tags(page)).toHaveCount(9);

    // the pinned tab cannot be closed from the menu either
    await tag(page, '/dashboard').click({ button: 'right' });
    await expect(page.getByTestId('tags-close')).toHaveAttribute('aria-disabled', 'true');
    await page.keyboard.press('Escape');

    await tagMenu(page, visits[4], 'tags-close-others');
    await expect.poll(() => tagPaths(page)).toEqual(['/dashboard', visits[4]]);
    await expect(page).toHaveURL(new RegExp(`${visits[4]}$`));

    await tagMenu(page, visits[4], 'tags-close-all');
    await expect.poll(() => tagPaths(page)).toEqual(['/dashboard']);
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('tabs survive a reload and end with the session', async ({ page }) => {
    await login(page, 'sup01');
    await openViaMenu(page, '/orderShip/list');
    await page.reload();
    await expect.poll(() => tagPaths(page)).toEqual(['/dashboard', '/orderShip/list']);
    await logout(page);
    await loginPage.submit(page, 'sup01');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect.poll(() => tagPaths(page)).toEqual(['/dashboard']);
  });
});

test.describe('settings and language', () => {
  test('the settings panel changes theme colour, tab bar, fixed header and logo, remembered across reloads and logout', async ({ page }) => {
    await login(page, 'sup01');
    let panel = await openSettings(page);
    await expect(panel.getByTestId('theme-color-1890ff')).toHaveAttribute('aria-pressed', 'true');
    await panel.getByTestId('theme-color-f5222d').click();
    await panel.getByTestId('setting-tagsView').uncheck();
    await panel.getByTestId('setting-fixedHeader').uncheck();
    await panel.getByTestId('setting-sidebarLogo').uncheck();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('tags-view')).toHaveCount(0);

    await page.reload();
    await expect(page.getByTestId('layout')).toBeVisible();
    await expect(page.getByTestId('tags-view')).toHaveCount(0);
    await expect(page.getByTestId('sidebar-logo')).toHaveCount(0);
    await expect(page.getByTestId('header')).toHaveAttribute('data-fixed', 'false');
    const active = page.locator('[data-testid="menu-item"][data-path="/dashboard"]');
    // text in the theme colour is drawn in its shade readable on its background (AA contrast)
    const rgb = (hex: string) => `rgb(${parseHex(hex).join(', ')})`;
    await expect(active).toHaveCSS('color', rgb(sidebarShadeOf('#f5222d')));
    panel = await openSettings(page);
    await expect(panel.getByTestId('theme-color-f5222d')).toHaveAttribute('aria-pressed', 'true');
    await expect(panel.getByTestId('setting-tagsView')).not.toBeChecked();
    await page.keyboard.press('Escape');

    await logout(page);
    await expect(page.getByTestId('login-submit')).toHaveCSS('background-color', rgb(textShadeOf('#f5222d')));

    await login(page, 'sup01');
    panel = await openSettings(page);
    await panel.getByTestId('settings-reset').click();
    await expect(panel.getByTestId('theme-color-1890ff')).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('tags-view')).toBeVisible();
  });

  test('the language chosen at login applies everywhere and survives logout', async ({ page }) => {
    await loginPage.open(page);
    await loginPage.chooseLanguage(page, 'en-US');
    await expect(page.getByTestId('login-submit')).toHaveText('Log in');
    await expect(page).toHaveTitle('Login - Supplier Portal');
    await loginPage.submit(page, 'sup01');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page).toHaveTitle('Home - Supplier Portal');
    await openViaMenu(page, '/orderShip/list');
    await expect(page).toHaveTitle('Order ship - Supplier Portal');
    await expect(page.getByTestId('breadcrumb')).toHaveText(/Home.*Orders.*Order ship/);
    await logout(page);
    await expect(page.getByTestId('login-submit')).toHaveText('Log in');
    await page.reload();
    await expect(page.getByTestId('login-submit')).toHaveText('Log in');
    // and back to Chinese from the header
    await loginPage.submit(page, 'sup01');
    await page.getByTestId('locale-switch').click();
    await page.getByTestId('locale-zh-CN').click();
    await expect(page).toHaveTitle('首页 - 供应商门户');
    expect(await page.evaluate(() => localStorage.getItem('portal.locale'))).toBe('zh-CN');
  });
});

test.describe('session dialogs', () => {
  test('a 602 account is forced to change its password first', async ({ page }) => {
    await login(page, 'newuser', { password: 'init2026A' });
    const dialog = page.getByTestId('profile-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('profile-forced')).toBeVisible();
    await expect(dialog.getByTestId('profile-close')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeVisible();
    // the rules are checked in place
    await dialog.getByTestId('profile-ok').click();
    await expect(dialog.getByText('此项为必填项').first()).toBeVisible();
    await dialog.getByTestId('profile-oldPassword').fill('init2026A');
    await dialog.getByTestId('profile-newPassword').fill('short');
    await dialog.getByTestId('profile-confirmPassword').fill('short');
    await dialog.getByTestId('profile-ok').click();
    await expect(dialog.getByText('密码须为 8 到 20 位字母和数字，且至少包含一个字母和一个数字')).toBeVisible();
    // the server refuses reusing the current password
    await dialog.getByTestId('profile-newPassword').fill('init2026A');
    await dialog.getByTestId('profile-confirmPassword').fill('init2026A');
    await dialog.getByTestId('profile-ok').click();
    await expect(dialog.getByText(/新密码不能与最近 5 次使用过的密码相同/)).toBeVisible();
    await dialog.getByTestId('profile-newPassword').fill('Changed2026B');
    await dialog.getByTestId('profile-confirmPassword').fill('Changed2026B');
    await dialog.getByTestId('profile-ok').click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('保存成功！')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('portal.accountStatus'))).toBe('0');
    await page.reload();
    await expect(page.getByTestId('layout')).toBeVisible();
    await expect(page.getByTestId('profile-dialog')).toHaveCount(0);
  });

  test('the profile dialog shows the user and checks its fields', async ({ page }) => {
    await login(page, 'sup02');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-profile').click();
    const dialog = page.getByTestId('profile-dialog');
    await expect(dialog.getByTestId('profile-userId')).toHaveValue('sup02');
    await dialog.getByTestId('profile-mobile').fill('123');
    await dialog.getByTestId('profile-telephone').fill('12345678');
    await dialog.getByTestId('profile-email').fill('not-an-email');
    await dialog.getByTestId('profile-ok').click();
    await expect(dialog.getByText('手机号码必须是 11 位数字')).toBeVisible();
    await expect(dialog.getByText('电话号码格式为 XXX-XXXXXXXX')).toBeVisible();
    await expect(dialog.getByText('请输入正确的电子邮件地址')).toBeVisible();
    await dialog.getByTestId('profile-close').click();
    await expect(dialog).toBeHidden();
  });

  test('a revoked token brings one login-timeout dialog; cancel stays, re-login goes to login and back', async ({ page }) => {
    await login(page, 'sup01');
    const api = watchApi(page);
    await openViaMenu(page, '/orderShip/list');
    // the page must have finished loading: a list call still in flight would meet the revoked
    // token too and raise the dialog before the navigation below (seen on a loaded machine)
    await expect(page.getByTestId('lean-row').first()).toBeVisible();
    // and nothing else may still be on its way (a count, a reference look-up): on a loaded machine
    // such a call lands after the logout and raises the dialog before the click below
    await api.idle();
    const token = await tokenOf(page);
    const r = await page.request.post('/connect/logout', { headers: { Authorization: `Bearer ${token}` } });
    expect(r.status()).toBe(200);
    // the next page's calls fail with 401 (list, and whatever else it loads): one dialog. On a
    // loaded machine a late call of the old page (a refetch after the idle wait) may raise it
    // first: cancel that one (the page stays, as below) and go on; the navigation must raise it again.
    const relogin = page.getByTestId('relogin-dialog');
    for (let attempt = 0; ; attempt++) {
      if (await relogin.isVisible()) {
        await relogin.getByTestId('relogin-cancel').click();
        await expect(relogin).toBeHidden();
      }
      try {
        await openViaMenu(page, '/orderConfirm/list', 5_000);
        break;
      } catch (e) {
        if (attempt >= 2 || !(await relogin.isVisible())) throw e;
      }
    }
    await expect(relogin).toBeVisible();
    await expect(page.getByRole('dialog', { name: '登录超时' })).toHaveCount(1);
    // every other call of the page answered (401 too): still one dialog
    await api.idle();
    await expect(page.getByRole('dialog', { name: '登录超时' })).toHaveCount(1);
    await relogin.getByTestId('relogin-cancel').click();
    await expect(relogin).toBeHidden();
    await expect(page).toHaveURL(/\/orderConfirm\/list$/);
    expect(await tokenOf(page)).toBe(token);

    // any later call asks again (here: the profile dialog reloads the user info)
    await page.getByTestId('user-menu').click();
    await page.getByTestId('user-menu-profile').click();
    await expect(relogin).toBeVisible();
    await relogin.getByTestId('relogin-confirm').click();
    await expect(page).toHaveURL('/login?redirect=%2ForderConfirm%2Flist');
    expect(await tokenOf(page)).toBeNull();
    // user ID and warehouse are still remembered for the re-login
    await expect(page.getByTestId('login-username')).toHaveValue('sup01');
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/orderConfirm\/list$/);
  });
});
