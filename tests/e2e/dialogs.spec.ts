/**
 * Action dialogs declared in metadata, in a real browser against the real server: per-record
 * inputs in a grid (DFS ship, bulk order ship: one quantity per line, pre-filled, checked per
 * row in the browser and by the server, errors naming the lines), read-only record fields
 * (`show`) and one-step confirm-and-print; claim attachments (the dealer's photos, the supplier's
 * appeal evidence). Both languages.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { confirmDialog, expectNotification, loginIn, metadata, openScreen, openScreenAs, pageMessages, screen, screenNamed, t } from './pages/screens.ts';
import { codeOf, firstWhere, getRecord, token } from './pages/api.ts';
import { passLocales } from './passes.ts';

/** Ticks the first `n` rows that offer `action`; answers their ids. */
async function chooseRows(page: Page, action: string, n: number): Promise<string[]> {
  const rows = screen.rows(page).filter({ has: page.getByTestId(`lean-row-action-${action}`) });
  await expect(rows.nth(n - 1)).toBeVisible();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rows.nth(i);
    ids.push((await r.getAttribute('data-id'))!);
    await r.getByRole('checkbox').check();
  }
  return ids;
}

for (const locale of passLocales(1)) {
  test(`DFS ship: several lines of a dealer order, each with its own quantity, in one action (${locale})`, async ({ page, request }) => {
    const tok = await token(request, 'sup01');
    await loginIn(page, 'sup01', locale);
    const s = screenNamed('dfsOrderShip');
    await openScreen(page, s, locale);
    const ids = await chooseRows(page, 'ship', 3);
    const before = await Promise.all(ids.map((id) => getRecord(request, tok, 'dfs-orders', id)));
    await screen.button(page, 'ship').click();
    const dialog = screen.dialog(page, 'ship');
    await expect(dialog).toBeVisible();
    // one row per line: the read-only fields the action shows, and its own quantity, pre-filled with the unsent quantity
    await expect(dialog.getByTestId('action-grid-th-dealerOrderNo')).toHaveText(t(locale, metadata.entities.dfsOrder.fields.dealerOrderNo.labelKey));
    await expect(dialog.getByTestId('action-grid-th-shipQty')).toContainText(t(locale, metadata.entities.dfsOrder.actions.ship.input.shipQty.labelKey));
    const gridRow = (id: string) => dialog.locator(`[data-testid="action-grid-row"][data-id="${id}"]`);
    const qty = (id: string) => gridRow(id).getByTestId('grid-input-shipQty');
    for (const [i, id] of ids.entries()) {
      await expect(gridRow(id)).toContainText(String(before[i].dealerOrderNo));
      await expect(qty(id)).toHaveValue(String(before[i].unsentQty));
    }
    // the browser checks each row with the server's rule
    await qty(ids[0]).fill('0');
    await dialog.getByTestId('action-submit').click();
    await expect(gridRow(ids[0])).toContainText(t(locale, 'rule.positiveInteger'));
    // the server refuses a quantity above what a line can take, naming that dealer order and part
    await qty(ids[0]).fill('1');
    const over = Number(before[1].unsentQty) + 1;
    await qty(ids[1]).fill(String(over));
    await dialog.getByTestId('action-submit').click();
    const label = `${before[1].dealerOrderNo}/${before[1].partsCode} (${before[1].unsentQty})`;
    await expectNotification(page, t(locale, 'error.dfsShipQtyExceeded', { items: label }));
    await expect(gridRow(ids[1])).toContainText(t(locale, 'validation.maximum', { max: String(before[1].unsentQty) }));
    for (const id of ids) expect((await getRecord(request, tok, 'dfs-orders', id)).sentQty).toBe(before[ids.indexOf(id)].sentQty);
    // different quantities per line, one action
    const want = [1, 1, Number(before[2].unsentQty)];
    await qty(ids[1]).fill(String(want[1]));
    await qty(ids[2]).fill(String(want[2]));
    await dialog.getByTestId('action-submit').click();
    await expectNotification(page, t(locale, 'message.shipSuccess'));
    await expect(dialog).toBeHidden();
    for (const [i, id] of ids.entries()) {
      const after = await getRecord(request, tok, 'dfs-orders', id);
      expect(after.sentQty).toBe(Number(before[i].sentQty) + want[i]);
      expect(after.currentShipQty).toBe(want[i]);
    }
  });

  test(`bulk order ship: one quantity per line; the error names the order, the line and the part (${locale})`, async ({ page, request }) => {
    const tok = await token(request, 'sup01');
    await openScreenAs(page, 'sup01', locale, screenNamed('orderShip'));
    const ids = await chooseRows(page, 'ship', 2);
    const before = await Promise.all(ids.map((id) => getRecord(request, tok, 'orders', id)));
    await screen.button(page, 'ship').click();
    const dialog = screen.dialog(page, 'ship');
    const qty = (id: string) => dialog.locator(`[data-testid="action-grid-row"][data-id="${id}"]`).getByTestId('grid-input-shipQty');
    await expect(qty(ids[0])).toHaveValue(String(before[0].unsentQty));
    await qty(ids[0]).fill('1');
    await qty(ids[1]).fill(String(Number(before[1].unsentQty) + 5));
    await dialog.getByTestId('action-submit').click();
    const b = before[1];
    await expectNotification(page, t(locale, 'error.shipQtyExceeded', { items: `${b.orderNo}/${b.itemNo}/${b.partsCode} (${b.unsentQty})` }));
    await qty(ids[1]).fill('1');
    await dialog.getByTestId('action-submit').click();
    await expectNotification(page, t(locale, 'message.shipSuccess'));
    for (const [i, id] of ids.entries()) expect((await getRecord(request, tok, 'orders', id)).shippedQty).toBe(Number(before[i].shippedQty) + 1);
  });
}

const statusCode = (key: string): string => metadata.codeTables.purchaseOrderStatus.values.find((v) => v.key === key)!.code;

for (const locale of passLocales(0)) {
  test(`order confirm: the delivery-card dialog shows the lines, takes this-shipment and print quantities, confirms and prints in one step (${locale})`, async ({
    page,
    request,
  }) => {
    const tok = await token(request, 'sup01');
    await loginIn(page, 'sup01', locale);
    const s = screenNamed('orderConfirm');
    await openScreen(page, s, locale);
    // printing no longer waits for a confirmed line on a list that only holds released ones
    await expect(screen.button(page, 'printDeliveryCards')).toHaveCount(0);
    const ids = await chooseRows(page, 'confirm', 2);
    const before = await Promise.all(ids.map((id) => getRecord(request, tok, 'orders', id)));
    await screen.button(page, 'confirm').click();
    const dialog = screen.dialog(page, 'confirm');
    const confirm = metadata.entities.order.actions.confirm;
    // the spec's dialog: order no, part code, order qty, per-package qty, this-shipment qty, print qty, confirm, back
    for (const f of ['orderNo', 'partsCode', 'orderQty', 'perPackageQty'])
      await expect(dialog.getByTestId(`action-grid-th-${f}`)).toHaveText(t(locale, metadata.entities.order.fields[f].labelKey));
    await expect(dialog.getByTestId('action-grid-th-thisShipmentQty')).toContainText(t(locale, confirm.input.thisShipmentQty.labelKey));
    await expect(dialog.getByTestId('input-printQty')).toContainText(t(locale, confirm.input.printQty.labelKey));
    await expect(dialog.getByTestId('action-cancel')).toBeVisible();
    const cell = (id: string) => dialog.locator(`[data-testid="action-grid-row"][data-id="${id}"]`).getByTestId('grid-input-thisShipmentQty');
    await expect(dialog.locator(`[data-testid="action-grid-row"][data-id="${ids[0]}"]`)).toContainText(String(before[0].orderNo));
    await expect(cell(ids[0])).toHaveValue(String(before[0].unsentQty));
    const mine = Math.max(1, Number(before[1].unsentQty) - 1);
    await cell(ids[1]).fill(String(mine));
    await dialog.getByTestId('input-printQty').locator('input').fill('5001');
    await dialog.getByTestId('action-submit').click();
    await expect(dialog.getByTestId('input-printQty')).toContainText(t(locale, 'rule.printQty', { min: 1, max: 5000 }));
    await dialog.getByTestId('input-printQty').locator('input').fill('2');
    // a refusal from the server shows in the dialog or a notification instead: the failure quotes it
    const download = page.waitForEvent('download', { timeout: 30_000 }).catch(async (e: Error) => {
      throw new Error(`no delivery cards downloaded; the page shows ${await pageMessages(page)}\n${e.message}`);
    });
    await dialog.getByTestId('action-submit').click();
    expect((await download).suggestedFilename()).toMatch(/^delivery-cards-.*\.pdf$/);
    await expect(dialog).toBeHidden();
    for (const id of ids) await expect(screen.row(page, id)).toHaveCount(0);
    expect(await getRecord(request, tok, 'orders', ids[0])).toMatchObject({ status: statusCode('confirmed'), thisShipmentQty: before[0].unsentQty });
    expect(await getRecord(request, tok, 'orders', ids[1])).toMatchObject({ status: statusCode('confirmed'), thisShipmentQty: mine });
  });

  test(`order search: a fully shipped line is reprinted; the dialog shows its fields read-only (${locale})`, async ({ page, request }) => {
    const tok = await token(request, 'sup01');
    const shipped = await firstWhere(request, tok, 'orders', { status: statusCode('shipped') });
    await loginIn(page, 'sup01', locale);
    const s = screenNamed('orderSearch');
    await openScreen(page, s, locale);
    await screen.filter(page, 'orderNo_like').fill(String(shipped.orderNo));
    await screen.button(page, 'search').click();
    const row = screen.row(page, String(shipped.id));
    await row.getByRole('checkbox').check();
    await screen.button(page, 'printDeliveryCards').click();
    const dialog = screen.dialog(page, 'printDeliveryCards');
    for (const f of ['orderNo', 'partsCode', 'orderQty', 'perPackageQty', 'thisShipmentQty']) {
      await expect(dialog.getByTestId(`action-show-${f}`)).toContainText(t(locale, metadata.entities.order.fields[f].labelKey));
    }
    await expect(dialog.getByTestId('action-show-orderNo')).toContainText(String(shipped.orderNo));
    await dialog.getByTestId('input-printQty').locator('input').fill('1');
    const download = page.waitForEvent('download');
    await dialog.getByTestId('action-submit').click();
    expect((await download).suggestedFilename()).toBe(`delivery-cards-${shipped.orderNo}.pdf`);
  });
}

for (const locale of passLocales(1)) {
  test(`claim view: the dealer's photos download and preview; the supplier adds and removes appeal evidence (${locale})`, async ({
    page,
    request,
    context,
  }) => {
    const tok = await token(request, 'sup01');
    const waiting = await firstWhere(request, tok, 'claims', {
      logisticsStatus: codeOf('logisticsConfirmStatus', 'wait'),
      status: codeOf('claimStatus', 'unaudited'),
    });
    const settled = await firstWhere(request, tok, 'claims', { logisticsStatus: codeOf('logisticsConfirmStatus', 'confirmed') });
    await loginIn(page, 'sup01', locale);
    const view = screenNamed('claimAudit');
    await openScreen(page, view, locale, `?id=${waiting.id}`);
    const table = page.getByTestId('related-table-claim-attachments');
    const dealerRow = table
      .getByTestId('lean-row')
      .filter({ hasText: t(locale, `code.claimAttachmentSource.${codeOf('claimAttachmentSource', 'dealer')}`) })
      .first();
    await expect(dealerRow).toBeVisible();
    // the dealer's photo: download, and a preview that shows the picture; never deleted by the supplier
    const download = page.waitForEvent('download');
    await dealerRow.getByTestId('lean-row-action-download').click();
    expect((await download).suggestedFilename()).toMatch(/\.(jpg|png)$/);
    const popup = context.waitForEvent('page');
    await dealerRow.getByTestId('lean-row-action-preview').click();
    const preview = await popup;
    await preview.waitForLoadState();
    const img = preview.locator('img');
    await expect(img).toBeVisible();
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(320);
    await preview.close();
    await expect(dealerRow.getByTestId('lean-row-action-delete')).toHaveCount(0);

    // evidence: a PDF is refused, a PNG is added as the supplier's, and can be removed again
    const upload = page.getByTestId('btn-upload-claim-attachments');
    const chooser = page.waitForEvent('filechooser');
    await upload.click();
    await (await chooser).setFiles({ name: 'report.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
    await expectNotification(page, t(locale, 'error.fileType', { types: 'JPG, PNG' }));
    const name = `appeal-${locale}.png`;
    const chooser2 = page.waitForEvent('filechooser');
    await upload.click();
    await (await chooser2).setFiles({ name, mimeType: 'image/png', buffer: readFileSync('server/seed/assets/label-detail.png') });
    await expectNotification(page, t(locale, 'message.uploadSuccess'));
    const mine = table.getByTestId('lean-row').filter({ hasText: name });
    await expect(mine).toContainText(t(locale, `code.claimAttachmentSource.${codeOf('claimAttachmentSource', 'supplier')}`));
    await mine.getByTestId('lean-row-action-delete').click();
    await confirmDialog(page);
    await expectNotification(page, t(locale, 'message.deleteSuccess'));
    await expect(mine).toHaveCount(0);

    // once the logistics finding is settled the evidence is frozen: no upload button
    await openScreen(page, view, locale, `?id=${settled.id}`);
    await expect(page.getByTestId('related-table-claim-attachments')).toBeVisible();
    await expect(page.getByTestId('btn-upload-claim-attachments')).toHaveCount(0);
  });
}

for (const locale of passLocales(0)) {
  test(`a discarded notice opens read-only: no save, no actions, no attachment changes (${locale})`, async ({ page, request }) => {
    const tok = await token(request, 'supadmin');
    const auth = { authorization: `Bearer ${tok}` };
    const n = await (await request.post('/api/notices', { headers: auth, data: { title: `discarded ${locale} ${Date.now()}`, content: 'x' } })).json();
    expect((await request.delete(`/api/notices/${n.id}`, { headers: auth })).status()).toBe(200);
    await openScreenAs(page, 'supadmin', locale, screenNamed('noticeEdit'), `?id=${n.id}`);
    await expect(page.getByTestId('record-deleted')).toHaveText(t(locale, 'error.recordDeleted'));
    await expect(page.getByTestId('input-title').locator('input')).toHaveValue(n.title);
    for (const b of ['save', 'activate', 'repeal']) await expect(screen.button(page, b)).toHaveCount(0);
    await expect(page.getByTestId('btn-upload-notice-attachments')).toHaveCount(0);
    await expect(screen.button(page, 'back')).toBeVisible();
  });

  test(`reject rejection asks for the objection and keeps it (${locale})`, async ({ page, request }) => {
    const tok = await token(request, 'sup01');
    const rejected = await firstWhere(request, tok, 'settlements', { approvalStatus: codeOf('settlementApprovalStatus', 'rejected') });
    await openScreenAs(page, 'sup01', locale, screenNamed('initiatedList'));
    const row = screen.row(page, String(rejected.id));
    await row.getByTestId('lean-row-action-rejectRejection').click();
    const dialog = screen.dialog(page, 'rejectRejection');
    await dialog.getByTestId('action-submit').click();
    await expect(dialog.getByTestId('input-objection')).toContainText(t(locale, 'validation.required'));
    await dialog.getByTestId('input-objection').locator('textarea').first().fill(`objection ${locale}`);
    await dialog.getByTestId('action-submit').click();
    await expectNotification(page, t(locale, 'message.submitSuccess'));
    expect(await getRecord(request, tok, 'settlements', String(rejected.id))).toMatchObject({
      approvalStatus: codeOf('settlementApprovalStatus', 'pending'),
      objection: `objection ${locale}`,
    });
  });
}

test('a confirmed hazardous-chemicals receipt offers no document upload (its document is frozen)', async ({ page, request }) => {
  const tok = await token(request, 'sup01');
  const confirmed = await firstWhere(request, tok, 'hazard-receipts', { status: codeOf('hazardReceiptStatus', 'confirmed') });
  const pending = await firstWhere(request, tok, 'hazard-receipts', { status: codeOf('hazardReceiptStatus', 'pending') });
  await openScreenAs(page, 'sup01', 'zh-CN', screenNamed('recConfirm'));
  await page.getByTestId('tab-all').click();
  await screen.row(page, String(confirmed.id)).getByRole('checkbox').check();
  await expect(screen.button(page, 'upload')).toBeDisabled();
  await screen.row(page, String(confirmed.id)).getByRole('checkbox').uncheck();
  await screen.row(page, String(pending.id)).getByRole('checkbox').check();
  await expect(screen.button(page, 'upload')).toBeEnabled();
});

for (const locale of passLocales(1)) {
  test(`report forms and task details: a settlement's detail view lists its lines; the report totals per supplier, period and status and exports (${locale})`, async ({
    page,
    request,
  }) => {
    const tok = await token(request, 'sup01');
    await loginIn(page, 'sup01', locale);
    // task details: from the initiated settlements into one order's detail view
    const list = screenNamed('initiatedList');
    await openScreen(page, list, locale);
    const first = screen.rows(page).first();
    const sid = (await first.getAttribute('data-id'))!;
    await first.locator('[data-role="open"]').click();
    const detail = screenNamed('settlementDetail');
    await expect(page).toHaveURL(new RegExp(`/initiated/detail\\?id=${sid}$`));
    await expect(screen.title(page)).toHaveText(t(locale, detail.titleKey));
    const s = await getRecord(request, tok, 'settlements', sid);
    await expect(page.getByTestId('detail-settlementNo')).toContainText(String(s.settlementNo));
    const lines = page.getByTestId('related-table-settlement-lines');
    await expect(page.getByTestId('related-settlement-lines')).toContainText(t(locale, 'tab.consultingReport.taskDetails'));
    await expect(lines.getByTestId('lean-row')).toHaveCount(Number(s.lineCount));
    // the report
    const rep = screenNamed('consultingReport');
    await openScreen(page, rep, locale);
    for (const c of rep.columns) await expect(screen.header(page, c.field)).toHaveText(t(locale, c.labelKey));
    const row = screen.rows(page).first();
    const rid = (await row.getAttribute('data-id'))!;
    const r = await getRecord(request, tok, 'settlement-reports', rid);
    await expect(row).toContainText(String(r.period));
    await expect(row).toContainText(t(locale, `code.settlementLineStatus.${r.status}`));
    await screen.filter(page, 'period').fill(String(r.period));
    await screen.button(page, 'search').click();
    await expect(screen.rows(page).first()).toContainText(String(r.period));
    const download = page.waitForEvent('download');
    await screen.button(page, 'export').click();
    expect((await download).suggestedFilename()).toMatch(new RegExp(`^${t(locale, rep.titleKey)}-\\d{8}-\\d{6}\\.xlsx$`));
  });
}
