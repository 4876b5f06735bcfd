/**
 * Issue 20 point 1: no edit is lost on an edit screen with record actions. Every such screen is
 * taken from the compiled metadata (kind "edit" with an entity action among its buttons), opened as
 * a demo account that may save the record and run an action on it, in both languages: once a field
 * is changed, the record's action buttons are disabled and say why (the action would run on the
 * stored record and the edit would silently be lost), leaving through the menu asks first (and
 * stays when refused), and after Save the action is enabled again and the database holds the edit.
 */
import { expect, test } from '@playwright/test';
import type { CompiledField, CompiledScreen } from '../../codegen/runtime/model.ts';
import { entityOf, expectedRecordButtons, LOCALES, PERSONAS, mayOpen, metadata, screenActions, screenNamed, type Persona } from './metadata/plan.ts';
import { getRecord, listWhere, token } from './pages/api.ts';
import { expectNotification, screen, t } from './pages/screens.ts';
import { clickMenuItem, loginPage } from './pages/shell.ts';

type Rec = Record<string, unknown>;

/** Edit screens whose buttons run an action on the record (derived, not listed). */
const editScreensWithActions = metadata.screens.filter((s) => s.kind === 'edit' && screenActions(s, entityOf(s)!).some((a) => !a.collection));

/** The fields a lookup fills when its value is chosen (`fills`): read-only in the form. */
const filledByLookup = (s: CompiledScreen): Set<string> => new Set(Object.values(entityOf(s)!.fields).flatMap((f) => Object.keys(f.lookup?.fills ?? {})));

/** A field of the form a user may change freely: writable on update, free text, no rule or lookup that a changed value could break. */
const freeTextField = (s: CompiledScreen): CompiledField | undefined =>
  s.form
    .map((n) => entityOf(s)!.fields[n])
    .find(
      (f) =>
        f &&
        !f.system &&
        !f.readOnly &&
        !filledByLookup(s).has(f.name) &&
        !f.createOnly &&
        !f.lookup &&
        (f.type === 'text' || f.type === 'string') &&
        !f.rules?.length &&
        (f.maxLength ?? 0) >= 20,
    );

test('every edit screen with record actions is covered', () => {
  expect(editScreensWithActions.map((s) => s.name).length).toBeGreaterThan(0);
  for (const s of editScreensWithActions) expect(freeTextField(s), `${s.name} has no free-text field to edit`).toBeDefined();
});

for (const s of editScreensWithActions) {
  for (const locale of LOCALES) {
    test(`${s.name}: unsaved changes block the record's actions and leaving asks first (${locale})`, async ({ page, request }) => {
      const e = entityOf(s)!;
      const field = freeTextField(s)!;
      // a persona at its own warehouse that may open the screen, save a record and act on it
      let found: { p: Persona; record: Rec; action: string } | undefined;
      for (const p of PERSONAS.filter((x) => x.user && mayOpen(s, x))) {
        const tok = await token(request, p.user!, p.warehouse);
        for (const r of await listWhere(request, tok, e.resource, {}, 200)) {
          const buttons = expectedRecordButtons(s, p, r);
          const action = buttons.find((b) => b !== 'save');
          if (buttons.includes('save') && action) {
            found = { p, record: r, action };
            break;
          }
        }
        if (found) break;
      }
      expect(found, `a demo record of ${e.resource} that may be saved and acted on`).toBeDefined();
      const { p, record, action } = found!;
      const list = screenNamed(s.listScreen);
      await loginPage.open(page);
      await loginPage.chooseLanguage(page, locale);
      await loginPage.submit(page, p.user!, { warehouse: p.warehouse as 'PDC01' | 'PDC02' });
      await expect(page.getByTestId('layout')).toBeVisible();
      await page.goto(`${s.path}?id=${record.id}`);
      await expect(screen.root(page, s.name)).toBeVisible();
      const button = screen.button(page, action);
      await expect(button).toBeEnabled();

      const input = page.getByTestId(`input-${field.name}`).locator('input, textarea').first();
      const edited = `${String(record[field.name] ?? '').slice(0, (field.maxLength ?? 20) - 12)} e2e-${locale}`;
      await input.fill(edited);
      await expect(button).toBeDisabled();
      const label = t(locale, entityOf(s)!.actions[action].labelKey);
      await page.getByTestId(`btn-${action}-reason`).hover();
      await expect(page.getByRole('tooltip', { name: t(locale, 'ui.unsaved.actionBlocked', { action: label }) })).toBeVisible();
      await expect(page.getByTestId('unsaved-hint')).toHaveText(t(locale, 'ui.unsaved.hint'));

      // leaving through the menu asks; refused, the page and the edit stay
      const asked: string[] = [];
      page.once('dialog', (d) => {
        asked.push(d.message());
        void d.dismiss();
      });
      const menuPath = s.activeMenu ?? list?.path ?? '';
      await clickMenuItem(page, menuPath);
      await expect.poll(() => asked).toEqual([t(locale, 'ui.unsaved.leave')]);
      await expect(screen.root(page, s.name)).toBeVisible();
      await expect(input).toHaveValue(edited);
      // closing (or reloading) the browser tab asks the browser's own question
      const unload = page.waitForEvent('dialog');
      await page.close({ runBeforeUnload: true });
      const d = await unload;
      expect(d.type()).toBe('beforeunload');
      await d.dismiss();
      await expect(input).toHaveValue(edited);

      // saved, the action may run again and the database holds the edit
      await screen.button(page, 'save').click();
      await expectNotification(page, t(locale, 'message.saveSuccess'));
      await expect(button).toBeEnabled();
      await expect(page.getByTestId('unsaved-hint')).toBeHidden();
      const tok = await token(request, p.user!, p.warehouse);
      expect((await getRecord(request, tok, e.resource, String(record.id)))[field.name]).toBe(edited);
    });
  }
}
