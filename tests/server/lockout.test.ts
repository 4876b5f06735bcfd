/**
 * Failed logins (server/auth/lockout.ts, README Security): a few attempts at once, then growing
 * delays per user ID, the lock only after maxFailures failures that each waited their turn, the
 * holder told once per lock, and an unknown user ID answering exactly like an existing one. The
 * clock (Date only) is set by the test: the delays of an hour pass in no time, and every wait
 * below is a value of that clock, never a measured duration.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { build, code, tokenResponse, type TestApp } from './helpers.ts';
import { metadata } from '../../server/generated/index.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { hashPassword, TEST_PARAMS } from '../../server/engine/passwords.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';
import { delayAfter } from '../../server/auth/lockout.ts';

const policy = metadata.app.lockout;
let t: TestApp;

beforeAll(async () => {
  t = await build();
  // only Date is faked: the database, the hashing and the timers run as ever
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 60_000);
});
afterAll(async () => {
  vi.useRealTimers();
  await t.close();
});

const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);

let accounts = 0;
/** A fresh supplier account with the demo password (one per test: counts never mix). */
async function newAccount(): Promise<string> {
  const userId = `lock-${++accounts}`;
  const hash = await hashPassword(DEMO_PASSWORD, TEST_PARAMS);
  await RowWriter.write(t.app.db, metadata, (w) =>
    w.insert('account', {
      userId,
      name: userId,
      accountType: code('accountType', 'supplier'),
      departmentId: 'S001',
      status: code('accountStatus', 'normal'),
      failedLogins: 0,
      passwordHash: hash,
      passwordChangedAt: w.now,
      email: `${userId}@example.com`,
    }),
  );
  return userId;
}

/** One login attempt as the caller sees it: status, code, message and Retry-After. */
async function attempt(user: string, password = 'wrongPass1'): Promise<string> {
  const r = await tokenResponse(t.app, user, password, 'PDC01', 'en-US');
  const b = r.json() as { code?: string; message?: string; access_token?: string };
  return `${r.statusCode} ${b.access_token ? 'ok' : b.code} ${b.message ?? ''} ${r.headers['retry-after'] ?? '-'}`.trim();
}
const FAILED = '400 error.loginFailed Wrong user ID or password -';
const wait = (seconds: number) => `429 error.loginThrottled Too many failed attempts: please try again in ${seconds} seconds ${seconds}`;

const accountRow = (user: string) =>
  t.app.db.get<{ id: number; status: string; failedLogins: number }>(`SELECT id, status, failed_logins AS "failedLogins" FROM account WHERE user_id = ?`, [
    user,
  ]);
const mails = (accountId: number, template: string) =>
  t.app.db.all<{ vars: string }>(`SELECT vars FROM _mail_queue WHERE account_id = ? AND template = ? ORDER BY id`, [accountId, template]);

describe('the policy', () => {
  it('is in the metadata: a few free attempts, doubling delays up to a cap, the lock only after about an hour of waiting', () => {
    expect(policy).toEqual({ maxFailures: 10, freeAttempts: 3, delaySeconds: 30, maxDelaySeconds: 1800, resetAfterSeconds: 86_400 });
    const waits = Array.from({ length: policy.maxFailures - 1 }, (_, i) => delayAfter(policy, i + 1) / 1000);
    expect(waits).toEqual([0, 0, 30, 60, 120, 240, 480, 960, 1800]);
    // what a third party must wait, in all, before the failure that locks
    expect(waits.reduce((a, b) => a + b, 0)).toBe(3690);
  });
});

describe('failed logins', () => {
  it('three attempts at once, then the user ID waits 30 s, 60 s, 120 s ...; an attempt while it waits is refused uncounted', async () => {
    const user = await newAccount();
    for (let i = 0; i < 3; i++) expect(await attempt(user)).toBe(FAILED);
    expect(await attempt(user)).toBe(wait(30));
    // even the right password waits: it is not checked at all
    expect(await attempt(user, DEMO_PASSWORD)).toBe(wait(30));
    advance(29);
    expect(await attempt(user)).toBe(wait(1));
    expect((await accountRow(user))!.failedLogins).toBe(3);
    advance(1);
    expect(await attempt(user)).toBe(FAILED);
    expect(await attempt(user)).toBe(wait(60));
    advance(60);
    expect(await attempt(user)).toBe(FAILED);
    expect(await attempt(user)).toBe(wait(120));
    expect((await accountRow(user))!).toMatchObject({ failedLogins: 5, status: code('accountStatus', 'normal') });
  });

  it('the right password completes the login and the count starts again', async () => {
    const user = await newAccount();
    for (let i = 0; i < 2; i++) expect(await attempt(user)).toBe(FAILED);
    expect(await attempt(user, DEMO_PASSWORD)).toMatch(/^200 ok/);
    expect((await accountRow(user))!.failedLogins).toBe(0);
    for (let i = 0; i < 3; i++) expect(await attempt(user)).toBe(FAILED);
    expect(await attempt(user)).toBe(wait(30));
  });

  it('parallel attempts cannot pass the delay: of a burst of 20 only the free three are checked', async () => {
    const user = await newAccount();
    const answers = await Promise.all(Array.from({ length: 20 }, () => attempt(user)));
    const tally = answers.reduce<Record<string, number>>((m, a) => ({ ...m, [a]: (m[a] ?? 0) + 1 }), {});
    expect(tally).toEqual({ [FAILED]: 3, [wait(30)]: 17 });
    expect((await accountRow(user))!).toMatchObject({ failedLogins: 3, status: code('accountStatus', 'normal') });
  });

  it('a failure a day after the last one starts the count again', async () => {
    const user = await newAccount();
    for (let i = 0; i < 3; i++) expect(await attempt(user)).toBe(FAILED);
    advance(policy.resetAfterSeconds);
    expect(await attempt(user)).toBe(FAILED);
    expect((await accountRow(user))!.failedLogins).toBe(1);
    expect(await attempt(user)).toBe(FAILED);
  });

  it('locks at the tenth failure, after about an hour of delays; tells the holder once; only the right password then says locked', async () => {
    const user = await newAccount();
    const { id } = (await accountRow(user))!;
    const started = Date.now();
    let waited = 0;
    for (let n = 1; n <= policy.maxFailures; n++) {
      expect(await attempt(user), `failure ${n}`).toBe(FAILED);
      const d = delayAfter(policy, n) / 1000;
      if (d && n < policy.maxFailures) {
        expect(await attempt(user)).toBe(wait(d));
        advance(d);
        waited += d;
      }
      expect((await accountRow(user))!.status).toBe(code('accountStatus', n < policy.maxFailures ? 'normal' : 'locked'));
    }
    expect(waited).toBe(3690);
    expect((Date.now() - started) / 1000).toBe(3690);
    expect((await accountRow(user))!.failedLogins).toBe(10);
    expect((await mails(id, 'lockoutNotice')).map((m) => JSON.parse(m.vars))).toEqual([{}]);
    // the lock is in the audit trail, done by nobody
    const audit = await t.app.db.get<{ userId: string | null; changes: string }>(
      `SELECT user_id AS "userId", changes FROM audit_entry WHERE resource = 'accounts' AND record_id = ? AND operation = 'lockout'`,
      [id],
    );
    expect(audit).toEqual({ userId: null, changes: JSON.stringify({ status: ['0', '601'], failedLogins: [null, 10] }) });
    // further failures (after their wait) answer as ever and tell the holder nothing more
    advance(policy.maxDelaySeconds);
    expect(await attempt(user)).toBe(FAILED);
    advance(policy.maxDelaySeconds);
    expect(await attempt(user, DEMO_PASSWORD)).toBe('400 error.userLocked The user is locked out, please contact administrator! -');
    expect(await mails(id, 'lockoutNotice')).toHaveLength(1);
    expect((await accountRow(user))!.status).toBe(code('accountStatus', 'locked'));
  });

  it('an unknown user ID answers exactly like an existing one: the same codes, waits and seconds, through the lock and after it', async () => {
    const user = await newAccount();
    const script = async (id: string): Promise<string[]> => {
      const out: string[] = [];
      const start = Date.now();
      for (let i = 0; i < 11; i++) {
        out.push(await attempt(id));
        out.push(await attempt(id));
        advance(i < 6 ? 40 * 2 ** i : policy.maxDelaySeconds);
      }
      // both scripts run on the same clock: the second starts where the first ended
      vi.setSystemTime(start + 10 * 86_400_000);
      return out;
    };
    const known = await script(user);
    const unknown = await script('nobody-here');
    expect(unknown).toEqual(known);
    // the existing account was locked on the way; the answers did not tell
    expect((await accountRow(user))!.status).toBe(code('accountStatus', 'locked'));
    expect(known.filter((a) => a.startsWith('400'))).toHaveLength(12);
    expect(new Set(known.filter((a) => a.startsWith('400')))).toEqual(new Set([FAILED]));
  });
});
