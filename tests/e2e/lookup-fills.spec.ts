/**
 * Issue 20 point 2 (last part): choosing a part in the part lookup fills its description. Every
 * edit screen whose form holds a lookup field with metadata `fills` (taken from the compiled
 * metadata: today the adjustment's part code) is opened as a supplier, in both languages: a part
 * chosen from the options fills the fields with its record's values, a code typed and taken with
 * Enter does too, the filled field cannot be typed into (the server writes it), and the saved
 * record holds the picked part's values.
 */
import { expect, test } from '@playwright/test';
import { listWhere, saveNew, token } from './pages/api.ts';
import { metadata, openScreenAs } from './pages/screens.ts';
import { scaled } from '../support/waits.ts';
import { passLocales } from './passes.ts';

const cases = metadata.screens.flatMap((s) => {
  const entity = Object.values(metadata.entities).find((e) => e.resource === s.resource);
  if (s.kind !== 'edit' || !entity) return [];
  return s.form.filter((n) => entity.fields[n]?.lookup?.fills).map((n) => ({ screen: s, entity, field: entity.fields[n] }));
});

test('some edit screen has a lookup that fills fields', () => {
  expect(cases.length).toBeGreaterThan(0);
});

for (const locale of passLocales(1)) {
  for (const { screen: s, entity, field } of cases) {
    test(`${s.name}: choosing ${field.name} fills ${Object.keys(field.lookup!.fills!).join(', ')} (${locale})`, async ({ page, request }) => {
      test.setTimeout(scaled(120_000));
      const lookup = field.lookup!;
      const fills = Object.entries(lookup.fills!);
      const tok = await token(request, 'sup01');
      const targets = await listWhere(request, tok, metadata.entities[lookup.entity].resource, {}, 100);
      // two records whose filled values differ, so that the second pick visibly replaces the first
      const a = targets.find((r) => fills.every(([, theirs]) => r[theirs]))!;
      const b = targets.find((r) => fills.every(([, theirs]) => r[theirs] && r[theirs] !== a[theirs]))!;
      expect(a && b, 'two target records with different filled values').toBeTruthy();

      await openScreenAs(page, 'sup01', locale, s);
      const box = page.getByTestId(`input-${field.name}`).locator('input');
      const filledInput = (mine: string) => page.getByTestId(`input-${mine}`).locator('input, textarea').first();

      // chosen from the options with the mouse
      await box.fill(String(a[lookup.field]));
      await page.getByRole('option', { name: String(a[lookup.field]), exact: true }).click();
      for (const [mine, theirs] of fills) await expect(filledInput(mine)).toHaveValue(String(a[theirs]));
      for (const [mine] of fills) expect(await filledInput(mine).getAttribute('readonly')).not.toBeNull();

      // typed in full and taken with Enter
      await box.fill(String(b[lookup.field]));
      await box.press('Enter');
      for (const [mine, theirs] of fills) await expect(filledInput(mine)).toHaveValue(String(b[theirs]));

      // saved as shown
      await page.getByTestId('input-adjustQty').locator('input').fill('2');
      await page.getByTestId('input-reason').locator('input, textarea').first().fill(`fills ${locale}`);
      const stored = await saveNew(page, request, tok, entity.resource, locale);
      for (const [mine, theirs] of fills) expect(stored[mine]).toBe(b[theirs]);
    });
  }
}
