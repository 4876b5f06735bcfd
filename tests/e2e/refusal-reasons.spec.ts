/**
 * Issue 20 point 4: a button disabled for a line of another supplier gives the real reason. A
 * purchase-order line shared by two suppliers (S001 ships it directly, S002 purchases it) is
 * confirmed, so its state allows shipping; for S002 the toolbar's Ship is disabled with "only the
 * supplier responsible for these lines ..." naming the line (not "not allowed in the current
 * status"), and the row itself says it is not S002's line. Both languages.
 */
import { expect, test } from '@playwright/test';
import { sharedAndOwnLines } from './pages/api.ts';
import { metadata, openScreenAs, screen, screenNamed, t } from './pages/screens.ts';
import { passLocales } from './passes.ts';

for (const locale of passLocales(1)) {
  test(`a line of another supplier: the disabled Ship and the row say why (${locale})`, async ({ page, request }) => {
    const { shared, own } = await sharedAndOwnLines(request);
    const label = (metadata.entities.order.identifyBy ?? []).map((f) => String(shared[f])).join('/');

    await openScreenAs(page, 'sup02', locale, screenNamed('orderShip'));
    await screen.filter(page, 'orderNo_like').fill(String(shared.orderNo));
    await screen.button(page, 'search').click();
    const row = screen.row(page, String(shared.id));
    await expect(row).toBeVisible();
    await expect(row.getByTestId('lean-row-note')).toHaveText(t(locale, 'ui.notYourLine'));
    await expect(row.getByTestId('lean-row-action-ship')).toHaveCount(0);
    await row.getByRole('checkbox').check();
    await expect(screen.button(page, 'ship')).toBeDisabled();
    await page.getByTestId('btn-ship-reason').hover();
    await expect(page.getByRole('tooltip')).toHaveText(t(locale, 'error.notActingSupplier', { items: label }));

    // the supplier's own line offers Ship and no note
    await page.mouse.move(0, 0);
    await expect(page.getByRole('tooltip')).toBeHidden();
    await row.getByRole('checkbox').uncheck();
    await screen.filter(page, 'orderNo_like').fill(String(own.orderNo));
    await screen.button(page, 'search').click();
    const mine = screen.row(page, String(own.id));
    await expect(mine.getByTestId('lean-row-action-ship')).toHaveCount(1);
    await expect(mine.getByTestId('lean-row-note')).toHaveCount(0);
  });
}
