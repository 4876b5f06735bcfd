/**
 * Inbound interfaces in a real browser against the real server: the demo machine client of the
 * supplier-relationship system (srm-demo) gets a token with the client-credentials grant and posts
 * a released purchase-order line for supplier S001 (POST /api/interfaces/INTF0002); in both
 * languages the supplier finds it at once in its order-confirm list, and internal staff find the
 * message in the interface log, on the inbound tab, with its sender.
 */
import { expect, test } from '@playwright/test';
import { codeOf } from './pages/api.ts';
import { openScreenAs, screen, screenNamed, t } from './pages/screens.ts';
import { logout } from './pages/shell.ts';
import { passLocales } from './passes.ts';

const confirm = screenNamed('orderConfirm');
const log = screenNamed('interfaceLog');

for (const locale of passLocales(1)) {
  test(`a line posted by a machine client is in the supplier's order-confirm list and in the interface log (${locale})`, async ({ page, request }) => {
    const orderNo = `PE2E${locale === 'zh-CN' ? 'ZH' : 'EN'}${Date.now() % 1_000_000_000}`;
    const tokenAnswer = await request.post('/connect/token', {
      form: { grant_type: 'client_credentials', client_id: 'srm-demo', client_secret: 'mcs_demo-srm-2026' },
    });
    expect(tokenAnswer.status()).toBe(200);
    const { access_token: clientToken } = (await tokenAnswer.json()) as { access_token: string };
    const posted = await request.post('/api/interfaces/INTF0002', {
      headers: { authorization: `Bearer ${clientToken}` },
      data: {
        messages: [
          {
            idempotencyKey: `e2e-${orderNo}`,
            payload: { orderNo, itemNo: 1, partsCode: 'E2E-PART', orderQty: 24, warehouseCode: 'PDC01', directSupplierCode: 'S001', releaseDate: '2026-11-26' },
          },
        ],
      },
    });
    expect(posted.status()).toBe(200);
    const answer = (await posted.json()) as { results: { result: string; id: number }[] };
    expect(answer.results[0].result).toBe('accepted');
    const id = answer.results[0].id;

    // the supplier: the line is in the order-confirm list, found by its number
    await openScreenAs(page, 'sup01', locale, confirm);
    await screen.filter(page, 'orderNo_like').fill(orderNo);
    await screen.button(page, 'search').click();
    const row = screen.row(page, id);
    await expect(row).toBeVisible();
    await expect(row).toContainText('E2E-PART');
    await expect(row).toContainText(t(locale, `code.purchaseOrderStatus.${codeOf('purchaseOrderStatus', 'released')}`));

    // internal staff: the interface log's inbound tab shows the message with its sender
    await logout(page);
    await openScreenAs(page, 'staff01', locale, log);
    await page.getByTestId('tab-inbound').click();
    await screen.filter(page, 'reference_like').fill(orderNo);
    await screen.button(page, 'search').click();
    const logRow = screen.rows(page).filter({ hasText: `${orderNo}/1` });
    await expect(logRow).toHaveCount(1);
    await expect(logRow).toContainText('srm-demo');
    await expect(logRow).toContainText(t(locale, `code.interfaceDirection.${codeOf('interfaceDirection', 'inbound')}`));
    await expect(logRow).toContainText(t(locale, `code.interfaceMessageStatus.${codeOf('interfaceMessageStatus', 'accepted')}`));
  });
}
