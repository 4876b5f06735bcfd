/**
 * Issue 20 point 7 (part): Search with unchanged conditions asks the server again (users press it
 * to refresh), and Export after a search that found nothing says there is nothing to export
 * instead of downloading an empty sheet. Both languages.
 */
import { expect, test, type Request } from '@playwright/test';
import { LOCALES } from '../../codegen/runtime/model.ts';
import { expectNotification, loginIn, openScreen, screen, screenNamed, t } from './pages/screens.ts';

const list = screenNamed('orderShip');
const path = `/api/${list.resource}`;

for (const locale of LOCALES) {
  test(`Search refreshes with unchanged conditions; an empty result is not exported (${locale})`, async ({ page }) => {
    const calls: string[] = [];
    const onRequest = (r: Request) => {
      const url = new URL(r.url());
      if (r.method() === 'GET' && (url.pathname === path || url.pathname === `${path}/export`)) calls.push(url.pathname);
    };
    page.on('request', onRequest);
    await loginIn(page, 'sup01', locale);
    await openScreen(page, list, locale);
    await expect(screen.rows(page).first()).toBeVisible();
    await expect.poll(() => calls.length).toBeGreaterThan(0);

    for (let i = 1; i <= 2; i++) {
      const before = calls.length;
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === path);
      await screen.button(page, 'search').click();
      await answered;
      expect(calls.length).toBe(before + 1);
    }

    await screen.filter(page, 'orderNo_like').fill('NO-SUCH-ORDER-XYZ');
    await screen.button(page, 'search').click();
    await expect(screen.table(page)).toContainText(t(locale, 'ui.noData'));
    await screen.button(page, 'export').click();
    await expectNotification(page, t(locale, 'ui.nothingToExport'));
    expect(calls.filter((c) => c.endsWith('/export'))).toEqual([]);
  });
}
