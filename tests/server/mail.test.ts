/**
 * Notification e-mails end to end, on the backend the project selects: rows queued with
 * queueMail in a transaction, sent by the mail sender over real SMTP to a real SMTP server
 * (tests/support/smtp.ts), parsed as a mail program would. Each of the five templates arrives
 * in the account's language with its content; without SMTP the mails are readable .eml files;
 * a rolled-back transaction sends nothing; failures are retried, then given up; an account
 * without an address fails clearly; the expiry reminder goes once per expiry; and two server
 * processes with their sender loops over one database deliver every mail exactly once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { queueMail, type MailRequest } from '../../server/mail/queue.ts';
import { localDate } from '../../server/mail/expiry-reminder.ts';
import type { Locale } from '../../codegen/runtime/model.ts';
import { startServeProcess, type ServeProcess } from '../support/serve-process.ts';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../support/smtp.ts';
import { TEST_SECRET, build, type TestApp } from './helpers.ts';
import { TEST_PARAMS } from '../../server/engine/passwords.ts';

const PUBLIC = 'https://portal.example.com';
const DAY = 86_400_000;
let smtp: TestSmtpServer;
let t: TestApp;
/** every log line of the app (JSON) */
const logLines: Record<string, unknown>[] = [];

const accountId = async (userId: string) => Number((await t.app.db.get<{ id: number }>(`SELECT id FROM account WHERE user_id = ?`, [userId]))!.id);
const setLanguage = (userId: string, lang: Locale) => t.app.db.run(`UPDATE account SET language = ? WHERE user_id = ?`, [lang, userId]);
const queue = (mail: MailRequest, now?: Date) => t.app.db.transaction((tx) => queueMail(tx, mail, now));
const lastMailId = async () => Number((await t.app.db.get<{ id: number }>(`SELECT MAX(id) AS id FROM _mail_queue`))!.id);
const row = async (id: number) =>
  (await t.app.db.get<{ status: string; attempts: number; vars: string; lastError: string | null; sentAt: string | null }>(
    `SELECT status, attempts, vars, last_error AS "lastError", sent_at AS "sentAt" FROM _mail_queue WHERE id = ?`,
    [id],
  ))!;
const arrived = (id: number): ReceivedMail[] => smtp.mails.filter((m) => m.headers.get('x-portal-mail-id') === String(id));

/** Queues one mail, sends what is due, and answers the mail as it arrived. */
async function sendOne(mail: MailRequest): Promise<ReceivedMail> {
  await queue(mail);
  const id = await lastMailId();
  const r = await t.app.mailer.drain();
  expect(r.sent).toBeGreaterThanOrEqual(1);
  const got = arrived(id);
  expect(got).toHaveLength(1);
  return got[0];
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await build({
    app: {
      mail: { smtpUrl: smtp.url, from: 'Supplier portal <portal@example.com>', maxAttempts: 3, retryBaseMs: 60_000 },
      publicUrl: `${PUBLIC}/`,
      logger: { level: 'info', stream: { write: (l: string) => void logLines.push(JSON.parse(l) as Record<string, unknown>) } },
    },
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
afterEach(() => {
  smtp.reject = null;
});

describe('the five templates, in the account language', () => {
  // what each mail must say, per language: the subject and lines of its text
  const cases: {
    template: MailRequest['template'];
    vars: Record<string, string | number>;
    expect: Record<Locale, { subject: string; text: (string | RegExp)[] }>;
  }[] = [
    {
      template: 'registration',
      vars: { initialPassword: 'Init2026Xy' },
      expect: {
        'zh-CN': {
          subject: '【供应商门户】您的账户已开通',
          text: [
            '张伟，您好：',
            '用户ID：sup01',
            '初始密码：Init2026Xy',
            `请登录 ${PUBLIC}/login ，首次登录时须修改初始密码。密码须为 8 到 20 位字母和数字，且至少包含一个字母和一个数字。`,
          ],
        },
        'en-US': {
          subject: '[Supplier portal] Your account has been created',
          text: [
            'Dear 张伟,',
            'User ID: sup01',
            'Initial password: Init2026Xy',
            `Log in at ${PUBLIC}/login . You must change the initial password at your first login. The password must be 8 to 20 characters of letters and digits, with at least one of each.`,
          ],
        },
      },
    },
    {
      template: 'passwordReset',
      // a portal path: the sender puts PORTAL_PUBLIC_URL before it
      vars: { resetLink: '/reset-password#token=abc', expiresInMinutes: 30 },
      expect: {
        'zh-CN': {
          subject: '【供应商门户】重置密码',
          text: [
            '我们收到了重置用户 sup01 密码的请求。请在 30 分钟内打开以下链接设置新密码，链接只能使用一次：',
            `${PUBLIC}/reset-password#token=abc`,
            '如果这不是您本人的操作，请忽略此邮件',
          ],
        },
        'en-US': {
          subject: '[Supplier portal] Reset your password',
          text: [
            'We received a request to reset the password of user sup01. Open this link within 30 minutes to set a new password; it works once:',
            `${PUBLIC}/reset-password#token=abc`,
            'an account locked after too many failed logins is unlocked as well',
          ],
        },
      },
    },
    {
      template: 'unlock',
      vars: {},
      expect: {
        'zh-CN': {
          subject: '【供应商门户】您的账户已解锁',
          text: [`管理员已解锁您的账户 sup01，您可以重新登录：${PUBLIC}/login`, `如果您忘记了密码，请在此设置新密码：${PUBLIC}/forgot-password`],
        },
        'en-US': {
          subject: '[Supplier portal] Your account has been unlocked',
          text: [`An administrator has unlocked your account sup01. You can log in again: ${PUBLIC}/login`, `set a new one here: ${PUBLIC}/forgot-password`],
        },
      },
    },
    {
      template: 'passwordExpiry',
      vars: { expiryDate: '2027-02-21', daysLeft: 7 },
      expect: {
        'zh-CN': { subject: '【供应商门户】您的密码将在 7 天后过期', text: ['您的账户 sup01 的密码将在 7 天后（2027-02-21）过期。', `请登录 ${PUBLIC}/login`] },
        'en-US': {
          subject: '[Supplier portal] Your password expires in 7 days',
          text: ['The password of your account sup01 expires in 7 days, on 2027-02-21.', `Log in at ${PUBLIC}/login`],
        },
      },
    },
    {
      template: 'lockoutNotice',
      vars: {},
      expect: {
        'zh-CN': {
          subject: '【供应商门户】您的账户因多次登录失败已被锁定',
          text: ['您的账户 sup01 因多次登录失败已被锁定。', `账户将立即解锁：${PUBLIC}/forgot-password`],
        },
        'en-US': {
          subject: '[Supplier portal] Your account has been locked after failed logins',
          text: ['Your account sup01 has been locked after too many failed logins.', `this unlocks the account at once: ${PUBLIC}/forgot-password`],
        },
      },
    },
  ];

  for (const c of cases) {
    for (const locale of ['zh-CN', 'en-US'] as const) {
      it(`${c.template} in ${locale}`, async () => {
        await setLanguage('sup01', locale);
        const m = await sendOne({ template: c.template, accountId: await accountId('sup01'), vars: c.vars });
        expect(m.to).toEqual(['sup01@example.com']);
        expect(m.from).toBe('portal@example.com');
        expect(m.subject).toBe(c.expect[locale].subject);
        for (const line of c.expect[locale].text) expect(m.text).toContain(line);
        // the other language's words are not in it
        expect(/[\u4e00-\u9fff]{4}/.test(m.text.replace('张伟', ''))).toBe(locale === 'zh-CN');
        expect(m.headers.get('x-portal-template')).toBe(c.template);
      });
    }
  }

  it('escapes placeholder values in the HTML body, not in the text', async () => {
    await setLanguage('sup02', 'en-US');
    await t.app.db.run(`UPDATE account SET name = ? WHERE user_id = 'sup02'`, ['Li <b>&"Na"']);
    try {
      const m = await sendOne({ template: 'registration', accountId: await accountId('sup02'), vars: { initialPassword: 'a<b>c1234' } });
      expect(m.text).toContain('Dear Li <b>&"Na",');
      expect(m.html).toContain('<p>Dear Li &lt;b&gt;&amp;&quot;Na&quot;,</p>');
      expect(m.html).toContain('Initial password: <b>a&lt;b&gt;c1234</b>');
      expect(m.html).toContain(`<a href="${PUBLIC}/login">`);
      expect(m.html).not.toContain('<b>&');
    } finally {
      await t.app.db.run(`UPDATE account SET name = '李娜' WHERE user_id = 'sup02'`);
    }
  });

  it('clears the values once sent, and logs one line per mail without them', async () => {
    await setLanguage('sup01', 'zh-CN');
    const before = logLines.length;
    await sendOne({ template: 'registration', accountId: await accountId('sup01'), vars: { initialPassword: 'Secret2026Q' } });
    const id = await lastMailId();
    expect(await row(id)).toMatchObject({ status: 'sent', vars: '{}', attempts: 1 });
    const lines = logLines.slice(before).filter((l) => l.event === 'mail');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ mailId: id, template: 'registration', userId: 'sup01', locale: 'zh-CN', outcome: 'sent', transport: 'smtp' });
    expect(JSON.stringify(logLines.slice(before))).not.toContain('Secret2026Q');
  });
});

describe('the queue', () => {
  it('a rolled-back transaction sends nothing', async () => {
    const id = await accountId('sup01');
    const queued = Number((await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM _mail_queue`))!.n);
    await expect(
      t.app.db.transaction(async (tx) => {
        await queueMail(tx, { template: 'unlock', accountId: id });
        throw new Error('the change fails after queueing its mail');
      }),
    ).rejects.toThrow('the change fails');
    expect(Number((await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM _mail_queue`))!.n)).toBe(queued);
    const count = smtp.mails.length;
    expect(await t.app.mailer.drain()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(smtp.mails.length).toBe(count);
  });

  it('refuses a call that does not fit the template (metadata/mail.json)', async () => {
    const id = await accountId('sup01');
    await expect(queue({ template: 'registration', accountId: id })).rejects.toThrow(/needs \{\{initialPassword\}\}/);
    await expect(queue({ template: 'unlock', accountId: id, vars: { newPassword: 'x' } })).rejects.toThrow(/declares no \{\{newPassword\}\}/);
    await expect(queue({ template: 'welcome' as never, accountId: id })).rejects.toThrow(/unknown mail template "welcome"/);
    // standard placeholders are the sender's: passed, they are ignored (not stored)
    await queue({ template: 'unlock', accountId: id, vars: { userId: 'someoneElse' } });
    expect((await row(await lastMailId())).vars).toBe('{}');
    await t.app.mailer.drain();
  });

  it('an account without an e-mail address: failed at once with the reason, logged', async () => {
    await t.app.db.run(`UPDATE account SET email = NULL WHERE user_id = 'staff01'`);
    try {
      const before = logLines.length;
      await queue({ template: 'unlock', accountId: await accountId('staff01') });
      const id = await lastMailId();
      expect(await t.app.mailer.drain()).toEqual({ sent: 0, retried: 0, failed: 1 });
      expect(await row(id)).toMatchObject({ status: 'failed', lastError: 'the account has no e-mail address', attempts: 1 });
      expect(logLines.slice(before).find((l) => l.event === 'mail')).toMatchObject({
        mailId: id,
        userId: 'staff01',
        outcome: 'failed',
        reason: 'the account has no e-mail address',
      });
    } finally {
      await t.app.db.run(`UPDATE account SET email = 'staff01@example.com' WHERE user_id = 'staff01'`);
    }
  });

  it('a 4xx answer is retried with backoff, a 5xx or the last attempt fails', async () => {
    const sup = await accountId('sup02');
    smtp.reject = () => ({ code: 451, message: 'Mailbox busy, try later' });
    const now = new Date();
    await queue({ template: 'unlock', accountId: sup }, now);
    const id = await lastMailId();
    expect(await t.app.mailer.runOnce(now)).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringContaining('Mailbox busy') });
    // not due again before the backoff (60 s, then 120 s) has passed
    expect(await t.app.mailer.runOnce(new Date(now.getTime() + 30_000))).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(await t.app.mailer.runOnce(new Date(now.getTime() + 61_000))).toEqual({ sent: 0, retried: 1, failed: 0 });
    expect(await t.app.mailer.runOnce(new Date(now.getTime() + 61_000 + 100_000))).toEqual({ sent: 0, retried: 0, failed: 0 });
    smtp.reject = null;
    expect(await t.app.mailer.runOnce(new Date(now.getTime() + 61_000 + 121_000))).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await row(id)).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(arrived(id)).toHaveLength(1);

    // maxAttempts (3) failures: given up, the values cleared
    smtp.reject = () => ({ code: 421, message: 'Service not available' });
    await queue({ template: 'registration', accountId: sup, vars: { initialPassword: 'Init2026Zz' } }, now);
    const id2 = await lastMailId();
    for (const [i, at] of [0, 61_000, 200_000].entries()) {
      expect(await t.app.mailer.runOnce(new Date(now.getTime() + at))).toEqual(i < 2 ? { sent: 0, retried: 1, failed: 0 } : { sent: 0, retried: 0, failed: 1 });
    }
    expect(await row(id2)).toMatchObject({ status: 'failed', attempts: 3, vars: '{}', lastError: expect.stringContaining('Service not available') });

    // a permanent refusal is not retried
    smtp.reject = () => ({ code: 550, message: 'No such user here' });
    await queue({ template: 'unlock', accountId: sup }, now);
    const id3 = await lastMailId();
    expect(await t.app.mailer.runOnce(now)).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect(await row(id3)).toMatchObject({ status: 'failed', attempts: 1, lastError: expect.stringContaining('No such user here') });
  });
});

describe('the password-expiry reminder', () => {
  const setChanged = (userId: string, at: Date) => t.app.db.run(`UPDATE account SET password_changed_at = ? WHERE user_id = ?`, [at.toISOString(), userId]);
  const reminders = async (userId: string) =>
    Number(
      (await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM _mail_queue WHERE template = 'passwordExpiry' AND account_id = ?`, [
        await accountId(userId),
      ]))!.n,
    );

  it('is sent once per expiry, in the account language, N days before (app.json)', async () => {
    const now = new Date();
    // every other account: changed just now (nothing due)
    await t.app.db.run(`UPDATE account SET password_changed_at = ?`, [now.toISOString()]);
    const changed = new Date(now.getTime() - (90 - 3) * DAY - 3600_000);
    await setChanged('sup02', changed);
    await setLanguage('sup02', 'en-US');
    // ten days left: too early for the reminder (7 days)
    await setChanged('supadmin', new Date(now.getTime() - 80 * DAY - 3600_000));
    expect(await t.app.mailer.scanExpiry(now)).toBe(1);
    // again, a day later, and from a second app over the same database: no second reminder (two
    // processes scanning at once: the last test of this file)
    const other = await build({ same: t, seed: false, app: { mail: { smtpUrl: smtp.url } } });
    try {
      expect(await t.app.mailer.scanExpiry(now)).toBe(0);
      expect(await other.app.mailer.scanExpiry(now)).toBe(0);
      expect(await t.app.mailer.scanExpiry(new Date(now.getTime() + DAY))).toBe(0);
    } finally {
      await other.close();
    }
    expect(await reminders('sup02')).toBe(1);
    expect(await reminders('supadmin')).toBe(0);
    await t.app.mailer.drain(now);
    const m = await smtp.waitFor((x) => x.headers.get('x-portal-template') === 'passwordExpiry' && x.to[0] === 'sup02@example.com');
    expect(m.subject).toBe('[Supplier portal] Your password expires in 3 days');
    expect(m.text).toContain(`expires in 3 days, on ${localDate(new Date(changed.getTime() + 90 * DAY))}.`);

    // a new password: its own expiry is reminded again when due
    const changedAgain = new Date(now.getTime() - (90 - 5) * DAY);
    await setChanged('sup02', changedAgain);
    expect(await t.app.mailer.scanExpiry(now)).toBe(1);
    expect(await reminders('sup02')).toBe(2);
    // expired passwords are the login's business (602), not a reminder's
    await setChanged('sup01', new Date(now.getTime() - 91 * DAY));
    expect(await t.app.mailer.scanExpiry(now)).toBe(0);
    await t.app.mailer.drain(now);
    await t.app.db.run(`UPDATE account SET password_changed_at = ?`, [now.toISOString()]);
  });
});

describe('without SMTP', () => {
  it('writes each mail as a readable .eml file beside the database and logs where', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-eml-'));
    const lines: Record<string, unknown>[] = [];
    const f = await build({
      same: t,
      seed: false,
      app: {
        mail: { dir },
        publicUrl: PUBLIC,
        logger: { level: 'info', stream: { write: (l: string) => void lines.push(JSON.parse(l) as Record<string, unknown>) } },
      },
    });
    try {
      expect(f.app.mailer.transportKind).toBe('file');
      await t.app.mailer.drain();
      await setLanguage('sup01', 'zh-CN');
      await queue({ template: 'registration', accountId: await accountId('sup01'), vars: { initialPassword: 'Init2026Eml' } });
      expect(await f.app.mailer.drain()).toMatchObject({ sent: 1 });
      const files = readdirSync(dir).filter((n) => n.endsWith('.eml'));
      expect(files).toHaveLength(1);
      expect(readdirSync(dir).filter((n) => n.endsWith('.part'))).toEqual([]);
      const file = join(dir, files[0]);
      // the initial password is in it: readable by the server's user only
      expect(statSync(file).mode & 0o077).toBe(0);
      const raw = readFileSync(file);
      expect(raw.includes('\r\n')).toBe(true);
      const m = await simpleParser(raw);
      expect(m.subject).toBe('【供应商门户】您的账户已开通');
      expect((m.to as { text: string }).text).toBe('sup01@example.com');
      expect(m.text).toContain('初始密码：Init2026Eml');
      expect(m.html).toContain('<b>Init2026Eml</b>');
      const line = lines.find((l) => l.event === 'mail');
      expect(line).toMatchObject({ outcome: 'sent', transport: 'file', file, msg: `mail written to ${file}` });
      expect(JSON.stringify(lines)).not.toContain('Init2026Eml');
    } finally {
      await f.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('several processes', () => {
  const procs: ServeProcess[] = [];
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
  });

  it('two server processes with their sender loops deliver every mail exactly once, and one expiry reminder', async () => {
    await t.app.mailer.drain();
    // a password 4 days from expiry: both processes scan at their start
    const now = new Date();
    await t.app.db.run(`UPDATE account SET password_changed_at = ?`, [now.toISOString()]);
    await t.app.db.run(`UPDATE account SET password_changed_at = ? WHERE user_id = 'staff01'`, [new Date(now.getTime() - 86 * DAY - 60_000).toISOString()]);
    const staff = await accountId('staff01');
    const common = {
      ...t.database,
      jwtSecret: TEST_SECRET,
      hashParams: TEST_PARAMS,
      migrate: false,
      publicUrl: PUBLIC,
      mail: { smtpUrl: smtp.url, loop: true, pollMs: 10, expiryScanMs: 3_600_000 },
    };
    procs.push(...(await Promise.all([startServeProcess(common), startServeProcess(common)])));
    const ids: number[] = [];
    const accounts = await Promise.all(['sup01', 'sup02', 'supadmin', 'staff01'].map(accountId));
    // queued in bursts while both loops run, so that their claims meet
    for (let burst = 0; burst < 6; burst++) {
      await t.app.db.transaction(async (tx) => {
        for (let i = 0; i < 10; i++) await queueMail(tx, { template: 'unlock', accountId: accounts[i % accounts.length] });
      });
      ids.push(...(await t.app.db.all<{ id: number }>(`SELECT id FROM _mail_queue ORDER BY id DESC LIMIT 10`)).map((r) => Number(r.id)));
    }
    // every row sent means every delivery has happened (a row is marked sent after the server accepted it)
    await expect
      .poll(
        async () =>
          Number((await t.app.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM _mail_queue WHERE status <> 'sent' AND id >= ?`, [Math.min(...ids)]))!.n),
        { timeout: 120_000, interval: 100 },
      )
      .toBe(0);
    for (const id of ids) expect(arrived(id), `mail ${id}`).toHaveLength(1);
    expect(ids).toHaveLength(60);
    const reminders = await t.app.db.all<{ id: number; status: string }>(
      `SELECT id, status FROM _mail_queue WHERE template = 'passwordExpiry' AND account_id = ?`,
      [staff],
    );
    expect(reminders).toEqual([{ id: expect.anything(), status: 'sent' }]);
    expect(arrived(Number(reminders[0].id))).toHaveLength(1);
    // generous limits: two processes start (tsx) on a loaded 2-core CI machine; nothing here is timed
  }, 240_000);
});
