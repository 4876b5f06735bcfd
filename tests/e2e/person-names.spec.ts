/**
 * People shown by name (issue 20, point 6), in both languages: a supplier confirms a hazard
 * receipt on its screen, and the receipt's "confirmed by" shows the supplier's NAME (as the
 * accounts table holds it, read from the server's database), not the user ID the record holds.
 */
import { expect, test } from '@playwright/test';
import { confirmDialog, expectNotification, loginIn, openScreen, screen, screenNamed, t } from './pages/screens.ts';
import { codeOf, listWhere, token } from './pages/api.ts';
import { openE2eDatabase } from './pages/database.ts';
import { passLocales } from './passes.ts';
import { LOCALES } from '../../codegen/runtime/model.ts';

const USER = 'sup01';

passLocales(0).forEach((locale) => {
  const i = LOCALES.indexOf(locale);
  test(`a confirmed hazard receipt shows who confirmed it by name (${locale})`, async ({ page, request }) => {
    // one uploaded receipt per language, so that the two tests never confirm the same one
    const sup = await token(request, USER);
    const uploaded = await listWhere(request, sup, 'hazard-receipts', { status: codeOf('hazardReceiptStatus', 'uploaded') }, 2);
    expect(uploaded.length).toBe(2);
    const receipt = uploaded[i];
    const id = String(receipt.id);

    await loginIn(page, USER, locale);
    const s = screenNamed('recConfirm');
    await openScreen(page, s, locale);
    await screen.filter(page, 'receiptNo_like').fill(String(receipt.receiptNo));
    await screen.button(page, 'search').click();
    const row = screen.row(page, id);
    await expect(row).toContainText(t(locale, 'code.hazardReceiptStatus.1'));
    await row.getByTestId('lean-row-action-confirm').click();
    await confirmDialog(page);
    await expectNotification(page, t(locale, 'message.confirmSuccess'));

    // the record holds the user ID; the screen shows the person's name the accounts table holds
    const db = await openE2eDatabase();
    const saved = await db
      .get<{ by: string | null; name: string | null }>(
        `SELECT h.confirmed_by AS "by", a.name AS "name" FROM hazard_receipt h LEFT JOIN account a ON a.user_id = h.confirmed_by WHERE h.id = ?`,
        [Number(id)],
      )
      .finally(() => db.close());
    expect(saved?.by).toBe(USER);
    const name = saved!.name!;
    expect(name).toBeTruthy();
    expect(name).not.toBe(USER);
    await page.getByTestId('tab-confirmed').click();
    const confirmed = screen.row(page, id);
    await expect(confirmed).toContainText(t(locale, 'code.hazardReceiptStatus.2'));
    const column = s.columns.findIndex((c) => c.field === 'confirmedBy');
    expect(column).toBeGreaterThan(-1);
    await expect(screen.header(page, 'confirmedBy')).toHaveText(t(locale, s.columns[column].labelKey));
    // the data cells come after the row number and the check box
    const cell = confirmed.locator('td:not(.lt-num):not(.lt-check)').nth(column);
    await expect(cell).toHaveText(name);
    await expect(confirmed).not.toContainText(USER);
  });
});
