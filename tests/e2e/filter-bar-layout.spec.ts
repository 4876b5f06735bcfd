/**
 * The list's search form at 1440 px (issue 20 point 8), in both languages:
 *   - every range condition of every list screen (taken from the compiled metadata) shows two
 *     empty inputs whose full labels ("… From" / "… To") can be read and told apart, not cut to the
 *     same "Release (audit) d…";
 *   - while a row's side panel is open, Search and Reset stay visible beside it and take a click.
 */
import { expect, test, type Page } from '@playwright/test';
import type { CompiledScreen, Locale } from '../../codegen/runtime/model.ts';
import { LOCALES, PERSONAS, mayOpen, type Persona } from './metadata/plan.ts';
import { signIn } from './pages/shell.ts';
import { metadata, navigateToScreen, openScreen, screen, screenNamed, t } from './pages/screens.ts';
import { scaled } from '../support/waits.ts';

const WIDE = { width: 1440, height: 900 };

const rangeScreens = (): CompiledScreen[] => metadata.screens.filter((s) => s.kind === 'list' && s.filters.some((f) => f.op === 'range'));

/** The personas logged in at their own (claim) warehouse, each with the range screens it may open. */
const visits = PERSONAS.filter((p) => p.isClaimWarehouse && p.user)
  .map((p) => ({ persona: p, screens: rangeScreens().filter((s) => mayOpen(s, p)) }))
  .filter((v) => v.screens.length > 0);

/** Signs the persona in at its warehouse (shell.ts signIn); the first screen opened loads the app. */
const loginAs = (page: Page, p: Persona, locale: Locale): Promise<void> => signIn(page, p.user!, { locale, warehouse: p.warehouse });

/** The label of a filter input (found by its test id): its text and whether MUI cut it. */
async function labelOf(page: Page, testId: string): Promise<{ text: string; cut: boolean; shrunk: boolean }> {
  const input = page.getByTestId(testId);
  await expect(input).toBeAttached();
  return input.evaluate((el) => {
    const label = el.closest('.MuiFormControl-root, .MuiPickersTextField-root')?.querySelector('label');
    if (!label) return { text: '', cut: true, shrunk: false };
    return { text: (label.textContent ?? '').trim(), cut: label.scrollWidth > label.clientWidth, shrunk: label.getAttribute('data-shrink') === 'true' };
  });
}

test('the visits cover every range condition of the list screens', () => {
  const covered = new Set(visits.flatMap((v) => v.screens.map((s) => s.name)));
  expect(
    rangeScreens()
      .filter((s) => !covered.has(s.name))
      .map((s) => s.name),
  ).toEqual([]);
  expect(covered.size).toBeGreaterThan(0);
});

for (const locale of LOCALES) {
  for (const { persona, screens } of visits) {
    test(`empty range inputs show full, different labels at 1440 px (${persona.key}, ${locale})`, async ({ page }) => {
      test.setTimeout(scaled(120_000 + screens.length * 15_000));
      await page.setViewportSize(WIDE);
      await loginAs(page, persona, locale);
      for (const s of screens) {
        await navigateToScreen(page, s, locale);
        if (s.filters.some((f) => !f.alwaysOn)) await screen.button(page, 'more-filters').click();
        for (const f of s.filters.filter((x) => x.op === 'range')) {
          const name = t(locale, f.labelKey);
          const [from, to] = [await labelOf(page, `filter-${f.field}_gte`), await labelOf(page, `filter-${f.field}_lte`)];
          const where = `${s.name}.${f.field}`;
          expect(from, where).toEqual({ text: `${name} ${t(locale, 'ui.from')}`, cut: false, shrunk: false });
          expect(to, where).toEqual({ text: `${name} ${t(locale, 'ui.to')}`, cut: false, shrunk: false });
        }
      }
    });
  }

  test(`Search and Reset stay visible and clickable beside the open side panel (${locale})`, async ({ page }) => {
    await page.setViewportSize(WIDE);
    const s = screenNamed('dfsOrderShip');
    const supplier = PERSONAS.find((p) => p.isClaimWarehouse && p.user && mayOpen(s, p))!;
    await loginAs(page, supplier, locale);
    await openScreen(page, s, locale);
    await expect(screen.rows(page).first()).toBeVisible();
    await screen.rows(page).first().locator('td').nth(3).click();
    const panel = page.getByTestId('related-panel');
    await expect(panel).toBeVisible();
    const box = (await panel.boundingBox())!;
    for (const name of ['search', 'reset']) {
      const button = screen.button(page, name);
      const b = (await button.boundingBox())!;
      expect(b.x + b.width, `${name} ends left of the panel`).toBeLessThanOrEqual(box.x);
      // nothing lies above the button: the point under its centre belongs to it
      const onTop = await button.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
      });
      expect(onTop, `${name} is not covered`).toBe(true);
    }
    // Search answers while the panel stays open (it is not modal: another row shows that row's children)
    const listCall = page.waitForRequest((r) => r.method() === 'GET' && new URL(r.url()).pathname.endsWith(`/${s.resource}`));
    await screen.button(page, 'search').click();
    await listCall;
    await screen.button(page, 'reset').click({ trial: true });
  });
}
