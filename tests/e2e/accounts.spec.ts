/**
 * Account administration in a real browser, in both languages: internal staff open it from the
 * menu, create an account (a taken user ID and a bad e-mail first, refused in the UI language),
 * find it, lock and unlock it. The registration e-mail arrives (serve.ts's SMTP server) in the
 * account's language with an initial password that logs in as 602; the unlock e-mail follows; the
 * database behind shows the states, the mails and the audit trail. The supplier administrator has
 * no such screen.
 */
import { expect, test, type Page } from '@playwright/test';
import type { Locale } from '../../codegen/runtime/model.ts';
import type { Db } from '../../server/db/types.ts';
import { logout, menuPaths, openViaMenu } from './pages/shell.ts';
import { confirmDialog, expectNotification, loginIn, screen, screenNamed, t } from './pages/screens.ts';
import { metadata as serverMetadata } from '../../server/generated/index.ts';
import { openE2eDatabase } from './pages/database.ts';
import { inboxNames, recipient, waitForMail } from './inbox.ts';
import { passLocales } from './passes.ts';

const accountList = screenNamed('accountList');

let db: Db;
test.beforeAll(async () => {
  db = await openE2eDatabase();
});
test.afterAll(async () => {
  await db.close();
});

const accountRow = (userId: string) =>
  db.get<{ id: number; status: string; email: string }>(`SELECT id, status, email FROM account WHERE user_id = ?`, [userId]);
const queued = async (accountId: number) =>
  (await db.all<{ template: string }>(`SELECT template FROM _mail_queue WHERE account_id = ? ORDER BY id`, [accountId])).map((m) => m.template);
/** the subject of a mail template in a language (metadata/mail.json, as the sender renders it) */
const subject = (template: 'registration' | 'unlock', locale: Locale) => serverMetadata.mail[template].content[locale].subject;

const mailCount = async () => Number((await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM _mail_queue`))!.n);

/** Chooses a value of a select input of the dialog by its translated label. */
async function choose(page: Page, field: string, label: string): Promise<void> {
  await page.getByTestId(`input-${field}`).getByRole('combobox').click();
  await page.getByRole('option', { name: label, exact: true }).click();
  await expect(page.getByRole('listbox')).toBeHidden();
}
const fill = (page: Page, field: string, value: string) => page.getByTestId(`input-${field}`).locator('input').fill(value);

for (const locale of passLocales(0)) {
  test(`internal staff create an account, lock and unlock it (${locale})`, async ({ page }) => {
    const userId = `e2e-${locale === 'zh-CN' ? 'zh' : 'en'}-${Date.now() % 1_000_000}`;
    const mailsBefore = await mailCount();
    const seen = inboxNames();
    await loginIn(page, 'staff01', locale);
    await openViaMenu(page, accountList.path);
    await expect(screen.title(page)).toHaveText(t(locale, accountList.titleKey));
    await expect(screen.rows(page).first()).toBeVisible();

    // a new account: first a bad e-mail (the browser checks it with the server's rule) ...
    await screen.button(page, 'register').click();
    const dialog = screen.dialog(page, 'register');
    await expect(dialog).toBeVisible();
    await fill(page, 'userId', 'sup01');
    await fill(page, 'name', 'E2E 用户');
    await choose(page, 'accountType', t(locale, 'code.accountType.3'));
    await fill(page, 'departmentId', 'S002');
    await fill(page, 'email', 'not-an-address');
    await dialog.getByTestId('action-submit').click();
    await expect(dialog.getByTestId('input-email')).toContainText(t(locale, 'rule.email'));
    // ... then a user ID that is taken: the server refuses it, in the UI language, on the field
    await fill(page, 'email', `${userId}@example.com`);
    await dialog.getByTestId('action-submit').click();
    await expect(dialog.getByTestId('input-userId')).toContainText(t(locale, 'validation.unique'));
    await expectNotification(page, t(locale, 'error.duplicate'));
    // refused calls leave nothing behind: no account, no e-mail
    expect(await mailCount()).toBe(mailsBefore);
    // the right one
    await fill(page, 'userId', userId);
    await choose(page, 'language', t(locale, locale === 'zh-CN' ? 'code.language.zh-CN' : 'code.language.en-US'));
    await dialog.getByTestId('action-submit').click();
    await expectNotification(page, t(locale, 'message.accountRegistered'));
    await expect(dialog).toBeHidden();

    // in the database: must change its password; the registration e-mail goes out
    const acc = (await accountRow(userId))!;
    expect(acc).toMatchObject({ status: '602', email: `${userId}@example.com` });
    expect(await queued(acc.id)).toEqual(['registration']);
    // it arrives in the account's language with the user ID and an initial password of the spec's rule
    const mail = await waitForMail(seen, (m) => recipient(m).includes(`${userId}@example.com`));
    expect(mail.subject).toBe(subject('registration', locale));
    expect(mail.text).toContain(userId);
    const password = /(?:初始密码：|Initial password: )([A-Za-z0-9]+)/.exec(mail.text ?? '')?.[1] ?? '';
    expect(password).toMatch(/^(?=.*[A-Za-z])(?=.*[0-9])[A-Za-z0-9]{8,20}$/);
    // it never reached the page, and it logs in: as 602, to be changed first
    await expect(page.locator('body')).not.toContainText(password);
    const first = await page.request.post('/connect/token', { form: { grant_type: 'password', username: userId, password, warehouse: 'PDC01' } });
    expect(((await first.json()) as { account_status: number }).account_status).toBe(602);

    // found by its user ID
    await screen.filter(page, 'userId_like').fill(userId);
    await screen.button(page, 'search').click();
    const row = screen.row(page, acc.id);
    await expect(row).toContainText(t(locale, 'code.accountStatus.602'));
    await expect(screen.rows(page)).toHaveCount(1);

    // lock ...
    await row.getByTestId('lean-row-action-lock').click();
    await confirmDialog(page);
    await expect(row).toContainText(t(locale, 'code.accountStatus.601'));
    expect((await accountRow(userId))!.status).toBe('601');
    // ... and unlock: back to "must change the password" (its holder never chose one), with the unlock e-mail
    await row.getByTestId('lean-row-action-unlock').click();
    await confirmDialog(page);
    await expect(row).toContainText(t(locale, 'code.accountStatus.602'));
    expect((await accountRow(userId))!.status).toBe('602');
    expect(await queued(acc.id)).toEqual(['registration', 'unlock']);
    const unlocked = await waitForMail(seen, (m) => recipient(m).includes(`${userId}@example.com`) && m.subject === subject('unlock', locale));
    expect(unlocked.text).toContain(userId);
    // both in the audit trail, by staff01
    const trail = await db.all<{ operation: string; userId: string }>(
      `SELECT operation, user_id AS "userId" FROM audit_entry WHERE resource = 'accounts' AND record_id = ? ORDER BY id`,
      [acc.id],
    );
    expect(trail).toEqual([
      { operation: 'create', userId: 'staff01' },
      { operation: 'action:lock', userId: 'staff01' },
      { operation: 'action:unlock', userId: 'staff01' },
    ]);
  });
}

test('suppliers and the supplier administrator have no account administration', async ({ page }) => {
  for (const user of ['sup01', 'supadmin']) {
    await loginIn(page, user, 'en-US');
    expect(await menuPaths(page)).not.toContain(accountList.path);
    await page.goto(accountList.path);
    await expect(page).toHaveURL(/\/401$/);
    await page.goto('/dashboard');
    await logout(page);
  }
});
