/**
 * A record action's dialog (a row button, not a collection action) opens with the focus in its
 * first input, as the collection actions' dialogs do (issue 20 point 8; the same component,
 * admin/src/screens/actions/focusFirstInput.ts). Here: the supplier's "reject the objection"
 * on a rejected settlement, which asks for the objection. Nothing is submitted.
 */
import { expect, test } from '@playwright/test';
import type { Locale } from '../../codegen/runtime/model.ts';
import { metadata, openScreenAs, screen, screenNamed } from './pages/screens.ts';
import { codeOf, firstWhere, token } from './pages/api.ts';

const LOCALES: Locale[] = ['zh-CN', 'en-US'];

for (const locale of LOCALES) {
  test(`a record action's dialog opens with the focus in its first input (${locale})`, async ({ page, request }) => {
    const s = screenNamed('initiatedList');
    const action = metadata.entities[metadata.resources[s.resource!]].actions.rejectRejection;
    // a record action with inputs: its dialog is opened from the row
    expect(action.collection).toBe(false);
    expect(action.inputOrder[0]).toBe('objection');
    const tok = await token(request, 'sup01');
    const rejected = await firstWhere(request, tok, 'settlements', { approvalStatus: codeOf('settlementApprovalStatus', 'rejected') });
    await openScreenAs(page, 'sup01', locale, s);
    await screen.row(page, String(rejected.id)).getByTestId('lean-row-action-rejectRejection').click();
    const dialog = screen.dialog(page, 'rejectRejection');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('input-objection').locator('textarea:not([aria-hidden="true"])').first()).toBeFocused();
    // typing goes straight into it
    await page.keyboard.type('x');
    await expect(dialog.getByTestId('input-objection').locator('textarea:not([aria-hidden="true"])').first()).toHaveValue('x');
  });
}
