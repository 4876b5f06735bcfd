/**
 * Account administration by internal staff (metadata/entities/account.json, server/handlers/
 * accounts.ts): who may do it, create with a random initial password and the registration e-mail,
 * edit contact data, lock, unlock, reset the password, disable, enable, end sessions; every change
 * in the audit trail, every e-mail queued in the change's own transaction (nothing queued when it
 * fails), the initial password never in an answer or the audit trail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, build, code, listUrl, login, tokenResponse, type TestApp } from './helpers.ts';
import { metadata } from '../../server/generated/index.ts';
import { verifyPassword } from '../../server/engine/passwords.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';

let t: TestApp;
let staff: string;
let sup: string;
let supAdmin: string;

beforeAll(async () => {
  t = await build();
  staff = await login(t.app, 'staff01');
  sup = await login(t.app, 'sup01');
  supAdmin = await login(t.app, 'supadmin');
});
afterAll(() => t.close());

const NORMAL = code('accountStatus', 'normal');
const LOCKED = code('accountStatus', 'locked');
const MUST_CHANGE = code('accountStatus', 'mustChangePassword');
const DISABLED = code('accountStatus', 'disabled');

const post = (url: string, token: string, payload: object = {}, lang = 'en-US') =>
  t.app.inject({ method: 'POST', url, headers: { ...bearer(token), 'accept-language': lang }, payload });
const register = (payload: object, token = staff, lang = 'en-US') => post('/api/accounts/actions/register', token, payload, lang);
const act = (id: number, action: string, token = staff) => post(`/api/accounts/${id}/actions/${action}`, token);
const idOf = async (userId: string) => Number((await t.app.db.get<{ id: number }>(`SELECT id FROM account WHERE user_id = ?`, [userId]))!.id);
const row = (userId: string) =>
  t.app.db.get<{
    id: number;
    status: string;
    failedLogins: number;
    hash: string;
    changedAt: string | null;
    validFrom: string | null;
    language: string;
    email: string;
  }>(
    `SELECT id, status, failed_logins AS "failedLogins", password_hash AS "hash", password_changed_at AS "changedAt", sessions_valid_from AS "validFrom", language, email FROM account WHERE user_id = ?`,
    [userId],
  );
const mails = (accountId: number) =>
  t.app.db
    .all<{ template: string; vars: string; status: string }>(`SELECT template, vars, status FROM _mail_queue WHERE account_id = ? ORDER BY id`, [accountId])
    .then((rs) => rs.map((m) => ({ template: m.template, vars: JSON.parse(m.vars) as Record<string, unknown>, status: m.status })));
const audits = (accountId: number) =>
  t.app.db.all<{ userId: string; operation: string; changes: string }>(
    `SELECT user_id AS "userId", operation, changes FROM audit_entry WHERE resource = 'accounts' AND record_id = ? ORDER BY id`,
    [accountId],
  );
const count = async (sql: string, params: unknown[] = []) => Number((await t.app.db.get<{ n: number }>(sql, params))!.n);
/** the tokens carry whole seconds: an end of sessions must come after their issue time */
const nextSecond = () => new Promise((r) => setTimeout(r, 1100));

let seq = 0;
const newUser = (over: Record<string, unknown> = {}) => ({
  userId: `acc${++seq}`,
  name: `Test user ${seq}`,
  accountType: code('accountType', 'supplier'),
  departmentId: 'S002',
  departmentName: '南方精密配件有限公司',
  email: `acc${seq}@example.com`,
  language: 'en-US',
  ...over,
});
/** creates an account as staff, answers its user ID and the initial password the e-mail carries */
async function created(over: Record<string, unknown> = {}): Promise<{ userId: string; id: number; password: string }> {
  const body = newUser(over);
  const r = await register(body);
  expect(r.statusCode, r.body).toBe(200);
  const id = await idOf(body.userId);
  const mail = (await mails(id)).find((m) => m.template === 'registration')!;
  return { userId: body.userId, id, password: String(mail.vars.initialPassword) };
}

describe('who administers accounts', () => {
  it('internal staff only: suppliers and the supplier administrator (notice management only) get 403 for every call', async () => {
    const id = await idOf('sup02');
    expect((await t.app.inject({ method: 'GET', url: listUrl('accounts'), headers: bearer(staff) })).statusCode).toBe(200);
    for (const token of [sup, supAdmin]) {
      expect((await t.app.inject({ method: 'GET', url: listUrl('accounts'), headers: bearer(token) })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: `/api/accounts/${id}`, headers: bearer(token) })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'PUT', url: `/api/accounts/${id}`, headers: bearer(token), payload: { name: 'x', version: 1 } })).statusCode).toBe(
        403,
      );
      expect((await register(newUser(), token)).statusCode).toBe(403);
      for (const a of ['lock', 'unlock', 'resetPassword', 'disable', 'enable', 'endSessions', 'resetTotp'])
        expect((await act(id, a, token)).statusCode, a).toBe(403);
    }
    // and the generic create stays closed: an account is only made by the register action (password, e-mail)
    expect((await post('/api/accounts', staff, newUser())).statusCode).toBe(403);
    expect(await count(`SELECT COUNT(*) AS n FROM _mail_queue`)).toBe(0);
  });
});

describe('list and search', () => {
  it('by user ID, name, type, supplier, status and last login, sortable by last login', async () => {
    const get = async (q: Parameters<typeof listUrl>[1]) => {
      const r = await t.app.inject({ method: 'GET', url: listUrl('accounts', q), headers: bearer(staff) });
      expect(r.statusCode, r.body).toBe(200);
      return r.json() as { userId: string; passwordHash?: string }[];
    };
    expect((await get({ filter: { userId_like: 'sup0' } })).map((a) => a.userId)).toEqual(['sup01', 'sup02']);
    expect((await get({ filter: { accountType: code('accountType', 'supplierAdmin') } })).map((a) => a.userId)).toEqual(['supadmin']);
    expect((await get({ filter: { departmentId: 'S002', status: LOCKED } })).map((a) => a.userId)).toEqual(['locked01']);
    expect((await get({ filter: { name_like: '刘' } })).map((a) => a.userId)).toEqual(['staff01']);
    // staff01, sup01 and supadmin have logged in (beforeAll); the others never
    const since = new Date(Date.now() - 3_600_000).toISOString();
    expect((await get({ filter: { lastLoginAt_gte: since }, sort: ['userId', 'ASC'] })).map((a) => a.userId)).toEqual(['staff01', 'sup01', 'supadmin']);
    const all = await get({ sort: ['lastLoginAt', 'DESC'], range: [0, 499] });
    expect(all.length).toBeGreaterThanOrEqual(6);
    for (const a of all) expect(a.passwordHash).toBeUndefined();
  });
});

describe('create (register)', () => {
  it('makes a 602 account with a random initial password that only the registration e-mail carries', async () => {
    const body = newUser({ userId: 'newSupplier1', language: 'zh-CN' });
    const r = await register(body);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().message).toBe('The account has been created; its initial password has been sent by e-mail');
    const acc = (await row('newSupplier1'))!;
    expect(acc).toMatchObject({ status: MUST_CHANGE, failedLogins: 0, changedAt: null, language: 'zh-CN', email: body.email });
    const queued = await mails(acc.id);
    expect(queued).toHaveLength(1);
    // the user ID and name are read from the account when the mail is sent (metadata/mail.json)
    expect(queued[0]).toMatchObject({ template: 'registration', status: 'pending' });
    expect(Object.keys(queued[0].vars)).toEqual(['initialPassword']);
    const password = String(queued[0].vars.initialPassword);
    // the spec's rule: 8-20 letters and digits with at least one of each
    expect(password).toMatch(/^(?=.*[A-Za-z])(?=.*[0-9])[A-Za-z0-9]{8,20}$/);
    expect(await verifyPassword(password, acc.hash)).toBe(true);
    // never in the answer nor in the audit trail
    expect(r.body).not.toContain(password);
    expect(r.body).not.toContain(acc.hash);
    const trail = await audits(acc.id);
    expect(trail.map((a) => [a.userId, a.operation])).toEqual([['staff01', 'create']]);
    expect(trail[0].changes).not.toContain(password);
    expect(JSON.parse(trail[0].changes).passwordHash).toEqual(['***', '***']);
    // the initial password logs in, as 602: it must be changed first
    const login602 = await tokenResponse(t.app, 'newSupplier1', password);
    expect(login602.statusCode, login602.body).toBe(200);
    expect(login602.json()).toMatchObject({ account_status: 602, password_notice: { code: 'error.initialPassword' } });
  });

  it('two accounts never get the same initial password', async () => {
    const a = await created();
    const b = await created();
    expect(a.password).not.toBe(b.password);
  });

  it('refuses a taken user ID (whatever its case), a bad e-mail, a missing e-mail and a bad user ID, in the caller language; nothing is created or queued', async () => {
    const before = await count(`SELECT COUNT(*) AS n FROM account`);
    const mailsBefore = await count(`SELECT COUNT(*) AS n FROM _mail_queue`);
    const dup = await register(newUser({ userId: 'SUP01' }));
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'error.duplicate', errors: { userId: 'validation.unique' } });
    const dupZh = await register(newUser({ userId: 'sup01' }), staff, 'zh-CN');
    expect(dupZh.json().message).toMatch(/[\u4e00-\u9fff]/);
    const badMail = await register(newUser({ email: 'not-an-address' }));
    expect(badMail.statusCode).toBe(400);
    expect(badMail.json()).toMatchObject({ code: 'error.validation', errors: { email: 'rule.email' } });
    const { email: _e, ...noMail } = newUser();
    expect((await register(noMail)).json().errors).toEqual({ email: 'validation.required' });
    expect((await register(newUser({ userId: 'with space' }))).json().errors).toEqual({ userId: 'rule.userId' });
    expect((await register(newUser({ accountType: '9' }))).statusCode).toBe(400);
    expect((await register({ ...newUser(), status: NORMAL })).statusCode).toBe(400);
    expect(await count(`SELECT COUNT(*) AS n FROM account`)).toBe(before);
    expect(await count(`SELECT COUNT(*) AS n FROM _mail_queue`)).toBe(mailsBefore);
  });

  it('is one transaction with its e-mail: when the e-mail cannot be queued, no account and no audit row remain', async () => {
    const body = newUser();
    const audited = await count(`SELECT COUNT(*) AS n FROM audit_entry`);
    await t.app.db.run(`ALTER TABLE _mail_queue RENAME TO _mail_queue_away`);
    try {
      const r = await register(body);
      expect(r.statusCode).toBe(500);
      expect(r.json().code).toBe('error.internal');
    } finally {
      await t.app.db.run(`ALTER TABLE _mail_queue_away RENAME TO _mail_queue`);
    }
    expect(await t.app.db.get(`SELECT id FROM account WHERE user_id = ?`, [body.userId])).toBeUndefined();
    expect(await count(`SELECT COUNT(*) AS n FROM audit_entry`)).toBe(audited);
    // and the same call goes through once the queue is back
    expect((await register(body)).statusCode).toBe(200);
  });
});

describe('edit contact data', () => {
  it('changes name, e-mail, phones and language, audited; the user ID, type and supplier stay as created', async () => {
    const { userId, id } = await created();
    const rec = (await t.app.inject({ method: 'GET', url: `/api/accounts/${id}`, headers: bearer(staff) })).json() as Record<string, unknown>;
    const r = await t.app.inject({
      method: 'PUT',
      url: `/api/accounts/${id}`,
      headers: bearer(staff),
      payload: { ...rec, name: '周杰', email: 'zhou@example.cn', mobile: '13900139000', language: 'zh-CN' },
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ name: '周杰', email: 'zhou@example.cn', mobile: '13900139000', language: 'zh-CN', userId });
    const last = (await audits(id)).at(-1)!;
    expect(last).toMatchObject({ userId: 'staff01', operation: 'update' });
    expect(JSON.parse(last.changes)).toMatchObject({ name: [rec.name, '周杰'], email: [rec.email, 'zhou@example.cn'] });
    const fresh = r.json() as Record<string, unknown>;
    for (const [f, v] of [
      ['userId', 'other1'],
      ['accountType', code('accountType', 'internal')],
      ['departmentId', 'S001'],
      ['status', NORMAL],
    ] as const) {
      const bad = await t.app.inject({ method: 'PUT', url: `/api/accounts/${id}`, headers: bearer(staff), payload: { ...fresh, [f]: v } });
      expect(bad.statusCode, f).toBe(400);
      expect(bad.json().errors[f]).toBe('validation.readOnly');
    }
    const badMail = await t.app.inject({ method: 'PUT', url: `/api/accounts/${id}`, headers: bearer(staff), payload: { ...fresh, email: 'nope' } });
    expect(badMail.json().errors).toEqual({ email: 'rule.email' });
  });
});

describe('lock, unlock, reset password, disable, enable, end sessions', () => {
  /** a supplier account that has chosen its own password (normal), logged in once */
  async function active(): Promise<{ userId: string; id: number; token: string }> {
    const { userId, id, password } = await created();
    let token = await login(t.app, userId, 'PDC01', password);
    const r = await post('/supplierApi/accountInfo/update', token, { oldPassword: password, newPassword: 'Chosen2026x', confirmPassword: 'Chosen2026x' });
    expect(r.statusCode, r.body).toBe(200);
    token = r.headers['x-refreshed-token'] as string;
    expect((await row(userId))!.status).toBe(NORMAL);
    return { userId, id, token };
  }
  const info = (token: string) => post('/supplierApi/accountInfo/info', token);

  it('lock ends the sessions and refuses the login; unlock opens it again with the unlock e-mail; both audited', async () => {
    const { userId, id, token } = await active();
    await nextSecond();
    const locked = await act(id, 'lock');
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json()).toMatchObject({ status: LOCKED });
    expect((await info(token)).statusCode).toBe(401);
    expect((await tokenResponse(t.app, userId, 'Chosen2026x')).json().code).toBe('error.userLocked');
    expect((await act(id, 'lock')).statusCode).toBe(409);
    const unlocked = await act(id, 'unlock');
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    expect(unlocked.json()).toMatchObject({ status: NORMAL, failedLogins: 0 });
    // the sessions ended by the lock stay ended
    expect((await info(token)).statusCode).toBe(401);
    expect((await tokenResponse(t.app, userId, 'Chosen2026x')).statusCode).toBe(200);
    expect((await mails(id)).map((m) => [m.template, m.vars])).toEqual([
      ['registration', { initialPassword: expect.any(String) }],
      ['unlock', {}],
    ]);
    expect((await audits(id)).map((a) => [a.userId, a.operation])).toEqual([
      ['staff01', 'create'],
      [userId, 'profile'],
      ['staff01', 'action:lock'],
      ['staff01', 'action:unlock'],
    ]);
    expect((await act(id, 'unlock')).statusCode).toBe(409);
  });

  it('unlocking after a lockout by failed logins clears the count and the delays: the right password gets in at once', async () => {
    const { userId, id } = await active();
    const max = metadata.app.lockout.maxFailures;
    // a lockout as the login counter leaves it (lockout.test.ts drives it through the delays)
    await t.app.db.run(`UPDATE account SET status = ?, failed_logins = ? WHERE id = ?`, [LOCKED, max, id]);
    for (let i = 0; i < 3; i++) await tokenResponse(t.app, userId, 'wrongPass1');
    expect((await tokenResponse(t.app, userId, 'Chosen2026x')).json().code).toBe('error.loginThrottled');
    expect((await act(id, 'unlock')).statusCode).toBe(200);
    expect((await row(userId))!.failedLogins).toBe(0);
    expect((await tokenResponse(t.app, userId, 'Chosen2026x')).statusCode).toBe(200);
  });

  it('an account whose holder never chose a password unlocks to 602: the initial password must still be changed', async () => {
    const { userId, id, password } = await created();
    expect((await act(id, 'lock')).statusCode).toBe(200);
    expect((await act(id, 'unlock')).json()).toMatchObject({ status: MUST_CHANGE });
    expect((await tokenResponse(t.app, userId, password)).json()).toMatchObject({ account_status: 602 });
  });

  it('reset password: the passwordReset e-mail with a one-time link; the holder sets a new password with it, which ends the sessions and lifts a lockout with its delays', async () => {
    const { userId, id, token } = await active();
    const r = await act(id, 'resetPassword');
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ status: NORMAL });
    const reset = (await mails(id)).filter((m) => m.template === 'passwordReset');
    expect(reset).toHaveLength(1);
    expect(reset[0].vars).toEqual({ resetLink: expect.stringMatching(/#token=/), expiresInMinutes: metadata.app.password.resetLinkMinutes });
    expect(r.body).not.toContain(String(reset[0].vars.resetLink));
    expect((await audits(id)).at(-1)!).toMatchObject({ userId: 'staff01', operation: 'action:resetPassword' });
    // until the link is used the password stays, as the mail says
    expect((await tokenResponse(t.app, userId, 'Chosen2026x')).statusCode).toBe(200);
    // meanwhile the account is locked by failed logins and must wait
    const max = metadata.app.lockout.maxFailures;
    await t.app.db.run(`UPDATE account SET status = ?, failed_logins = ? WHERE id = ?`, [LOCKED, max, id]);
    for (let i = 0; i < 3; i++) await tokenResponse(t.app, userId, 'wrongPass1');
    expect((await tokenResponse(t.app, userId, 'Chosen2026x')).json().code).toBe('error.loginThrottled');
    const linkToken = decodeURIComponent(/#token=([^&]+)/.exec(String(reset[0].vars.resetLink))![1]);
    const done = await post('/api/auth/reset', staff, { token: linkToken, newPassword: 'Renewed2026y', confirmPassword: 'Renewed2026y' });
    expect(done.statusCode, done.body).toBe(200);
    expect((await info(token)).statusCode).toBe(401);
    expect((await row(userId))!).toMatchObject({ status: NORMAL, failedLogins: 0 });
    // no wait left, no lock: the new password gets in at once, the old one no more
    expect((await tokenResponse(t.app, userId, 'Chosen2026x')).json().code).toBe('error.loginFailed');
    expect((await tokenResponse(t.app, userId, 'Renewed2026y')).statusCode).toBe(200);
  });

  it('a disabled account gets no reset link', async () => {
    const { id } = await created();
    expect((await act(id, 'disable')).statusCode).toBe(200);
    expect((await act(id, 'resetPassword')).statusCode).toBe(409);
    expect((await mails(id)).map((m) => m.template)).toEqual(['registration']);
  });

  it('disable takes the right to log in away and ends the sessions; enable gives it back', async () => {
    const { userId, id, token } = await active();
    await nextSecond();
    expect((await act(id, 'disable')).json()).toMatchObject({ status: DISABLED });
    expect((await info(token)).statusCode).toBe(401);
    expect((await tokenResponse(t.app, userId, 'Chosen2026x')).json().code).toBe('error.noRight');
    expect((await act(id, 'lock')).statusCode).toBe(409);
    expect((await act(id, 'enable')).json()).toMatchObject({ status: NORMAL });
    expect((await tokenResponse(t.app, userId, 'Chosen2026x')).statusCode).toBe(200);
    expect((await audits(id)).slice(-2).map((a) => a.operation)).toEqual(['action:disable', 'action:enable']);
  });

  it('end sessions: every token of the account stops at once; the account itself is untouched', async () => {
    const { userId, id, token } = await active();
    await nextSecond();
    const r = await act(id, 'endSessions');
    expect(r.statusCode, r.body).toBe(200);
    expect((await info(token)).statusCode).toBe(401);
    expect((await row(userId))!.status).toBe(NORMAL);
    expect((await audits(id)).at(-1)!.operation).toBe('action:endSessions');
  });

  it('staff cannot lock or disable their own account', async () => {
    const self = await idOf('staff01');
    for (const a of ['lock', 'disable']) {
      const r: LightMyRequestResponse = await act(self, a);
      expect(r.statusCode, a).toBe(409);
      expect(r.json().code).toBe('error.notOnOwnAccount');
    }
    expect((await row('staff01'))!.status).toBe(NORMAL);
  });

  it('the demo account locked01 is unlocked by staff and logs in with its password', async () => {
    const id = await idOf('locked01');
    expect((await tokenResponse(t.app, 'locked01', DEMO_PASSWORD)).json().code).toBe('error.userLocked');
    expect((await act(id, 'unlock')).json()).toMatchObject({ status: NORMAL });
    expect((await tokenResponse(t.app, 'locked01', DEMO_PASSWORD)).statusCode).toBe(200);
  });
});
