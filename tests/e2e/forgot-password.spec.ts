/**
 * A supplier who forgot the password, in Chromium against the real server, in both languages:
 * "Forgot password?" on the login page -> user ID -> the mail arrives at the SMTP server serve.ts
 * runs (read from its inbox folder, as the user reads the mail) -> its link opens the page that
 * sets a new password -> a bad password first (the error in the page's language) -> a good one ->
 * back at the login page -> logged in with it. The English account is locked after failed logins
 * (601): the reset unlocks it. A used link is then refused with a clear message.
 */
import { expect, test, type Page } from '@playwright/test';
import { loginPage, logout } from './pages/shell.ts';
import { inboxNames, recipient, waitForMail } from './inbox.ts';
import { MAIL_ACCOUNTS, MAIL_ACCOUNT_PASSWORD } from './mail-fixtures.ts';

const LINK = /http:\/\/127\.0\.0\.1:\d+\/reset-password#token=[A-Za-z0-9_-]+/;

/** Asks for a link on the forgot-password page and answers the link of the mail that arrives. */
async function askForLink(page: Page, userId: string, expected: { done: string; subject: string; greeting: string }): Promise<string> {
  const seen = inboxNames();
  await page.getByTestId('forgot-userId').fill(userId);
  await page.getByTestId('forgot-submit').click();
  await expect(page.getByTestId('forgot-done')).toHaveText(expected.done);
  const mail = await waitForMail(seen, (m) => recipient(m) === `${userId}@example.com` && m.headers.get('x-portal-template') === 'passwordReset');
  expect(mail.subject).toBe(expected.subject);
  expect(mail.text).toContain(expected.greeting);
  const link = LINK.exec(mail.text ?? '')?.[0];
  expect(link, mail.text).toBeTruthy();
  // the HTML version carries the same link
  expect(mail.html || '').toContain(`href="${link}"`);
  return link!;
}

test('zh-CN: forgot password, the link from the mail, a new password, logged in', async ({ page }) => {
  const { userId } = MAIL_ACCOUNTS.zh;
  await loginPage.open(page);
  await page.getByTestId('login-forgot').click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page).toHaveTitle('忘记密码 - 供应商门户');
  // the user ID is required
  await page.getByTestId('forgot-userId').fill('');
  await page.getByTestId('forgot-submit').click();
  await expect(page.getByText('此项为必填项')).toBeVisible();

  const link = await askForLink(page, userId, {
    done: '如果该用户ID（和邮箱）对应一个留有邮箱的账户，我们已向该邮箱发送了设置新密码的链接，30 分钟内有效。',
    subject: '【供应商门户】重置密码',
    greeting: '孙丽，您好：',
  });

  await page.goto(link);
  await expect(page.getByTestId('reset-user')).toHaveText(`用户ID：${userId}`);
  await expect(page.getByTestId('reset-rules')).toContainText(
    '密码须为 8 到 20 位字母和数字，且至少包含一个字母和一个数字，且不能与最近 5 次使用过的密码相同。',
  );
  // a bad password first: the rule, checked in the page
  await page.getByTestId('reset-newPassword').fill('short');
  await page.getByTestId('reset-confirmPassword').fill('short');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByText('密码须为 8 到 20 位字母和数字，且至少包含一个字母和一个数字').last()).toBeVisible();
  // the current password: refused by the server (the last 5), shown at the field
  await page.getByTestId('reset-newPassword').fill(MAIL_ACCOUNT_PASSWORD);
  await page.getByTestId('reset-confirmPassword').fill(MAIL_ACCOUNT_PASSWORD);
  await page.getByTestId('reset-submit').click();
  await expect(page.getByText('新密码不能与最近 5 次使用过的密码相同')).toBeVisible();
  // a good one: back to the login page with the message
  await page.getByTestId('reset-newPassword').fill('Reset2026Zh');
  await page.getByTestId('reset-confirmPassword').fill('Reset2026Zh');
  await page.getByTestId('reset-submit').click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('新密码已设置，请用新密码登录')).toBeVisible();

  // the old password no longer works, the new one does
  await loginPage.submit(page, userId, { password: MAIL_ACCOUNT_PASSWORD });
  await expect(page.getByText('用户ID或密码错误')).toBeVisible();
  await loginPage.submit(page, userId, { password: 'Reset2026Zh' });
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('user-name')).toHaveText('孙丽');
  await logout(page);

  // the link again: used, said so, with the way to a new one
  await page.goto(link);
  await expect(page.getByTestId('reset-link-error')).toHaveText('该链接已使用过。如需再次修改密码，请重新申请重置密码');
  await page.getByTestId('reset-request-new').click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test('en-US: a locked account is unlocked by setting a new password from the mail', async ({ page }) => {
  const { userId } = MAIL_ACCOUNTS.en;
  await loginPage.open(page);
  await loginPage.chooseLanguage(page, 'en-US');
  // locked after failed logins: the right password is refused
  await loginPage.submit(page, userId, { password: MAIL_ACCOUNT_PASSWORD });
  await expect(page.getByText('The user is locked out, please contact administrator!')).toBeVisible();

  await page.getByTestId('login-forgot').click();
  await expect(page).toHaveTitle('Forgot password - Supplier Portal');
  await expect(page.getByTestId('forgot-form')).toContainText("We will send a link to set a new password to the account's e-mail address.");
  // an address that is not an address: said in the page
  await page.getByTestId('forgot-email').fill('not-an-address');
  await page.getByTestId('forgot-userId').fill(userId);
  await page.getByTestId('forgot-submit').click();
  await expect(page.getByText('Please enter a valid e-mail address')).toBeVisible();
  await page.getByTestId('forgot-email').fill(`${userId}@example.com`);

  const link = await askForLink(page, userId, {
    done: 'If the user ID (and e-mail) belong to an account with an e-mail address, we have sent it a link to set a new password. The link is valid for 30 minutes.',
    // the account's language is English
    subject: '[Supplier portal] Reset your password',
    greeting: 'Dear Emma Stone,',
  });

  await page.goto(link);
  await expect(page).toHaveTitle('Set a new password - Supplier Portal');
  await expect(page.getByTestId('reset-user')).toHaveText(`User ID: ${userId}`);
  // bad first: letters only, and the two differ
  await page.getByTestId('reset-newPassword').fill('lettersonly');
  await page.getByTestId('reset-confirmPassword').fill('lettersonlx');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByText('The password must be 8 to 20 characters of letters and digits, with at least one of each').last()).toBeVisible();
  await expect(page.getByText('The new password and the confirm password do not match')).toBeVisible();
  await page.getByTestId('reset-newPassword').fill('Reset2026En');
  await page.getByTestId('reset-confirmPassword').fill('Reset2026En');
  await page.getByTestId('reset-submit').click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your new password is set. Please log in with it')).toBeVisible();

  // unlocked: the new password logs in
  await loginPage.submit(page, userId, { password: 'Reset2026En' });
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('user-name')).toHaveText('Emma Stone');
});

test('a link without a token, or with a forged one, is refused', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByTestId('reset-link-error')).toHaveText('该链接无效。请重新申请重置密码');
  await page.goto('/reset-password#token=forged-token-0123456789');
  await expect(page.getByTestId('reset-link-error')).toHaveText('该链接无效。请重新申请重置密码');
});
