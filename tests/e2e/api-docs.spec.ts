/**
 * The API documentation page (GET /api/docs) in a real browser under the portal's
 * Content-Security-Policy: it needs the portal's session of the same browser, then shows every
 * resource's operations with their parameters and schemas, and filters them.
 */
import { expect, test } from '@playwright/test';
import { login } from './pages/shell.ts';

test('the API documentation renders the OpenAPI document under the CSP, for a logged-in user', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));

  // without a session the page says how to get one
  await page.goto('/api/docs');
  await expect(page.locator('#status')).toContainText('log in to the portal');
  // (the browser reports that refused fetch, a 401, as a console error: expected here)
  problems.length = 0;

  await login(page, 'sup01');
  await page.goto('/api/docs');
  await expect(page.locator('#version')).toContainText('OpenAPI 3.1.0');
  await expect(page.locator('section.tag[data-tag="orders"] h2')).toHaveText('orders');
  const ship = page.locator('details.op', { hasText: '/api/orders/{id}/actions/ship' });
  await expect(ship).toHaveCount(1);
  await ship.locator('summary').click();
  // the action's input schema from metadata: shipQty with its range
  await expect(ship.locator('table').filter({ hasText: 'shipQty' }).first()).toContainText('maximum 99999999');

  // the list's filter keys are listed; the filter box narrows the operations
  const list = page.locator('details.op', { has: page.locator('.path', { hasText: /^\/api\/orders$/ }) }).first();
  await list.locator('summary').click();
  await expect(list).toContainText('status');
  await page.locator('#search').fill('connect/token');
  await expect(page.locator('details.op:not(.hidden)')).toHaveCount(1);
  await expect(page.locator('section.tag[data-tag="orders"]')).toBeHidden();

  expect(problems).toEqual([]);
});
