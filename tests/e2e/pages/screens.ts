/**
 * Page helpers for the generated screens (list, edit, show, dashboard), so the specs read as user
 * steps. Selectors are the data-testid attributes admin/src/screens renders; expected texts come
 * from the generated message bundles, so the tests follow the metadata.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import type { CompiledMetadata, CompiledScreen, Locale } from '../../../codegen/runtime/model.ts';
import { screenTitleKey } from '../../../codegen/runtime/screen-title.ts';
import { KEYS } from '../../../admin/src/providers/storage.ts';
import { login, loginPage, signIn } from './shell.ts';

export const metadata = JSON.parse(readFileSync(resolve('admin/src/generated/metadata.json'), 'utf8')) as CompiledMetadata;
const bundles: Partial<Record<Locale, Record<string, string>>> = {};

/** The translation of a key, placeholders filled (polyglot's %{name}). */
export function t(locale: Locale, key: string, args: Record<string, string | number> = {}): string {
  bundles[locale] ??= JSON.parse(readFileSync(resolve(`admin/src/generated/messages.${locale}.json`), 'utf8')) as Record<string, string>;
  const text = bundles[locale]![key] ?? key;
  return text.replace(/%\{(\w+)\}/g, (_, k: string) => String(args[k] ?? ''));
}

export const screenNamed = (name: string): CompiledScreen => {
  const s = metadata.screens.find((x) => x.name === name);
  if (!s) throw new Error(`no screen ${name}`);
  return s;
};

/** Signs in (shell.ts signIn: without the login page) in the language and opens the dashboard. */
export async function loginIn(page: Page, user: string, locale: Locale): Promise<void> {
  await signIn(page, user, { locale });
  await page.goto('/dashboard');
  await expect(page.getByTestId('layout')).toBeVisible();
}

/** Logs in through the login page with its language choice, then waits for the dashboard. */
export async function loginInThroughPage(page: Page, user: string, locale: Locale): Promise<void> {
  await loginPage.open(page);
  await loginPage.chooseLanguage(page, locale);
  await loginPage.submit(page, user);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('layout')).toBeVisible();
}
export { login };

export const screen = {
  root: (page: Page, name: string): Locator => page.getByTestId(`screen-${name}`),
  title: (page: Page): Locator => page.getByTestId('screen-title'),
  table: (page: Page): Locator => page.getByTestId('lean-table').first(),
  header: (page: Page, field: string): Locator => page.getByTestId('lean-table').first().getByTestId(`lean-th-${field}`),
  rows: (page: Page): Locator => page.getByTestId('lean-table').first().getByTestId('lean-row'),
  /** all rows of the page (the table is windowed: only the rows in view are in the DOM) */
  rowCount: async (page: Page): Promise<number> => Number((await page.getByTestId('lean-table').first().getAttribute('data-row-count')) ?? 0),
  row: (page: Page, id: string | number): Locator => page.getByTestId('lean-table').first().locator(`[data-testid="lean-row"][data-id="${id}"]`),
  button: (page: Page, name: string): Locator => page.getByTestId(`btn-${name}`),
  filter: (page: Page, key: string): Locator => page.getByTestId(`filter-${key}`),
  dialog: (page: Page, action: string): Locator => page.getByTestId(`action-dialog-${action}`),
};

/** The texts of the notifications and open dialogs on the page now: what a failed wait reports. */
export async function pageMessages(page: Page): Promise<string> {
  const texts = async (selector: string) =>
    (
      await page
        .locator(selector)
        .allInnerTexts()
        .catch(() => [])
    ).map((t) => t.replace(/\s+/g, ' ').trim());
  return JSON.stringify({ notifications: await texts('.MuiSnackbar-root'), dialogs: await texts('[role="dialog"]') });
}

/**
 * Expects react-admin's notification with this text, then closes it (the next one queues behind it).
 * When it does not come, the failure says which notifications and dialogs the page shows instead
 * (an error answer from the server, a validation message), not only that this one is missing.
 */
export async function expectNotification(page: Page, text: string): Promise<void> {
  const note = page.locator('.MuiSnackbar-root').filter({ hasText: text });
  await expect(note)
    .toBeVisible()
    .catch(async (e: Error) => {
      throw new Error(`expected the notification "${text}"; the page shows ${await pageMessages(page)}\n${e.message}`);
    });
  await note.getByTestId('notification-close').click();
  await expect(note).toBeHidden();
}

/** Opens a screen by its path and waits for its heading (the title for the logged-in account's profile). */
export async function openScreen(page: Page, s: CompiledScreen, locale: Locale, search = ''): Promise<void> {
  await page.goto(`${s.path}${search}`);
  await expect(screen.root(page, s.name)).toBeVisible();
  await expect(screen.title(page)).toHaveText(t(locale, screenTitleKey(s, await profileOf(page, s))));
}

/** Client-side navigation (the router follows the history), as a link inside the app does. */
export async function goInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/**
 * Opens the screen inside the running app, as an in-app link does (the router follows the history),
 * or by loading its address when no app runs in the page yet: for tests that visit many screens
 * for what they draw, where a page load per screen would only cost time (issue 34).
 */
export async function navigateToScreen(page: Page, s: CompiledScreen, locale: Locale): Promise<void> {
  if (!(await page.getByTestId('layout').isVisible())) return openScreen(page, s, locale);
  await goInApp(page, s.path);
  await expect(screen.root(page, s.name)).toBeVisible();
  await expect(screen.title(page)).toHaveText(t(locale, screenTitleKey(s, await profileOf(page, s))));
}

/** The signed-in account's profile, when the screen's title depends on it (titleKeyFor). */
const profileOf = (page: Page, s: CompiledScreen): Promise<string | undefined> =>
  s.titleKeyFor
    ? page.evaluate((key) => (JSON.parse(localStorage.getItem(key) ?? 'null') as { profile?: string } | null)?.profile, KEYS.user)
    : Promise.resolve(undefined);

/** Signs in (shell.ts signIn) and opens the screen as the session's first page: no home in between. */
export async function openScreenAs(page: Page, user: string, locale: Locale, s: CompiledScreen, search = ''): Promise<void> {
  await signIn(page, user, { locale });
  await openScreen(page, s, locale, search);
}

/** Chooses a file in the browser's file picker opened by `button`. */
export async function chooseFile(page: Page, button: Locator, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(file);
}

/** A tiny but real PDF (the server checks the content's magic bytes). */
export const samplePdf = (name = 'notice-attachment.pdf') => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
});

/** Confirms react-admin's <Confirm> dialog (its confirm button is the last one). */
export async function confirmDialog(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog').last();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button').last().click();
  await expect(dialog).toBeHidden();
}
