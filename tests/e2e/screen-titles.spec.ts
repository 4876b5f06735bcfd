/**
 * A screen serving two jobs has a title per job (issue 20 point 6): the adjustment's edit screen is
 * the supplier's input and the staff's audit. For every screen whose metadata gives a profile its
 * own title (`titleKeyFor`), an account of that profile and one of another profile open a record
 * from its list, in both languages: the heading, the tab, the breadcrumb and the browser title say
 * the title of the account's profile.
 */
import { expect, test } from '@playwright/test';
import { screenTitleKey } from '../../codegen/runtime/screen-title.ts';
import { LOCALES, PERSONAS, mayOpen, parentListOf } from './metadata/plan.ts';
import { loginPage } from './pages/shell.ts';
import { metadata, openScreen, t } from './pages/screens.ts';

const titled = metadata.screens.filter((s) => s.titleKeyFor);

const cases = titled.flatMap((s) => {
  const list = parentListOf(s);
  const who = PERSONAS.filter((p) => p.isClaimWarehouse && p.user && mayOpen(s, p) && list && mayOpen(list, p));
  // each profile named by titleKeyFor, and one that is not (it sees titleKey)
  const named = who.filter((p) => s.titleKeyFor![p.profile]);
  const other = who.find((p) => !s.titleKeyFor![p.profile]);
  return [...named, ...(other ? [other] : [])].map((persona) => ({ screen: s, list: list!, persona }));
});

test('a screen with titles per profile is opened by each named profile and by another one', () => {
  expect(titled.length).toBeGreaterThan(0);
  for (const s of titled) {
    const seen = cases.filter((c) => c.screen === s).map((c) => c.persona.profile);
    expect(seen, s.name).toEqual(expect.arrayContaining(Object.keys(s.titleKeyFor!)));
    expect(
      seen.some((p) => !s.titleKeyFor![p]),
      `${s.name}: a profile that sees titleKey`,
    ).toBe(true);
  }
});

for (const locale of LOCALES) {
  for (const { screen: s, list, persona } of cases) {
    test(`${s.name} is titled for ${persona.profile} (${locale})`, async ({ page }) => {
      await loginPage.open(page);
      await loginPage.chooseLanguage(page, locale);
      await loginPage.submit(page, persona.user!, { warehouse: persona.warehouse as 'PDC01' | 'PDC02' });
      await expect(page.getByTestId('layout')).toBeVisible();
      await openScreen(page, list, locale);
      await page.getByTestId('lean-table').first().getByTestId('lean-row').first().locator('[data-role="open"]').click();
      await expect(page.getByTestId(`screen-${s.name}`)).toBeVisible();
      const title = t(locale, screenTitleKey(s, persona.profile));
      // the job's own title, different from the other job's
      expect(title).not.toBe(t(locale, s.titleKeyFor![persona.profile] ? s.titleKey : Object.values(s.titleKeyFor!)[0]));
      await expect(page.getByTestId('screen-title')).toHaveText(title);
      await expect(page.getByTestId('tags-view').locator('[data-testid="tag"][aria-selected="true"]')).toContainText(title);
      await expect(page.getByTestId('breadcrumb')).toContainText(title);
      await expect(page).toHaveTitle(`${title} - ${t(locale, metadata.app.titleKey)}`);
    });
  }
}
