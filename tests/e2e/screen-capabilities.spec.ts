/**
 * Generic screen capabilities of issue 9 in a real browser against the real server: range filters
 * refuse an inverted range; dates are typed and shown as yyyy-MM-dd with a calendar in the UI
 * language; Reset really resets; a selection belongs to the rows on screen; record buttons say
 * why they cannot run; a save or an action hands the page the record's new version; reference
 * columns show the referenced record's title; code values are translated; reference inputs offer
 * only existing records; messages name the limit, the field and the reason.
 */
import { expect, test, type Locator, type Page, type Request } from '@playwright/test';
import type { Locale } from '../../codegen/runtime/model.ts';
import {
  chooseFile,
  confirmDialog,
  expectNotification,
  loginIn,
  metadata,
  openScreen,
  openScreenAs,
  samplePdf,
  screen,
  screenNamed,
  t,
} from './pages/screens.ts';
import { logout } from './pages/shell.ts';
import { feeItemTemplate } from '../../server/handlers/fee-import.ts';
import { metadata as serverMetadata } from '../../server/generated/index.ts';
import { scaled } from '../support/waits.ts';
import { passLocales } from './passes.ts';

const codeOf = (table: string, key: string): string => metadata.codeTables[table].values.find((v) => v.key === key)!.code;

/** Types a date into a date field the way a user does: into its year, month and day sections. */
async function typeDate(page: Page, field: Locator, ymd: string): Promise<void> {
  await field.getByRole('spinbutton').first().click();
  await page.keyboard.type(ymd.replace(/-/g, ''));
}

/** The text of a row's cell in the column of `field` (cells follow the header cells one to one). */
async function cellText(page: Page, row: Locator, field: string): Promise<string> {
  const index = await page
    .getByTestId('lean-table')
    .first()
    .locator('thead th')
    .evaluateAll((ths, id) => ths.findIndex((th) => th.getAttribute('data-testid') === id || !!th.querySelector(`[data-testid="${id}"]`)), `lean-th-${field}`);
  expect(index).toBeGreaterThanOrEqual(0);
  return ((await row.locator('td').nth(index).textContent()) ?? '').trim();
}

/** Rows whose cell of `field` reads exactly `text`. */
async function rowsWhere(page: Page, field: string, text: string): Promise<Locator[]> {
  const rows = await screen.rows(page).all();
  const out: Locator[] = [];
  for (const r of rows) if ((await cellText(page, r, field)) === text) out.push(r);
  return out;
}

/** The list calls the page makes from now on (GET /api/<resource>?...), with their filter parsed. */
function listCalls(page: Page, resource: string): { filters: () => Record<string, unknown>[]; urls: () => string[] } {
  const seen: Request[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (r.method() === 'GET' && u.pathname === `/api/${resource}`) seen.push(r);
  });
  return {
    filters: () => seen.map((r) => JSON.parse(new URL(r.url()).searchParams.get('filter') ?? '{}') as Record<string, unknown>),
    urls: () => seen.map((r) => r.url()),
  };
}

for (const locale of passLocales(0)) {
  test(`date filters are yyyy-MM-dd in the UI language and refuse an inverted range (${locale})`, async ({ page }) => {
    const s = screenNamed('orderConfirm');
    await openScreenAs(page, 'sup01', locale, s);
    const calls = listCalls(page, 'orders');
    await screen.button(page, 'more-filters').click();
    const from = page.getByTestId('filter-releaseDate_gte-field');
    const to = page.getByTestId('filter-releaseDate_lte-field');
    // the empty field shows the app's format, not the browser's mm/dd/yyyy
    await expect(from.locator('.MuiPickersSectionList-root')).not.toHaveText(/MM\/DD|mm\/dd/);
    await typeDate(page, from, '2026-12-31');
    await typeDate(page, to, '2026-01-01');
    await expect(from.locator('.MuiPickersSectionList-root')).toHaveText('2026-12-31');
    await expect(screen.filter(page, 'releaseDate_gte')).toHaveValue('2026-12-31');

    // "Start date must not be after end date" (spec point 5): refused before any call
    await screen.button(page, 'search').click();
    await expectNotification(page, t(locale, 'error.dateRange'));
    expect(calls.filters().filter((f) => 'releaseDate_gte' in f)).toEqual([]);

    // the calendar speaks the UI language
    await to.locator('[data-mui-picker-open-button]').click();
    await expect(page.getByRole('dialog')).toContainText(locale === 'zh-CN' ? '一月' : 'January');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();

    await typeDate(page, to, '2027-01-31');
    await screen.button(page, 'search').click();
    await expect
      .poll(() => calls.filters().find((f) => 'releaseDate_gte' in f))
      .toMatchObject({ releaseDate_gte: '2026-12-31', releaseDate_lte: '2027-01-31' });
  });
}

test('a date typed in a form is saved as yyyy-MM-dd and shown so (zh-CN)', async ({ page }) => {
  const locale: Locale = 'zh-CN';
  const s = screenNamed('consultingFeeItems');
  await openScreenAs(page, 'staff01', locale, s);
  await screen.button(page, 'add').click();
  const code = `DT-${Date.now() % 1_000_000}`;
  const fill = (field: string, v: string) => page.getByTestId(`input-${field}`).locator('input').first().fill(v);
  await fill('originalPartsCode', code);
  await fill('feePartsCode', `ZX-${code}`);
  await fill('consultingFee', '12.5');
  await fill('managementRate', '0.05');
  await fill('supplierCode', 'S001');
  const date = page.getByTestId('input-effectiveDate');
  await expect(date).toContainText(t(locale, 'field.consultingFeeItem.effectiveDate'));
  await typeDate(page, date, '2027-03-09');
  await expect(date.locator('.MuiPickersSectionList-root')).toHaveText('2027-03-09');
  const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/consulting-fee-items' && r.request().method() === 'POST');
  await screen.button(page, 'save').click();
  const res = await saved;
  expect(res.status()).toBe(201);
  expect(res.request().postDataJSON()).toMatchObject({ effectiveDate: '2027-03-09' });
  expect((await res.json()).effectiveDate).toBe('2027-03-09');
});

test('Reset clears the search, the stored list parameters and queries again; a reload and an export see no old filter', async ({ page }) => {
  const locale: Locale = 'en-US';
  const s = screenNamed('orderConfirm');
  await openScreenAs(page, 'sup01', locale, s);
  await expect(screen.rows(page).first()).toBeVisible();
  const all = await screen.rowCount(page);
  const firstNo = await cellText(page, screen.rows(page).first(), 'orderNo');
  const calls = listCalls(page, 'orders');

  await screen.filter(page, 'orderNo_like').fill(firstNo);
  await screen.button(page, 'search').click();
  await expect.poll(() => calls.filters().some((f) => f.orderNo_like === firstNo)).toBe(true);
  await expect.poll(() => screen.rowCount(page)).toBeLessThan(all);

  await screen.button(page, 'reset').click();
  await expect(screen.filter(page, 'orderNo_like')).toHaveValue('');
  await expect.poll(() => screen.rowCount(page)).toBe(all);
  expect(calls.filters().at(-1)).not.toHaveProperty('orderNo_like');

  // nothing of the old search comes back with a reload, nor goes out with an export
  await page.reload();
  await expect(screen.rows(page).first()).toBeVisible();
  await expect(screen.filter(page, 'orderNo_like')).toHaveValue('');
  await expect.poll(() => screen.rowCount(page)).toBe(all);
  const exported = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/orders/export');
  const download = page.waitForEvent('download');
  await screen.button(page, 'export').click();
  const url = new URL((await exported).url());
  await download;
  expect(JSON.parse(url.searchParams.get('filter') ?? '{}')).toEqual(s.fixedFilter);
});

test('a selection belongs to the rows on screen: navigation, a reload and a new search drop it', async ({ page }) => {
  const locale: Locale = 'en-US';
  const s = screenNamed('orderConfirm');
  await openScreenAs(page, 'sup01', locale, s);
  const selectFirst = async () => {
    await screen.rows(page).first().getByRole('checkbox').check();
    await expect(page.getByTestId('selected-count')).toBeVisible();
  };
  await selectFirst();
  await openScreen(page, screenNamed('orderShip'), locale);
  await openScreen(page, s, locale);
  await expect(screen.rows(page).first()).toBeVisible();
  await expect(page.getByTestId('selected-count')).toBeHidden();
  await expect(screen.rows(page).first().getByRole('checkbox')).not.toBeChecked();

  await selectFirst();
  await page.reload();
  await expect(screen.rows(page).first()).toBeVisible();
  await expect(page.getByTestId('selected-count')).toBeHidden();

  await selectFirst();
  await screen.filter(page, 'partsCode_like').fill('-');
  await screen.button(page, 'search').click();
  await expect(page.getByTestId('selected-count')).toBeHidden();
});

for (const locale of passLocales(1)) {
  test(`record buttons answer "no record selected" / "only one record" and explain a state that forbids them (${locale})`, async ({ page }) => {
    const s = screenNamed('childPartsDiffAdjustQuery');
    await openScreenAs(page, 'sup01', locale, s);
    await expect(screen.rows(page).first()).toBeVisible();
    // nothing selected: the buttons are enabled and say what is missing
    await expect(screen.button(page, 'edit')).toBeEnabled();
    await screen.button(page, 'edit').click();
    await expectNotification(page, t(locale, 'error.noRecordSelected'));
    await screen.button(page, 'submit').click();
    await expectNotification(page, t(locale, 'error.noRecordSelected'));

    const withStatus = (key: string) => rowsWhere(page, 'status', t(locale, `code.stockAdjustStatus.${codeOf('stockAdjustStatus', key)}`));
    const unsubmitted = await withStatus('unsubmitted');
    expect(unsubmitted.length).toBeGreaterThanOrEqual(2);
    await unsubmitted[0].getByRole('checkbox').check();
    await unsubmitted[1].getByRole('checkbox').check();
    await screen.button(page, 'edit').click();
    await expectNotification(page, t(locale, 'error.onlyOneRecord'));
    await unsubmitted[0].getByRole('checkbox').uncheck();
    await unsubmitted[1].getByRole('checkbox').uncheck();
    await expect(page.getByTestId('selected-count')).toBeHidden();

    // a row whose state forbids the button: disabled, and the tooltip says why (the row's status, as the server would)
    const unaudited = (await withStatus('unaudited'))[0];
    const adjustment = (await api(page, 'GET', `/api/stock-adjustments/${await unaudited.getAttribute('data-id')}`)).body;
    const stockAdjustment = metadata.entities.stockAdjustment;
    await unaudited.getByRole('checkbox').check();
    await expect(screen.button(page, 'edit')).toBeDisabled();
    await page.getByTestId('btn-edit-reason').hover();
    await expect(page.getByRole('tooltip', { name: t(locale, 'error.editNotAllowed') })).toBeVisible();
    await expect(screen.button(page, 'submit')).toBeDisabled();
    await page.getByTestId('btn-submit-reason').hover();
    const submitRefusal = t(locale, 'error.statusChanged', {
      record: (stockAdjustment.identifyBy ?? [stockAdjustment.titleField]).map((f) => String(adjustment[f])).join('/'),
      statusLabel: t(locale, `code.stockAdjustStatus.${codeOf('stockAdjustStatus', 'unaudited')}`),
      actionLabel: t(locale, stockAdjustment.actions.submit.labelKey),
    });
    await expect(page.getByRole('tooltip', { name: submitRefusal })).toBeVisible();
  });
}

/** An API answer: the tests read whatever fields its body holds. */
type Answer = { status: number; body: any }; // eslint-disable-line @typescript-eslint/no-explicit-any
/** A call to the API as the page's logged-in user (another tab of the same user, say). */
async function api(page: Page, method: 'GET' | 'PUT' | 'POST', path: string, data?: unknown): Promise<Answer> {
  const token = await page.evaluate(() => localStorage.getItem('portal.token'));
  const res = await page.request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: data === undefined ? undefined : JSON.stringify(data),
  });
  return { status: res.status(), body: await res.json().catch(() => null) };
}

test('save, then an action, then save again on one edit page: every step uses the new version (notices)', async ({ page }) => {
  const locale: Locale = 'en-US';
  await openScreenAs(page, 'supadmin', locale, screenNamed('noticeList'));
  await screen.button(page, 'add').click();
  const title = page.getByTestId('input-title').locator('input');
  await title.fill(`Version ${Date.now()}`);
  await page.getByTestId('input-content').locator('textarea').first().fill('first');
  await screen.button(page, 'save').click();
  await expectNotification(page, t(locale, 'message.saveSuccess'));
  await expect(page).toHaveURL(/\/notice\/edit\?id=\d+/);
  await page.getByTestId('input-content').locator('textarea').first().fill('second');
  await screen.button(page, 'save').click();
  await expectNotification(page, t(locale, 'message.saveSuccess'));
  // repeal right after the save: no concurrent-edit message
  await screen.button(page, 'repeal').click();
  await confirmDialog(page);
  await expectNotification(page, t(locale, 'message.actionSuccess'));
  await screen.button(page, 'activate').click();
  await expectNotification(page, t(locale, 'message.actionSuccess'));
  await page.getByTestId('input-content').locator('textarea').first().fill('third');
  await screen.button(page, 'save').click();
  await expectNotification(page, t(locale, 'message.saveSuccess'));
  const id = new URL(page.url()).searchParams.get('id');
  expect((await api(page, 'GET', `/api/notices/${id}`)).body).toMatchObject({ content: 'third', version: 5 });
});

test('a returned stock adjustment: save, then submit on the same page', async ({ page }) => {
  const locale: Locale = 'zh-CN';
  await loginIn(page, 'sup01', locale);
  const s = screenNamed('childPartsDiffAdjustQuery');
  await openScreen(page, s, locale);
  await expect(screen.rows(page).first()).toBeVisible();
  const row = (await rowsWhere(page, 'status', t(locale, `code.stockAdjustStatus.${codeOf('stockAdjustStatus', 'unsubmitted')}`)))[0];
  await row.locator('[data-role="open"]').click();
  await expect(page).toHaveURL(/\?id=\d+/);
  await page.getByTestId('input-remarks').locator('textarea, input').first().fill(`saved ${Date.now()}`);
  await screen.button(page, 'save').click();
  await expectNotification(page, t(locale, 'message.saveSuccess'));
  await screen.button(page, 'submit').click();
  await confirmDialog(page);
  await expectNotification(page, t(locale, 'message.submitSuccess'));
  await expect(screen.button(page, 'submit')).toBeHidden();
});

for (const locale of passLocales(0)) {
  test(`after a real concurrent edit the form shows the other user's data and the next save goes through (${locale})`, async ({ page }) => {
    await loginIn(page, 'supadmin', locale);
    const created = await api(page, 'POST', '/api/notices', { title: `Concurrent ${locale} ${Date.now()}`, content: 'mine' });
    expect(created.status).toBe(201);
    await openScreen(page, screenNamed('noticeEdit'), locale, `?id=${created.body.id}`);
    const content = page.getByTestId('input-content').locator('textarea').first();
    await expect(content).toHaveValue('mine');
    // somebody else saves meanwhile
    expect((await api(page, 'PUT', `/api/notices/${created.body.id}`, { ...created.body, content: 'theirs' })).status).toBe(200);
    await content.fill('my change');
    await screen.button(page, 'save').click();
    await expectNotification(page, t(locale, 'error.staleVersion'));
    await expect(content).toHaveValue('theirs');
    await content.fill('my change again');
    await screen.button(page, 'save').click();
    await expectNotification(page, t(locale, 'message.saveSuccess'));
    expect((await api(page, 'GET', `/api/notices/${created.body.id}`)).body).toMatchObject({ content: 'my change again', version: 3 });
  });
}

test("a reference column shows the referenced record's title: settlement numbers on the consulting list", async ({ page }) => {
  const locale: Locale = 'en-US';
  const s = screenNamed('consultingList');
  await openScreenAs(page, 'sup01', locale, s);
  await page.getByTestId('tab-inProgress').click();
  await expect(screen.rows(page).first()).toBeVisible();
  // every reference cell on screen reads JS..., none an id; a failure names the cells that do not
  await expect
    .poll(async () => {
      const cells = await Promise.all((await screen.rows(page).all()).slice(0, 20).map((r) => cellText(page, r, 'settlementId')));
      return cells.length === 0 ? ['(no rows)'] : cells.filter((c) => !/^JS\d+$/.test(c));
    })
    .toEqual([]);
});

for (const locale of passLocales(1)) {
  test(`the logistics delivery method is shown in the UI language (${locale})`, async ({ page }) => {
    const s = screenNamed('orderConfirm');
    const labels = new Set(metadata.codeTables.logisticsDeliveryMethod.values.map((v) => t(locale, `code.logisticsDeliveryMethod.${v.code}`)));
    expect(labels.size).toBe(5);
    await openScreenAs(page, 'sup01', locale, s);
    await expect(screen.rows(page).first()).toBeVisible();
    const cells = await Promise.all((await screen.rows(page).all()).slice(0, 15).map((r) => cellText(page, r, 'logisticsDeliveryMethod')));
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.filter((c) => !labels.has(c))).toEqual([]);
    if (locale === 'en-US') expect(cells.some((c) => /[\u4e00-\u9fff]/.test(c))).toBe(false);
  });
}

for (const locale of passLocales(0)) {
  test(`an adjustment's part is chosen from the supplier's stock; a zero quantity is refused (${locale})`, async ({ page }) => {
    await loginIn(page, 'sup01', locale);
    const stock = (await api(page, 'GET', '/api/child-part-stocks?range=[0,4]')).body as { partsCode: string }[];
    const part = stock[0].partsCode;
    await openScreen(page, screenNamed('childPartsDiffAdjustQuery'), locale);
    await screen.button(page, 'add').click();
    await expect(screen.title(page)).toHaveText(t(locale, screenNamed('childPartsDiffAdjustEdit').titleKey));
    const parts = page.getByTestId('input-partsCode').locator('input');
    // a code that is not in stock is offered nothing and cannot be chosen
    await parts.fill('NO-SUCH-PART-XYZ');
    await expect(page.getByRole('presentation').getByText(t(locale, 'validation.lookup'))).toBeVisible();
    await parts.fill(part.slice(0, 5));
    const option = page.getByRole('option', { name: part, exact: true });
    await expect(option).toBeVisible();
    await option.click();
    await expect(parts).toHaveValue(part);
    const qty = page.getByTestId('input-adjustQty').locator('input');
    await qty.fill('0');
    await page.getByTestId('input-reason').locator('input, textarea').first().fill('e2e lookup');
    await screen.button(page, 'save').click();
    await expect(page.getByTestId('input-adjustQty')).toContainText(t(locale, 'rule.nonZero'));
    await qty.fill('5');
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/stock-adjustments' && r.request().method() === 'POST');
    await screen.button(page, 'save').click();
    expect((await saved).status()).toBe(201);
    await expectNotification(page, t(locale, 'message.saveSuccess'));
    await expect(page).toHaveURL(/\?id=\d+/);
    await expect(parts).toHaveValue(part);
  });
}

for (const locale of passLocales(1)) {
  test(`messages name the limit, the column and reason, and what changed (${locale})`, async ({ page }) => {
    test.setTimeout(scaled(120_000));
    // an oversize attachment: the message names the limit
    await loginIn(page, 'supadmin', locale);
    const notice = (await api(page, 'POST', '/api/notices', { title: `Limit ${locale} ${Date.now()}`, content: 'x' })).body;
    await openScreen(page, screenNamed('noticeEdit'), locale, `?id=${notice.id}`);
    const limit = metadata.rules.genericUpload.maxSizeKiB!;
    const big = { ...samplePdf('big.pdf') };
    big.buffer = Buffer.concat([big.buffer, Buffer.alloc(limit * 1024)]);
    await chooseFile(page, page.getByTestId('btn-upload-notice-attachments'), big);
    await expectNotification(page, t(locale, 'error.fileTooLarge', { max: limit }));
    await logout(page);

    // a fee import: the row, the column and the reason
    await openScreenAs(page, 'staff01', locale, screenNamed('consultingFeeItems'));
    await screen.button(page, 'import').click();
    const dialog = screen.dialog(page, 'import');
    const good = {
      originalPartsCode: `MSG-${locale}`,
      feePartsCode: `ZX-MSG-${locale}`,
      consultingFee: 10,
      managementRate: 0.05,
      supplierCode: 'S001',
      effectiveDate: '2026-12-01',
    };
    const { body } = feeItemTemplate(serverMetadata, locale, [good, { ...good, feePartsCode: `ZX-MSG2-${locale}`, managementRate: 7 }]);
    await dialog
      .getByTestId('action-file')
      .setInputFiles({ name: 'fees.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: body });
    await dialog.getByTestId('action-submit').click();
    const reason = t(locale, 'error.importRowError', {
      row: 3,
      fieldLabel: t(locale, 'field.consultingFeeItem.managementRate'),
      reason: t(locale, 'rule.decimal01'),
    });
    await expect(page.locator('.MuiSnackbar-root')).toContainText(reason);
    await dialog.getByTestId('action-cancel').click();
    await logout(page);

    // a stale ship: the line was shipped meanwhile (another tab); the message names the line and what it is now
    await loginIn(page, 'sup01', locale);
    const s = screenNamed('orderShip');
    await openScreen(page, s, locale);
    await expect(screen.rows(page).first()).toBeVisible();
    const row = screen.rows(page).first();
    const id = await row.getAttribute('data-id');
    const order = (await api(page, 'GET', `/api/orders/${id}`)).body;
    expect((await api(page, 'POST', `/api/orders/${id}/actions/ship`, { shipQty: order.unsentQty, version: order.version })).status).toBe(200);
    await row.getByTestId('lean-row-action-ship').click();
    const ship = screen.dialog(page, 'ship');
    await ship.getByRole('spinbutton').fill('1');
    await ship.getByTestId('action-submit').click();
    const statusNow = t(locale, `code.purchaseOrderStatus.${codeOf('purchaseOrderStatus', 'shipped')}`);
    await expect(page.locator('.MuiSnackbar-root')).toContainText(
      t(locale, 'error.statusChanged', {
        // the line (order/item/part), not only its order
        record: (metadata.entities.order.identifyBy ?? []).map((f) => String(order[f])).join('/'),
        statusLabel: statusNow,
        actionLabel: t(locale, metadata.entities.order.actions.ship.labelKey),
      }),
    );
  });
}
