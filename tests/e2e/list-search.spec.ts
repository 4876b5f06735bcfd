/**
 * Issue 20 point 7 (part): Search with unchanged conditions asks the server again (users press it
 * to refresh), and Export after a search that found nothing says there is nothing to export
 * instead of downloading an empty sheet; Reset clears a half-typed date too (it is no value yet, so
 * clearing the conditions alone left its text in the box); a list the server refuses (401/403) says
 * it could not be loaded, with no pager beside it (it said "no data" beside "500 rows"). Both languages.
 */
import { expect, test, type Request } from '@playwright/test';
import { LOCALES } from '../../codegen/runtime/model.ts';
import { expectNotification, openScreenAs, screen, screenNamed, t } from './pages/screens.ts';

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
    await openScreenAs(page, 'sup01', locale, list);
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

for (const locale of LOCALES) {
  test(`Reset clears a half-typed date (${locale})`, async ({ page }) => {
    const s = screenNamed('orderConfirm');
    await openScreenAs(page, 'sup01', locale, s);
    await screen.button(page, 'more-filters').click();
    const from = page.getByTestId('filter-releaseDate_gte-field');
    const sections = from.locator('.MuiPickersSectionList-root');
    const empty = await sections.textContent();
    // the year and part of the month: not a date yet
    await from.getByRole('spinbutton').first().click();
    await page.keyboard.type('20261');
    await expect(sections).not.toHaveText(empty ?? '');
    await expect(sections).toContainText('2026');
    await screen.button(page, 'reset').click();
    await expect(page.getByTestId('filter-releaseDate_gte-field').locator('.MuiPickersSectionList-root')).toHaveText(empty ?? '');
    await expect(screen.filter(page, 'releaseDate_gte')).toHaveValue('');
  });
}

for (const locale of LOCALES) {
  test(`a refused list says it could not be loaded, with no pager (${locale})`, async ({ page }) => {
    await openScreenAs(page, 'sup01', locale, list);
    await expect(screen.rows(page).first()).toBeVisible();
    await expect(page.locator('.MuiTablePagination-root')).toBeVisible();
    // the next list call is refused, as a 403 after a role change would be
    await page.route(
      (url) => url.pathname === path,
      (route) =>
        route.fulfill({
          status: 403,
          contentType: 'application/json',
          body: JSON.stringify({ code: 'error.forbidden', message: t(locale, 'error.forbidden') }),
        }),
    );
    await screen.button(page, 'search').click();
    await expect(screen.table(page)).toContainText(t(locale, 'ui.listNotLoaded'));
    await expect(screen.table(page)).not.toContainText(t(locale, 'ui.noData'));
    await expect(page.locator('.MuiTablePagination-root')).toHaveCount(0);
    await expect(screen.rows(page)).toHaveCount(0);
  });
}
