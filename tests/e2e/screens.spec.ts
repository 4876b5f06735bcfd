/**
 * The generated screens in a real browser against the real server (fresh demo database): the
 * notice input and the notice centre end to end (attachment upload, overwrite question, download); action
 * dialogs generated from metadata with the server's validation rules; the search-condition rule;
 * a 500-row page. Every screen's title, columns, tabs and field labels in both languages are
 * checked by the metadata suite (metadata-screens.spec.ts), for every persona that may open it.
 */
import { expect, test } from '@playwright/test';
import type { Locale } from '../../codegen/runtime/model.ts';
import { logout } from './pages/shell.ts';
import { feeItemTemplate } from '../../server/handlers/fee-import.ts';
import { metadata as serverMetadata } from '../../server/generated/index.ts';
import { chooseFile, confirmDialog, expectNotification, loginIn, openScreenAs, samplePdf, screen, screenNamed, t } from './pages/screens.ts';
import { scaled } from '../support/waits.ts';

/** react-admin's yes label (ra.boolean.true) in the shell's dictionaries */
const YES: Record<Locale, string> = { 'zh-CN': '是', 'en-US': 'Yes' };
test('a notice published by the supplier admin reaches a supplier with its attachment', async ({ page }) => {
  test.setTimeout(scaled(120_000));
  const locale: Locale = 'en-US';
  const title = `Notice ${Date.now()}`;
  const noticeList = screenNamed('noticeList');
  const noticeEdit = screenNamed('noticeEdit');
  const file = samplePdf('supply-plan.pdf');

  await openScreenAs(page, 'supadmin', locale, noticeList);
  await screen.button(page, 'add').click();
  await expect(screen.title(page)).toHaveText(t(locale, noticeEdit.titleKey));
  // the browser refuses what the server would refuse, in place
  await screen.button(page, 'save').click();
  await expect(page.getByTestId('input-title')).toContainText(t(locale, 'validation.required'));
  await page.getByTestId('input-title').locator('input').fill(title);
  await page.getByTestId('input-content').locator('textarea').first().fill('Please confirm the plan.\nSecond line.');
  await screen.button(page, 'save').click();
  await expectNotification(page, t(locale, 'message.saveSuccess'));
  await expect(page).toHaveURL(/\/notice\/edit\?id=\d+/);

  // attachment: upload, then the same name again -> the overwrite question -> overwrite
  const attachments = page.getByTestId('related-table-notice-attachments');
  await chooseFile(page, page.getByTestId('btn-upload-notice-attachments'), file);
  await expect(attachments.getByTestId('lean-row')).toHaveCount(1);
  await expect(attachments.getByTestId('lean-row')).toContainText(file.name);
  await expectNotification(page, t(locale, 'message.uploadSuccess'));
  await chooseFile(page, page.getByTestId('btn-upload-notice-attachments'), file);
  const question = page.getByRole('dialog').filter({ hasText: t(locale, 'error.fileExists') });
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: t(locale, 'message.overwriteFile') }).click();
  await expectNotification(page, t(locale, 'message.uploadSuccess'));
  await expect(attachments.getByTestId('lean-row')).toHaveCount(1);
  const download = page.waitForEvent('download');
  await attachments.getByTestId('lean-row-action-download').click();
  expect((await download).suggestedFilename()).toBe(file.name);

  // repeal (asks first), then activate again
  await screen.button(page, 'repeal').click();
  await confirmDialog(page);
  await expect(screen.button(page, 'activate')).toBeVisible();
  await expect(screen.button(page, 'repeal')).toHaveCount(0);
  await screen.button(page, 'activate').click();
  await expect(screen.button(page, 'repeal')).toBeVisible();

  // back to the list; the title search finds it
  await screen.button(page, 'back').click();
  await expect(screen.title(page)).toHaveText(t(locale, noticeList.titleKey));
  await screen.filter(page, 'title_like').fill(title);
  await screen.button(page, 'search').click();
  await expect(screen.rows(page)).toHaveCount(1);
  await expect(screen.rows(page).first()).toContainText(title);
  await logout(page);

  // a supplier reads it in the notice centre and downloads the attachment
  await loginIn(page, 'sup01', locale);
  const item = page.getByTestId('notice-item').filter({ hasText: title });
  await expect(item).toBeVisible();
  const summary = item.getByRole('button').first();
  if ((await summary.getAttribute('aria-expanded')) !== 'true') await summary.click();
  await expect(item.getByTestId('notice-content')).toContainText('Please confirm the plan.');
  const row = item.getByTestId('lean-row');
  await expect(row).toContainText(file.name);
  await expect(row).toContainText('B'); // size
  const supplierDownload = page.waitForEvent('download');
  await row.getByTestId('lean-row-action-download').click();
  const got = await supplierDownload;
  expect(got.suggestedFilename()).toBe(file.name);
});

test('discard: a deleted notice is hidden unless "including deleted" is ticked', async ({ page }) => {
  const locale: Locale = 'zh-CN';
  const title = `待删除公告 ${Date.now()}`;
  await openScreenAs(page, 'supadmin', locale, screenNamed('noticeList'));
  await screen.button(page, 'add').click();
  await page.getByTestId('input-title').locator('input').fill(title);
  await page.getByTestId('input-content').locator('textarea').first().fill('内容');
  await screen.button(page, 'save').click();
  await expect(page).toHaveURL(/id=\d+/);
  const id = new URL(page.url()).searchParams.get('id')!;
  await screen.button(page, 'back').click();
  await screen.row(page, id).getByRole('checkbox').check();
  await screen.button(page, 'delete').click();
  await confirmDialog(page);
  await expectNotification(page, t(locale, 'message.deleteSuccess'));
  await expect(screen.row(page, id)).toHaveCount(0);
  await screen.filter(page, 'includeDeleted').check();
  await screen.button(page, 'search').click();
  await expect(screen.row(page, id).locator('td').nth(5)).toHaveText(YES[locale]);
});

test('order confirm: the action dialog validates like the server, then confirms', async ({ page }) => {
  const locale: Locale = 'zh-CN';
  await openScreenAs(page, 'sup01', locale, screenNamed('orderConfirm'));
  // the first line this supplier may confirm (a line it only purchases is listed without the button)
  const first = screen
    .rows(page)
    .filter({ has: page.getByTestId('lean-row-action-confirm') })
    .first();
  const id = await first.getAttribute('data-id');
  await screen.row(page, id!).getByTestId('lean-row-action-confirm').click();
  const dialog = screen.dialog(page, 'confirm');
  await expect(dialog).toBeVisible();
  // pre-filled with the unsent quantity; emptied, it is required
  const qty = dialog.getByTestId('input-thisShipmentQty').locator('input');
  await expect(qty).not.toHaveValue('');
  // at most what is unsent (the first line left by earlier tests may have fewer than 5 to send)
  const some = String(Math.min(5, Number(await qty.inputValue())));
  await dialog.getByTestId('input-thisShipmentQty').locator('input').fill('');
  await dialog.getByTestId('action-submit').click();
  await expect(dialog.getByTestId('input-thisShipmentQty')).toContainText(t(locale, 'validation.required'));
  await dialog.getByTestId('input-thisShipmentQty').locator('input').fill('0');
  await dialog.getByTestId('action-submit').click();
  await expect(dialog.getByTestId('input-thisShipmentQty')).toContainText(t(locale, 'rule.positiveInteger'));
  await qty.fill(some);
  await dialog.getByTestId('action-submit').click();
  await expectNotification(page, t(locale, 'message.confirmSuccess'));
  // the list holds released lines only: the confirmed one is gone
  await expect(screen.row(page, id!)).toHaveCount(0);
});

for (const name of ['orderShip', 'dfsOrderShip']) {
  test(`${name}: ship asks for the quantity and ships`, async ({ page }) => {
    const locale: Locale = 'en-US';
    const s = screenNamed(name);
    await openScreenAs(page, 'sup01', locale, s);
    // a row whose state allows shipping carries the row's ship button
    const first = screen
      .rows(page)
      .filter({ has: page.getByTestId('lean-row-action-ship') })
      .first();
    await expect(first).toBeVisible();
    await first.getByRole('checkbox').check();
    await screen.button(page, 'ship').click();
    const dialog = screen.dialog(page, 'ship');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('action-confirm-question')).toHaveText(t(locale, 'message.confirmAction'));
    await dialog.getByTestId('input-shipQty').locator('input').fill('-1');
    await dialog.getByTestId('action-submit').click();
    await expect(dialog.getByTestId('input-shipQty')).toContainText(t(locale, 'rule.positiveInteger'));
    await dialog.getByTestId('input-shipQty').locator('input').fill('1');
    await dialog.getByTestId('action-submit').click();
    await expectNotification(page, t(locale, 'message.shipSuccess'));
  });
}

test('a screen that needs a search condition refuses an empty search, then lists 500 rows a page', async ({ page }) => {
  const locale: Locale = 'en-US';
  const s = screenNamed('orderSearch');
  await openScreenAs(page, 'sup01', locale, s);
  await expect(page.getByTestId('lean-empty')).toHaveText(t(locale, 'ui.searchFirst'));
  await screen.button(page, 'search').click();
  await expectNotification(page, t(locale, 'error.searchConditionRequired'));

  // every order number contains "P": the supplier's whole order book, more than one page
  const listed = page.waitForResponse((r) => r.url().includes('/api/orders?') && r.status() === 200);
  await screen.filter(page, 'orderNo_like').fill('P');
  await screen.button(page, 'search').click();
  const res = await listed;
  const total = Number((res.headers()['content-range'] ?? '').split('/').pop());
  expect(total).toBeGreaterThan(500);
  await expect(screen.table(page)).toHaveAttribute('data-row-count', '500');
  await expect(page.getByText(/1-500/)).toBeVisible();
  // the table windows its rows: the DOM holds the visible ones, scrolling brings the rest
  expect(await screen.rows(page).count()).toBeLessThan(120);
  await screen.table(page).evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(screen.table(page).locator('[data-testid="lean-row"][data-index="499"]')).toBeVisible();
});

test('export downloads the list as Excel; tabs filter the rows', async ({ page }) => {
  const locale: Locale = 'zh-CN';
  const s = screenNamed('consultingList');
  await openScreenAs(page, 'sup01', locale, s);
  const settled = s.tabs.find((tab) => tab.key === 'settled')!;
  await page.getByTestId(`tab-${settled.key}`).click();
  const status = String(settled.filter.status);
  await expect(screen.rows(page).first()).toContainText(t(locale, `code.settlementLineStatus.${status}`));
  const download = page.waitForEvent('download');
  await screen.button(page, 'export').click();
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
});

test('hazardous chemicals: uploading the signed receipt makes it confirmable; then it is confirmed', async ({ page }) => {
  const locale: Locale = 'zh-CN';
  await openScreenAs(page, 'sup01', locale, screenNamed('recConfirm'));
  // a pending receipt offers no confirm until its document is there
  const pending = screen
    .rows(page)
    .filter({ hasText: t(locale, 'code.hazardReceiptStatus.0') })
    .first();
  await expect(pending).toBeVisible();
  const id = (await pending.getAttribute('data-id'))!;
  await expect(pending.getByTestId('lean-row-action-confirm')).toHaveCount(0);
  await pending.getByRole('checkbox').check();
  await chooseFile(page, page.getByTestId('btn-upload'), samplePdf('危化品签收单.pdf'));
  await expectNotification(page, t(locale, 'message.uploadSuccess'));
  // the upload moved the receipt to "uploaded" (the server applies the declared parent action)
  const row = screen.row(page, id);
  await expect(row).toContainText('危化品签收单.pdf');
  await expect(row).toContainText(t(locale, 'code.hazardReceiptStatus.1'));
  await row.getByTestId('lean-row-action-confirm').click();
  // an action without inputs only asks "are you sure?"
  await confirmDialog(page);
  await expectNotification(page, t(locale, 'message.confirmSuccess'));
  // confirmed, it leaves the pending receipts for the confirmed ones
  await expect(row).toHaveCount(0);
  await page.getByTestId('tab-confirmed').click();
  await expect(screen.row(page, id)).toContainText(t(locale, 'code.hazardReceiptStatus.2'));
});

test('consulting fee items: staff downloads the import template and imports a workbook; a bad row is named', async ({ page }) => {
  const locale: Locale = 'en-US';
  await openScreenAs(page, 'staff01', locale, screenNamed('consultingFeeItems'));
  await screen.button(page, 'import').click();
  const dialog = screen.dialog(page, 'import');
  await expect(dialog).toBeVisible();
  const download = page.waitForEvent('download');
  await dialog.getByTestId('action-template').click();
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);
  // a workbook as a user would fill the template in: one good row, one with a bad rate
  const good = {
    originalPartsCode: 'E2E-0001',
    feePartsCode: 'ZX-E2E-0001',
    consultingFee: 88.5,
    managementRate: 0.05,
    supplierCode: 'S001',
    effectiveDate: '2026-12-01',
  };
  const bad = { ...good, feePartsCode: 'ZX-E2E-0002', managementRate: 'abc' };
  const { body: badFile } = feeItemTemplate(serverMetadata, locale, [good, bad]);
  await dialog
    .getByTestId('action-file')
    .setInputFiles({ name: 'fees.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: badFile });
  await dialog.getByTestId('action-submit').click();
  // nothing is imported; the message names the row at fault
  await expect(page.getByText(t(locale, 'error.importFailed', { count: 1, rows: '3' }))).toBeVisible();
  await expect(dialog).toBeVisible();
  const { body: goodFile } = feeItemTemplate(serverMetadata, locale, [good]);
  await dialog
    .getByTestId('action-file')
    .setInputFiles({ name: 'fees.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: goodFile });
  await dialog.getByTestId('action-submit').click();
  await expectNotification(page, t(locale, 'message.uploadSuccess'));
  await screen.filter(page, 'feePartsCode_like').fill('ZX-E2E');
  await screen.button(page, 'search').click();
  await expect(screen.rows(page)).toHaveCount(1);
  await expect(screen.rows(page).first()).toContainText('ZX-E2E-0001');
});
