/**
 * Issue 20 point 2: a lookup (the adjustment's part code) picks what the user typed, from the
 * keyboard, with slow and out-of-order answers (Playwright delays the lookup's list calls):
 * ArrowDown + Enter right after typing a full code takes that code, never an option of an earlier
 * text; an answer to an older text does not replace the current one; Enter or Tab alone keeps a
 * known code and says "not in your stock" for an unknown one (not an empty field and "required").
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { LOCALES } from '../../codegen/runtime/model.ts';
import { listWhere, saveNew, token } from './pages/api.ts';
import { metadata, openScreenAs, screenNamed, t } from './pages/screens.ts';
import { scaled } from '../support/waits.ts';

const edit = screenNamed('childPartsDiffAdjustEdit');
const entity = Object.values(metadata.entities).find((e) => e.resource === edit.resource)!;
const field = entity.fields.partsCode;
const lookup = field.lookup!;
const target = metadata.entities[lookup.entity];

/** The text a lookup call searched for (its contains filter), '' for none. */
const searchedFor = (url: string): string => {
  const filter = JSON.parse(new URL(url).searchParams.get('filter') ?? '{}') as Record<string, string>;
  return filter[`${lookup.field}_like`] ?? filter[lookup.field] ?? '';
};

/** Answers the lookup's list calls after `delayOf(text)` ms; `answered` collects the texts answered, in order. */
async function slowLookups(page: Page, delayOf: (text: string) => number, answered: string[]): Promise<void> {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.route(`**/api/${target.resource}?**`, async (route: Route) => {
    const text = searchedFor(route.request().url());
    const response = await route.fetch();
    await new Promise((r) => setTimeout(r, delayOf(text)));
    // the browser may have aborted the call meanwhile: then there is nobody to answer
    await route.fulfill({ response }).catch(() => undefined);
    answered.push(text);
  });
}

for (const locale of LOCALES) {
  test(`the part lookup takes what was typed, whatever order the answers come in (${locale})`, async ({ page, request }) => {
    test.setTimeout(scaled(120_000));
    const tok = await token(request, 'sup01');
    const stock = (await listWhere(request, tok, target.resource, {}, 100)).map((r) => String(r[lookup.field]));
    const a = stock[0];
    const earlier = a.slice(0, 5);
    const b = stock.find((c) => !c.includes(earlier))!;
    expect(b, 'two parts of the stock that one search does not both find').toBeDefined();

    await openScreenAs(page, 'sup01', locale, edit);
    const box = page.getByTestId(`input-${field.name}`).locator('input');
    const answered: string[] = [];

    // slow answers: the options of the earlier text are on screen when the full code is typed
    await slowLookups(page, () => 1000, answered);
    await box.fill(earlier);
    await expect(page.getByRole('option', { name: a, exact: true })).toBeVisible();
    await box.fill(b);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(box).toHaveValue(b);
    await expect(page.getByRole('option', { name: a, exact: true })).toBeHidden();

    // and it is what gets saved
    await page.getByTestId('input-adjustQty').locator('input').fill('3');
    await page.getByTestId('input-reason').locator('input, textarea').first().fill(`lookup ${locale}`);
    expect((await saveNew(page, request, tok, entity.resource, locale))[field.name]).toBe(b);

    // out of order: the earlier text's answer comes last and changes nothing
    await slowLookups(page, (text) => (text === earlier ? 3000 : 200), answered);
    // past the typing pause: the earlier text's call is on its way
    const earlierAsked = page.waitForRequest((r) => r.url().includes(`/api/${target.resource}?`) && searchedFor(r.url()) === earlier);
    await box.fill(earlier);
    await earlierAsked;
    const bPrefix = b.slice(0, 6);
    await box.fill(bPrefix);
    await expect(page.getByRole('option', { name: b, exact: true })).toBeVisible();
    await expect.poll(() => answered.at(-1)).toBe(earlier);
    await expect(page.getByRole('option', { name: b, exact: true })).toBeVisible();
    await expect(page.getByRole('option', { name: a, exact: true })).toBeHidden();

    // Enter or Tab alone: a known code is kept, an unknown one is named as such
    await slowLookups(page, () => 300, answered);
    await box.fill(a);
    await page.keyboard.press('Enter');
    await expect(box).toHaveValue(a);
    await box.fill('NO-SUCH-PART-XYZ');
    await page.keyboard.press('Tab');
    await expect(box).toHaveValue('NO-SUCH-PART-XYZ');
    const input = page.getByTestId(`input-${field.name}`);
    await expect(input).toContainText(t(locale, lookup.messageKey));
    await expect(input).not.toContainText(t(locale, 'ra.validation.required'));
    await box.fill(b);
    await page.keyboard.press('Tab');
    await expect(box).toHaveValue(b);
    await expect(input).not.toContainText(t(locale, lookup.messageKey));
  });
}
