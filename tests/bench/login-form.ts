import type { Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';

/** Fills the sign-in form the page shows for a demo account at a warehouse; the caller submits (and times it). */
export async function fillLoginForm(page: Page, user: string, warehouse: string): Promise<void> {
  await page.getByTestId('login-username').fill(user);
  await page.getByTestId('login-password').fill(DEMO_PASSWORD);
  await page.getByTestId('login-warehouse').click();
  await page.getByTestId(`login-warehouse-${warehouse}`).click();
  await page.getByTestId(`login-warehouse-${warehouse}`).waitFor({ state: 'hidden' });
}
