/**
 * Issue 20 point 8: a skip link. The first Tab on a page reaches "Skip to content" (both
 * languages); Enter moves the focus to the page's main region, so the next Tab is a control of the
 * page, not the sidebar menu, the header or the tab bar (14 Tab presses before).
 */
import { expect, test } from '@playwright/test';
import { LOCALES } from '../../codegen/runtime/model.ts';
import { openScreenAs, screenNamed, t } from './pages/screens.ts';

for (const locale of LOCALES) {
  test(`the first Tab offers "skip to content", which moves the focus into the page (${locale})`, async ({ page }) => {
    await openScreenAs(page, 'sup01', locale, screenNamed('orderShip'));
    const skip = page.getByTestId('skip-link');
    await expect(skip).not.toBeInViewport();
    // start from the document, as after a page load
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Tab');
    await expect(skip).toBeFocused();
    await expect(skip).toHaveText(t(locale, 'ui.skipToContent'));
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
  });
}
