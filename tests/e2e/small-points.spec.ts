/**
 * The smaller points of issue 9 (point 17) in a real browser: search inputs trim pasted spaces;
 * the active tab scrolls into view; messages stay clear of the tab bar and the breadcrumb; a
 * row's children (the DFS shipment history) show in a side panel, visible at once; the notice
 * centre shows and orders by the publication time; "export" on the pending receipts exports the
 * pending receipts; a line shared by two suppliers offers shipping to its direct supplier only.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { readFirstSheet } from '../../server/documents/xlsx.ts';
import { loginIn, navigateToScreen, openScreen, openScreenAs, screen, screenNamed, t } from './pages/screens.ts';
import { codeOf, firstWhere, getRecord, listWhere, sharedAndOwnLines, token } from './pages/api.ts';
import { passLocales } from './passes.ts';

test('search inputs trim pasted spaces', async ({ page, request }) => {
  const tok = await token(request, 'sup01');
  const line = await firstWhere(request, tok, 'orders', { status: codeOf('purchaseOrderStatus', 'shipped') });
  await openScreenAs(page, 'sup01', 'zh-CN', screenNamed('orderSearch'));
  await screen.filter(page, 'orderNo_like').fill(`  ${line.orderNo}\t `);
  await screen.button(page, 'search').click();
  await expect(screen.row(page, String(line.id))).toBeVisible();
  await expect(screen.filter(page, 'orderNo_like')).toHaveValue(String(line.orderNo));
});

test('the active tab scrolls into view when the tab bar overflows', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 700 });
  await loginIn(page, 'sup01', 'en-US');
  const paths = [
    'orderConfirm',
    'orderShip',
    'orderSearch',
    'dfsOrderShip',
    'childPartsStockQuery',
    'consultingList',
    'consultingFeeItems',
    'initiatedList',
    'consultingReport',
  ].map((n) => screenNamed(n));
  // each opened inside the running app, as its menu entry does (a page load each only cost time)
  for (const s of paths) await navigateToScreen(page, s, 'en-US');
  const bar = page.getByTestId('tags-view');
  const inView = async (path: string) => {
    const tag = bar.locator(`[data-testid="tag"][data-path="${path}"]`);
    await expect(tag).toHaveAttribute('aria-selected', 'true');
    const [b, g] = [await bar.boundingBox(), await tag.boundingBox()];
    return g!.x >= b!.x - 1 && g!.x + g!.width <= b!.x + b!.width + 1;
  };
  // the bar is wider than the window: not every tab fits
  expect(await bar.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await expect.poll(() => inView(paths.at(-1)!.path)).toBe(true);
  // back to the first opened one (inside the app, as the menu does): it scrolls back into view
  await navigateToScreen(page, paths[0], 'en-US');
  await expect.poll(() => inView(paths[0].path)).toBe(true);
});

for (const locale of passLocales(0)) {
  test(`a message does not cover the tab bar or the breadcrumb (${locale})`, async ({ page }) => {
    await openScreenAs(page, 'sup01', locale, screenNamed('orderSearch'));
    await screen.button(page, 'search').click();
    const note = page.locator('.MuiSnackbar-root').filter({ hasText: t(locale, 'error.searchConditionRequired') });
    await expect(note).toBeVisible();
    const [n, tags, crumb] = [await note.boundingBox(), await page.getByTestId('tags-view').boundingBox(), await page.getByTestId('breadcrumb').boundingBox()];
    expect(n!.y).toBeGreaterThanOrEqual(tags!.y + tags!.height);
    expect(n!.y).toBeGreaterThanOrEqual(crumb!.y + crumb!.height);
    // the tab bar stays usable while the message shows
    await expect(page.getByTestId('tags-view').locator('[data-testid="tag"]').first()).toBeVisible();
  });

  test(`the DFS shipment history of a row far down the page shows in a side panel, without scrolling (${locale})`, async ({ page, request }) => {
    const tok = await token(request, 'sup01');
    await loginIn(page, 'sup01', locale);
    const s = screenNamed('dfsOrderShip');
    await openScreen(page, s, locale);
    // a row that has shipments, deep in the page
    const table = screen.table(page);
    await table.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
    const row = screen
      .rows(page)
      .filter({ hasText: t(locale, `code.dfsShipStatus.${codeOf('dfsShipStatus', 'partial')}`) })
      .last();
    const id = (await row.getAttribute('data-id'))!;
    const dfs = await getRecord(request, tok, 'dfs-orders', id);
    // by its id: the windowed table may still move its rows while the scroll settles, and `.last()` would then name another one
    await screen.row(page, id).locator('td').nth(3).click();
    const panel = page.getByTestId('related-panel');
    await expect(panel).toBeInViewport({ ratio: 0.9 });
    await expect(page.getByTestId('related-panel-title')).toContainText(String(dfs.dealerOrderNo));
    const history = panel.getByTestId('related-table-dfs-shipments');
    await expect(history).toBeInViewport();
    const shipments = await listWhere(request, tok, 'dfs-shipments', { dfsOrderId: Number(id) });
    await expect(history.getByTestId('lean-row')).toHaveCount(shipments.length);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    for (const c of s.related[0].columns) await expect(history.getByTestId(`lean-th-${c.field}`)).toHaveText(t(locale, c.labelKey));
    await page.getByTestId('related-panel-close').click();
    await expect(panel).toHaveCount(0);
    // Escape closes it too (issue 20 point 8)
    await screen.row(page, id).locator('td').nth(3).click();
    await expect(panel).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
  });

  test(`the notice centre shows the publication time and the latest publication first (${locale})`, async ({ page, request }) => {
    const tok = await token(request, 'supadmin');
    const auth = { authorization: `Bearer ${tok}` };
    const notices = await listWhere(request, tok, 'notices', { status: codeOf('noticeStatus', 'active') });
    // the oldest active notice is published again: it goes first, with its new publication time
    const oldest = [...notices].sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)))[0];
    expect((await request.post(`/api/notices/${oldest.id}/actions/repeal`, { headers: auth, data: {} })).status()).toBe(200);
    expect((await request.post(`/api/notices/${oldest.id}/actions/activate`, { headers: auth, data: {} })).status()).toBe(200);
    const published = await getRecord(request, tok, 'notices', String(oldest.id));
    await loginIn(page, 'sup01', locale);
    const first = page.getByTestId('notice-item').first();
    await expect(first.getByTestId('notice-title')).toHaveText(String(published.title));
    const shown = await page.evaluate((iso) => {
      const d = new Date(iso);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
    }, String(published.publishedAt));
    await expect(first.getByTestId('notice-time')).toHaveText(shown);
  });

  test(`hazardous chemicals: "export" on the pending receipts exports the pending receipts (${locale})`, async ({ page, request }) => {
    const tok = await token(request, 'sup01');
    const pendingCodes = [codeOf('hazardReceiptStatus', 'pending'), codeOf('hazardReceiptStatus', 'uploaded')];
    const pending = await listWhere(request, tok, 'hazard-receipts', { status: pendingCodes });
    const all = await listWhere(request, tok, 'hazard-receipts', {});
    expect(all.length).toBeGreaterThan(pending.length);
    await loginIn(page, 'sup01', locale);
    const s = screenNamed('recConfirm');
    await openScreen(page, s, locale);
    await expect(page.getByTestId('tab-pending')).toHaveText(t(locale, 'tab.recConfirm.pending'));
    await expect(screen.rows(page)).toHaveCount(pending.length);
    const download = page.waitForEvent('download');
    await screen.button(page, 'export').click();
    const file = await (await download).path();
    const sheet = readFirstSheet(readFileSync(file));
    const rows = sheet.rows.slice(1).map((r) => r.cells);
    expect(rows).toHaveLength(pending.length);
    const statusCol = s.columns.findIndex((c) => c.field === 'status');
    expect(new Set(rows.map((r) => r[statusCol]))).toEqual(
      new Set(pendingCodes.filter((c) => pending.some((p) => p.status === c)).map((c) => t(locale, `code.hazardReceiptStatus.${c}`))),
    );
  });
}

test('a line shared by two suppliers: only its direct supplier is offered the ship button', async ({ page, request }) => {
  const { tok, shared, own } = await sharedAndOwnLines(request);
  await openScreenAs(page, 'sup02', 'en-US', screenNamed('orderShip'));
  for (const [o, offered] of [
    [shared, false],
    [own, true],
  ] as const) {
    await screen.filter(page, 'orderNo_like').fill(String(o.orderNo));
    await screen.button(page, 'search').click();
    const row = screen.row(page, String(o.id));
    await expect(row).toBeVisible();
    await expect(row.getByTestId('lean-row-action-ship')).toHaveCount(offered ? 1 : 0);
    await row.getByRole('checkbox').check();
    if (offered) await expect(screen.button(page, 'ship')).toBeEnabled();
    else await expect(screen.button(page, 'ship')).toBeDisabled();
    await row.getByRole('checkbox').uncheck();
  }
  // and the server refuses it whatever the browser does
  const r = await request.post(`/api/orders/${shared.id}/actions/ship`, {
    headers: { authorization: `Bearer ${tok}`, 'accept-language': 'en-US' },
    data: { shipQty: 1 },
  });
  expect(r.status()).toBe(403);
  expect((await r.json()).message).toBe(t('en-US', 'error.notActingSupplier', { items: `${shared.orderNo}/${shared.itemNo}/${shared.partsCode}` }));
});
