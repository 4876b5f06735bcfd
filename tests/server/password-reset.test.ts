/**
 * Self-service password reset through real HTTP routing and a real SMTP server: the link is read
 * from the mail that arrived, as a user would. The answer never tells whether an account exists;
 * requests are limited per address and per user ID; a used, expired or unknown link is refused
 * with its own code; the new password follows the change rules (the rule, the last 5); every
 * session of the account ends; a locked account (601) is unlocked; the audit trail records it.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { bearer, build, login, tokenResponse, type TestApp } from './helpers.ts';
import { tokenHash } from '../../server/auth/reset-link.ts';
import { DEMO_PASSWORD, INITIAL_PASSWORD } from '../../server/seed/base.ts';
import { metadata } from '../../server/generated/index.ts';

const PUBLIC = 'https://portal.example.com';
const LINK = /https:\/\/portal\.example\.com\/reset-password#token=([A-Za-z0-9_-]+)/;
let smtp: TestSmtpServer;
let t: TestApp;

const post = (url: string, payload: unknown, lang = 'zh-CN', app = t.app) =>
  app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: { 'accept-language': lang } });
const forgot = (userId: string, email?: string, lang?: string, app?: TestApp['app']) =>
  post('/api/auth/forgot', { userId, ...(email !== undefined ? { email } : {}) }, lang, app);
const reset = (token: string, newPassword: string, confirmPassword = newPassword, lang?: string) =>
  post('/api/auth/reset', { token, newPassword, confirmPassword }, lang);
const check = (token: string, lang?: string) => post('/api/auth/reset/check', { token }, lang);
const account = async (userId: string) =>
  (await t.app.db.get<{ id: number; status: string; failedLogins: number; sessionsValidFrom: string | null }>(
    `SELECT id, status, failed_logins AS "failedLogins", sessions_valid_from AS "sessionsValidFrom" FROM account WHERE user_id = ?`,
    [userId],
  ))!;
const resetMails = async (userId: string) =>
  Number(
    (await t.app.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM _mail_queue q JOIN account a ON a.id = q.account_id WHERE q.template = 'passwordReset' AND a.user_id = ?`,
      [userId],
    ))!.n,
  );

/** Sends what is queued and answers the token of the newest reset mail to `userId`. */
async function linkFor(userId: string): Promise<{ token: string; text: string; subject: string }> {
  await t.app.mailer.drain();
  const mails = smtp.mails.filter((m) => m.to[0] === `${userId}@example.com` && m.headers.get('x-portal-template') === 'passwordReset');
  const m = mails[mails.length - 1];
  expect(m, `a reset mail to ${userId}`).toBeTruthy();
  const hit = LINK.exec(m.text);
  expect(hit, m.text).toBeTruthy();
  return { token: hit![1], text: m.text, subject: m.subject };
}
async function requestLink(userId: string, lang?: string) {
  const r = await forgot(userId, undefined, lang);
  expect(r.statusCode).toBe(202);
  return linkFor(userId);
}
const fieldError = (r: LightMyRequestResponse) =>
  r.json() as { code: string; errors: Record<string, string>; errorArgs?: Record<string, Record<string, number>> };

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await build({ app: { mail: { smtpUrl: smtp.url }, publicUrl: PUBLIC, passwordReset: { mailsPerUserPerHour: 100, perAddressPerMinute: 1000 } } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('forgot password', () => {
  it('answers alike for a known, an unknown and a mismatched user; mails only the real one', async () => {
    const answers: LightMyRequestResponse[] = [];
    const before = smtp.mails.length;
    answers.push(await forgot('sup01'));
    answers.push(await forgot('nobody-here'));
    answers.push(await forgot('sup02', 'someone.else@example.com'));
    answers.push(await forgot('sup02', 'SUP02@example.com '));
    for (const a of answers) {
      expect(a.statusCode).toBe(202);
      expect(a.json()).toEqual({
        status: 202,
        code: 'message.resetRequested',
        message: '如果该用户ID（和邮箱）对应一个留有邮箱的账户，我们已向该邮箱发送了设置新密码的链接，30 分钟内有效。',
      });
    }
    expect((await forgot('nobody-here', undefined, 'en-US')).json().message).toMatch(
      /^If the user ID \(and e-mail\) belong to an account with an e-mail address/,
    );
    await t.app.mailer.drain();
    const sent = smtp.mails.slice(before).filter((m) => m.headers.get('x-portal-template') === 'passwordReset');
    // sup01, and sup02 with its own address (case and spaces aside); not the mismatched request
    expect(sent.map((m) => m.to[0]).sort()).toEqual(['sup01@example.com', 'sup02@example.com']);
  });

  it('sends nothing for an account without an address or a disabled one, and says the same', async () => {
    await t.app.db.run(`UPDATE account SET email = NULL WHERE user_id = 'staff01'`);
    await t.app.db.run(`UPDATE account SET status = '603' WHERE user_id = 'supadmin'`);
    try {
      const a = await forgot('staff01');
      const b = await forgot('supadmin');
      expect(a.body).toBe(b.body);
      expect(a.statusCode).toBe(202);
      expect(await resetMails('staff01')).toBe(0);
      expect(await resetMails('supadmin')).toBe(0);
    } finally {
      await t.app.db.run(`UPDATE account SET email = 'staff01@example.com' WHERE user_id = 'staff01'`);
      await t.app.db.run(`UPDATE account SET status = '0' WHERE user_id = 'supadmin'`);
    }
  });

  it('the mail is in the account language, whatever the page language', async () => {
    await t.app.db.run(`UPDATE account SET language = 'en-US' WHERE user_id = 'sup02'`);
    try {
      const r = await forgot('sup02', undefined, 'zh-CN');
      expect(r.statusCode).toBe(202);
      const m = await linkFor('sup02');
      expect(m.subject).toBe('[Supplier portal] Reset your password');
      expect(m.text).toContain('Open this link within 30 minutes');
    } finally {
      await t.app.db.run(`UPDATE account SET language = 'zh-CN' WHERE user_id = 'sup02'`);
    }
  });

  it('limits mails per user ID (same answer beyond it) and requests per address (429)', async () => {
    const limited = await build({
      same: t,
      seed: false,
      app: { mail: { smtpUrl: smtp.url }, publicUrl: PUBLIC, passwordReset: { mailsPerUserPerHour: 2, perAddressPerMinute: 4 } },
    });
    try {
      // the counters are shared by every process over the database: this test's requests start from none
      await t.app.db.run(`DELETE FROM _rate_windows WHERE key LIKE 'password-reset|%'`);
      const before = await resetMails('newuser');
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await forgot('newuser', undefined, 'zh-CN', limited.app));
      expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202]);
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect((await resetMails('newuser')) - before).toBe(2);
      // the address's fourth request this minute is still answered; the fifth is refused
      expect((await forgot('someone', undefined, 'zh-CN', limited.app)).statusCode).toBe(202);
      const refused = await forgot('someone', undefined, 'en-US', limited.app);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'error.rateLimited', message: 'Too many requests, please try again later' });
      expect((await post('/api/auth/reset/check', { token: 'x' }, 'zh-CN', limited.app)).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('refuses a malformed request', async () => {
    expect((await post('/api/auth/forgot', {})).statusCode).toBe(400);
    expect((await post('/api/auth/forgot', { userId: 'sup01', extra: 1 })).statusCode).toBe(400);
    expect((await post('/api/auth/forgot', { userId: 'x'.repeat(101) })).statusCode).toBe(400);
  });
});

describe('the field errors of the public routes', () => {
  // the page translates them (admin/src/providers/httpClient.ts): a page without a session has only the public messages
  it("are in the admin's public messages (metadata/app.json publicMessages), in both languages", async () => {
    const { token } = await requestLink('sup02');
    const answers = [
      await post('/api/auth/forgot', {}),
      await post('/api/auth/forgot', { userId: '' }),
      await post('/api/auth/forgot', { userId: 'x'.repeat(101) }),
      await post('/api/auth/forgot', { userId: 'sup02', email: 'x'.repeat(201) }),
      await post('/api/auth/forgot', { userId: 'sup02', extra: 1 }),
      await reset(token, 'short'),
      await reset(token, 'x'.repeat(30)),
      await reset(token, 'Fresh2026A', 'Fresh2026B'),
      await reset(token, DEMO_PASSWORD),
      await reset(token, '', ''),
      await post('/api/auth/reset', { token }),
      await post('/api/auth/reset/check', {}),
    ];
    const keys = new Set(answers.flatMap((r) => Object.values((r.json() as { errors?: Record<string, string> }).errors ?? {})));
    expect(keys.size).toBeGreaterThan(3);
    for (const locale of metadata.app.locales) {
      const pub = JSON.parse(readFileSync(new URL(`../../admin/src/generated/messages-public.${locale}.json`, import.meta.url), 'utf8')) as Record<
        string,
        string
      >;
      expect(
        [...keys].filter((k) => !(k in pub)),
        locale,
      ).toEqual([]);
    }
  });
});

describe('reset', () => {
  it('end to end: rules enforced, the link used once, sessions ended, the new password works', async () => {
    const session = await login(t.app, 'sup01');
    const { token } = await requestLink('sup01');
    // only the SHA-256 of the token is stored
    const stored = await t.app.db.all<{ h: string }>(`SELECT token_hash AS h FROM _password_reset_tokens`);
    expect(stored.map((r) => r.h)).toContain(tokenHash(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((await check(token)).json()).toMatchObject({ status: 200, data: { userId: 'sup01' } });

    // the rule, the confirmation, the current password: refused, and the link still works
    let r = await reset(token, 'short', 'short', 'en-US');
    expect(r.statusCode).toBe(400);
    expect(fieldError(r).errors.newPassword).toBe('rule.password');
    r = await reset(token, 'Fresh2026A', 'Fresh2026B');
    expect(fieldError(r).errors.confirmPassword).toBe('error.passwordMismatch');
    r = await reset(token, DEMO_PASSWORD);
    expect(fieldError(r)).toMatchObject({
      code: 'error.validation',
      errors: { newPassword: 'error.passwordReused' },
      errorArgs: { newPassword: { count: 5 } },
    });
    expect(fieldError(await reset(token, '', ''))).toMatchObject({ errors: { newPassword: 'validation.required' } });

    r = await reset(token, 'Fresh2026A', 'Fresh2026A', 'en-US');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ status: 200, message: 'Your new password is set. Please log in with it' });
    // every session of the account ended
    const after = await t.app.inject({ method: 'POST', url: '/supplierApi/accountInfo/info', headers: bearer(session) });
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('error.sessionExpired');
    // the old password is gone, the new one works
    expect((await tokenResponse(t.app, 'sup01')).json().code).toBe('error.loginFailed');
    expect((await tokenResponse(t.app, 'sup01', 'Fresh2026A')).statusCode).toBe(200);
    // used: refused with its own message, on check and on reset
    expect((await check(token, 'en-US')).json()).toMatchObject({
      code: 'error.resetLinkUsed',
      message: 'This link has already been used. To change the password again, please ask for a new password-reset link',
    });
    r = await reset(token, 'Other2026A');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'error.resetLinkUsed', message: '该链接已使用过。如需再次修改密码，请重新申请重置密码' });
    // the audit trail: who, what (never the password)
    const audit = await t.app.db.get<{ userId: string; operation: string; changes: string }>(
      `SELECT user_id AS "userId", operation, changes FROM audit_entry WHERE resource = 'accounts' AND record_id = ? ORDER BY id DESC LIMIT 1`,
      [(await account('sup01')).id],
    );
    expect(audit).toMatchObject({ userId: 'sup01', operation: 'passwordReset' });
    expect(JSON.parse(audit!.changes)).toEqual({ password: ['***', '***'] });
  });

  it('an expired or unknown link is refused clearly; a newer link voids the older', async () => {
    const first = await requestLink('sup02');
    const second = await requestLink('sup02');
    expect(first.token).not.toBe(second.token);
    expect((await check(first.token)).json().code).toBe('error.resetLinkUsed');
    await t.app.db.run(`UPDATE _password_reset_tokens SET expires_at = ? WHERE token_hash = ?`, [
      new Date(Date.now() - 1000).toISOString(),
      tokenHash(second.token),
    ]);
    let r = await check(second.token, 'en-US');
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ code: 'error.resetLinkExpired', message: 'This link has expired. Please ask for a new password-reset link' });
    r = await reset(second.token, 'Fresh2026C');
    expect(r.json().code).toBe('error.resetLinkExpired');
    r = await reset('A'.repeat(43), 'Fresh2026C');
    expect(r.statusCode).toBe(400);
    expect(r.json().code).toBe('error.resetLinkInvalid');
    // nothing changed: the demo password still logs in
    expect((await tokenResponse(t.app, 'sup02')).statusCode).toBe(200);
  });

  it('links last app.json password.resetLinkMinutes (30)', async () => {
    const { token } = await requestLink('sup02');
    const row = (await t.app.db.get<{ createdAt: string; expiresAt: string }>(
      `SELECT created_at AS "createdAt", expires_at AS "expiresAt" FROM _password_reset_tokens WHERE token_hash = ?`,
      [tokenHash(token)],
    ))!;
    expect(Date.parse(row.expiresAt) - Date.parse(row.createdAt)).toBe(30 * 60_000);
  });

  it('a locked account (601) is unlocked, its failure counter cleared', async () => {
    const max = metadata.app.lockout.maxFailures;
    expect(await account('locked01')).toMatchObject({ status: '601', failedLogins: max });
    expect((await tokenResponse(t.app, 'locked01')).json().code).toBe('error.userLocked');
    const { token } = await requestLink('locked01');
    expect((await reset(token, 'Unlock2026A')).statusCode).toBe(200);
    expect(await account('locked01')).toMatchObject({ status: '0', failedLogins: 0 });
    const ok = await tokenResponse(t.app, 'locked01', 'Unlock2026A');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().account_status).toBe(0);
    const audit = await t.app.db.get<{ changes: string }>(`SELECT changes FROM audit_entry WHERE operation = 'passwordReset' AND user_id = 'locked01'`);
    expect(JSON.parse(audit!.changes)).toEqual({ password: ['***', '***'], status: ['601', '0'], failedLogins: [max, 0] });
  });

  it('a lock staff set survives the reset: the new password is set, the account stays locked until staff unlock it', async () => {
    const staff = await login(t.app, 'staff01');
    const id = (await account('sup02')).id;
    const act = (action: string) => t.app.inject({ method: 'POST', url: `/api/accounts/${id}/actions/${action}`, headers: bearer(staff), payload: {} });
    expect((await act('lock')).statusCode).toBe(200);
    expect(await account('sup02')).toMatchObject({ status: '601' });
    const { token } = await requestLink('sup02');
    expect((await reset(token, 'Locked2026A')).statusCode).toBe(200);
    // the lockout's way out is not the administrator's lock's
    expect(await account('sup02')).toMatchObject({ status: '601' });
    expect((await tokenResponse(t.app, 'sup02', 'Locked2026A')).json().code).toBe('error.userLocked');
    expect((await act('unlock')).statusCode).toBe(200);
    expect((await tokenResponse(t.app, 'sup02', 'Locked2026A')).statusCode).toBe(200);
    // unlocked, the account is like any other again: a later lockout is lifted by a reset
    expect(await t.app.db.get(`SELECT locked_by_staff AS "byStaff" FROM account WHERE id = ?`, [id])).toMatchObject({ byStaff: t.app.db.dialect.bool(false) });
  });

  it('a 602 account sets its own password: normal afterwards', async () => {
    const { token } = await requestLink('newuser');
    expect((await reset(token, INITIAL_PASSWORD)).json().errors.newPassword).toBe('error.passwordReused');
    expect((await reset(token, 'Mine2026AB')).statusCode).toBe(200);
    expect((await account('newuser')).status).toBe('0');
    expect((await tokenResponse(t.app, 'newuser', 'Mine2026AB')).json().account_status).toBe(0);
  });

  it('not one of the last 5 passwords', async () => {
    // staff01: demo2026A, then four resets: demo2026A is still among the last five
    const set = async (pw: string) => {
      const { token } = await requestLink('staff01');
      return reset(token, pw);
    };
    for (const pw of ['Hist2026A1', 'Hist2026A2', 'Hist2026A3', 'Hist2026A4']) expect((await set(pw)).statusCode).toBe(200);
    for (const old of [DEMO_PASSWORD, 'Hist2026A1', 'Hist2026A4']) expect((await set(old)).json().errors?.newPassword).toBe('error.passwordReused');
    // a fifth: demo2026A drops out of the last five
    expect((await set('Hist2026A5')).statusCode).toBe(200);
    expect((await set(DEMO_PASSWORD)).statusCode).toBe(200);
    expect((await tokenResponse(t.app, 'staff01')).statusCode).toBe(200);
  });

  it('two resets with one link at once: exactly one succeeds', async () => {
    const { token } = await requestLink('supadmin');
    const answers = await Promise.all([reset(token, 'Race2026A1'), reset(token, 'Race2026A2'), reset(token, 'Race2026A3')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400]);
    for (const a of answers.filter((x) => x.statusCode === 400)) expect(a.json().code).toBe('error.resetLinkUsed');
    const won = ['Race2026A1', 'Race2026A2', 'Race2026A3'][answers.findIndex((a) => a.statusCode === 200)];
    expect((await tokenResponse(t.app, 'supadmin', won)).statusCode).toBe(200);
  });
});
