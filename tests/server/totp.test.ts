/**
 * Two-step verification (TOTP, RFC 6238): enrolment in the profile calls, the login's second step,
 * wrong codes counted toward the lockout, replay refused, clock drift of one step, recovery codes
 * used once, turning it off, the administrator's reset, and the account types that must enrol.
 * Codes are computed here from the shared secret with the same library (otpauth) an authenticator
 * app's algorithm is; the clock (Date only) is set by the test, so every time step is exact.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, build, code, login, tokenResponse, type TestApp } from './helpers.ts';
import { metadata } from '../../server/generated/index.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { hashPassword, TEST_PARAMS } from '../../server/engine/passwords.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';

let t: TestApp;
/** the time step the clock stands in (30 s each) */
let step = 0;
const at = (s: number) => {
  step = s;
  vi.setSystemTime(s * 30_000 + 12_000);
};

/** internal staff administer accounts; staff01 is the one with two-step verification here, so another does it */
const ADMIN = 'staff02';

/** failures counted on purpose in a test must not make the next one wait or lock (lockout.test.ts tests them) */
const forgetFailures = async () => {
  await t.app.db.run(`UPDATE account SET failed_logins = 0 WHERE user_id = 'staff01'`);
  await t.app.db.run(`DELETE FROM _login_failures`);
};

beforeAll(async () => {
  t = await build();
  const hash = await hashPassword(DEMO_PASSWORD, TEST_PARAMS);
  await RowWriter.write(t.app.db, metadata, (w) =>
    w.insert('account', {
      userId: ADMIN,
      name: ADMIN,
      accountType: code('accountType', 'internal'),
      departmentId: 'PD01',
      status: code('accountStatus', 'normal'),
      failedLogins: 0,
      passwordHash: hash,
      passwordChangedAt: w.now,
    }),
  );
  // only Date is faked: timers, the database and the password hashing run as ever. The clock
  // only moves forward, a little ahead of the real one (tokens made before stay valid)
  vi.useFakeTimers({ toFake: ['Date'] });
  at(Math.floor(Date.now() / 30_000) + 2);
});
afterAll(async () => {
  vi.useRealTimers();
  await t.close();
});

const codeAt = (secret: string, s: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: s * 30_000 + 1_000 });

const post = (url: string, token: string, payload: object = {}, app = t.app) => app.inject({ method: 'POST', url, headers: bearer(token), payload });
const setup = (token: string, password = 'demo2026A', app = t.app) => post('/supplierApi/accountInfo/totp/setup', token, { password }, app);
const enable = (token: string, code: string, app = t.app) => post('/supplierApi/accountInfo/totp/enable', token, { code }, app);
const disable = (token: string, code: string, app = t.app) => post('/supplierApi/accountInfo/totp/disable', token, { code }, app);
const info = async (token: string, app = t.app) => (await post('/supplierApi/accountInfo/info', token, {}, app)).json().data.user;
const mfaGrant = (mfaToken: string, code: string, lang?: string, app = t.app) =>
  app.inject({
    method: 'POST',
    url: '/connect/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'mfa', mfa_token: mfaToken, code, ...(lang ? { lang } : {}) }).toString(),
  });
/** the password step of an account with two-step verification on: its ticket */
const ticket = async (user: string, app = t.app): Promise<string> => {
  const r = await tokenResponse(app, user, undefined, 'PDC01', 'en-US');
  expect(r.statusCode, r.body).toBe(400);
  expect(r.json()).toMatchObject({
    error: 'mfa_required',
    code: 'error.mfaRequired',
    message: 'Enter the 6-digit code from your authenticator app',
    expires_in: 300,
  });
  expect(r.json().access_token).toBeUndefined();
  return r.json().mfa_token as string;
};
const account = (user: string) =>
  t.app.db.get<{
    id: number;
    status: string;
    failedLogins: number;
    secret: string | null;
    enabled: number | boolean;
    lastStep: number | null;
    recovery: string | null;
  }>(
    `SELECT id, status, failed_logins AS "failedLogins", totp_secret AS "secret", totp_enabled AS "enabled", totp_last_step AS "lastStep", totp_recovery_codes AS "recovery" FROM account WHERE user_id = ?`,
    [user],
  );
const fresh = (r: LightMyRequestResponse): string => {
  const h = r.headers['x-refreshed-token'];
  expect(typeof h).toBe('string');
  return h as string;
};

/** staff01's shared secret and recovery codes, once enrolled */
let secret = '';
let recovery: string[] = [];
let enrolledAt = 0;

describe('enrolment', () => {
  it('setup asks for the password again, then hands out a pending secret once', async () => {
    const token = await login(t.app, 'staff01');
    expect((await info(token)).mfa).toEqual({ enabled: false, required: false, enrolledAt: null, recoveryCodesLeft: 0 });
    expect((await post('/supplierApi/accountInfo/totp/setup', token, {})).statusCode).toBe(400);
    const wrong = await setup(token, 'wrongPass1');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ password: 'error.wrongPassword' });
    expect((await account('staff01'))!.secret).toBeNull();
    await forgetFailures();

    const r = await setup(token);
    expect(r.statusCode, r.body).toBe(200);
    const data = r.json().data as { secret: string; uri: string; qrCode: string };
    expect(data.secret).toMatch(/^[A-Z2-7]{32}$/); // 160 bits
    expect(data.uri).toMatch(/^otpauth:\/\/totp\//);
    const uri = new URL(data.uri);
    expect(uri.searchParams.get('secret')).toBe(data.secret);
    expect(uri.searchParams.get('algorithm')).toBe('SHA1');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    expect(decodeURIComponent(uri.pathname)).toContain('staff01');
    expect(data.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(data.qrCode.split(',')[1], 'base64').toString()).toContain('<svg');
    // pending: stored, not on; the login does not ask for a code yet
    expect(await account('staff01')).toMatchObject({ secret: data.secret, lastStep: null, recovery: null });
    expect(!!(await account('staff01'))!.enabled).toBe(false);
    expect((await tokenResponse(t.app, 'staff01')).statusCode).toBe(200);

    // a second setup replaces the pending secret; the first one cannot be enabled any more
    const again = (await setup(token)).json().data.secret as string;
    expect(again).not.toBe(data.secret);
    const stale = await enable(token, codeAt(data.secret, step));
    expect(stale.statusCode).toBe(400);
    expect(stale.json().errors).toEqual({ code: 'error.mfaInvalidCode' });
    secret = again;
  });

  it('enable needs a current code of the new secret; it answers ten recovery codes once and ends the other sessions', async () => {
    const token = await login(t.app, 'staff01');
    const other = await login(t.app, 'staff01');
    expect((await enable(token, '000000')).json().errors).toEqual({ code: 'error.mfaInvalidCode' });
    expect((await enable(token, codeAt(secret, step + 2))).json().errors).toEqual({ code: 'error.mfaInvalidCode' });
    vi.setSystemTime(Date.now() + 1000); // the sessions above began before the cut
    const r = await enable(token, codeAt(secret, step));
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().message).toBe('两步验证已启用');
    recovery = r.json().data.recoveryCodes;
    enrolledAt = step;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    for (const c of recovery) expect(c).toMatch(/^[a-z0-9]{4}(-[a-z0-9]{4}){5}$/); // 24 characters of 32: 120 bits
    // stored as hashes only
    const row = (await account('staff01'))!;
    expect(!!row.enabled).toBe(true);
    expect(Number(row.lastStep)).toBe(step);
    const hashes = JSON.parse(row.recovery!) as string[];
    expect(hashes).toHaveLength(10);
    for (const h of hashes) expect(h).toMatch(/^[0-9a-f]{64}$/);
    for (const c of recovery) expect(row.recovery).not.toContain(c.replace(/-/g, ''));
    // this session goes on with the refreshed token; the old token and the other session end
    const next = fresh(r);
    expect((await post('/supplierApi/accountInfo/info', next)).statusCode).toBe(200);
    expect((await post('/supplierApi/accountInfo/info', other)).statusCode).toBe(401);
    expect((await post('/supplierApi/accountInfo/info', token)).statusCode).toBe(401);
    expect((await info(next)).mfa).toMatchObject({ enabled: true, required: false, recoveryCodesLeft: 10 });
    expect((await info(next)).mfa.enrolledAt).toEqual(expect.any(String));
    // on, it cannot be set up or enabled again (a stolen session cannot swap the authenticator)
    expect((await setup(next)).json().code).toBe('error.mfaAlreadyEnabled');
    expect((await setup(next)).statusCode).toBe(409);
    expect((await enable(next, codeAt(secret, step))).json().code).toBe('error.mfaAlreadyEnabled');
    // audited, secrets masked
    const audit = await t.app.db.get<{ changes: string }>(`SELECT changes FROM audit_entry WHERE operation = 'totpEnable' AND record_id = ?`, [row.id]);
    expect(JSON.parse(audit!.changes)).toEqual({ totpEnabled: [false, true], totpSecret: ['***', '***'], totpRecoveryCodes: ['***', '***'] });
  });

  it('the secret, the recovery codes and the last step never leave the server', async () => {
    const admin = await login(t.app, ADMIN);
    const list = await t.app.inject({ method: 'GET', url: '/api/accounts?filter={"userId":"staff01"}', headers: bearer(admin) });
    expect(list.statusCode).toBe(200);
    const [rec] = list.json();
    expect(rec.totpEnabled).toBe(true);
    expect(rec).not.toHaveProperty('totpSecret');
    expect(rec).not.toHaveProperty('totpRecoveryCodes');
    expect(rec).not.toHaveProperty('totpLastStep');
    expect(list.body).not.toContain(secret);
    const meta = await t.app.inject({ method: 'GET', url: '/api/meta', headers: bearer(admin) });
    expect(Object.keys(meta.json().entities.account.fields)).not.toContain('totpSecret');
    expect(Object.keys(metadata.entities.account.fields)).toContain('totpSecret');
  });
});

describe('login with two-step verification', () => {
  it('the right password answers a ticket, not a token; the code then answers the token', async () => {
    at(enrolledAt + 1);
    const mfa = await ticket('staff01');
    // the ticket is no bearer token
    expect((await post('/supplierApi/accountInfo/info', mfa)).statusCode).toBe(401);
    const r = await mfaGrant(mfa, codeAt(secret, step));
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ token_type: 'Bearer', expires_in: metadata.app.token.expiresInSeconds, account_status: 0 });
    expect(r.headers['cache-control']).toBe('no-store');
    const user = await info(r.json().access_token);
    expect(user.userId).toBe('staff01');
    expect(user.warehouseCode).toBe('PDC01');
    expect((await t.app.inject({ method: 'GET', url: '/api/orders?range=[0,0]', headers: bearer(r.json().access_token) })).statusCode).toBe(200);
  });

  it('a wrong password answers exactly as for an unknown user (no enumeration of who has two-step verification)', async () => {
    const a = await tokenResponse(t.app, 'staff01', 'wrongPass1', 'PDC01', 'en-US');
    const b = await tokenResponse(t.app, 'nobody-here', 'wrongPass1', 'PDC01', 'en-US');
    expect(a.statusCode).toBe(400);
    expect(a.json()).toEqual(b.json());
    expect(a.json()).toEqual({ error: 'invalid_grant', code: 'error.loginFailed', message: 'Wrong user ID or password' });
    await forgetFailures();
  });

  it('a code is accepted once: the same code, and any older one, are refused (replay), also two at the same moment', async () => {
    at(enrolledAt + 3);
    const ok = await mfaGrant(await ticket('staff01'), codeAt(secret, step));
    expect(ok.statusCode).toBe(200);
    const replay = await mfaGrant(await ticket('staff01'), codeAt(secret, step), 'en-US');
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({ error: 'invalid_grant', code: 'error.mfaInvalidCode', message: 'The verification code is wrong or has already been used' });
    // the step before is within the drift, but older than the one used
    expect((await mfaGrant(await ticket('staff01'), codeAt(secret, step - 1))).json().code).toBe('error.mfaInvalidCode');
    await forgetFailures();
    // two logins with the same new code at the same moment: one gets in
    at(step + 1);
    const [x, y] = await Promise.all([ticket('staff01'), ticket('staff01')]);
    const both = await Promise.all([mfaGrant(x, codeAt(secret, step)), mfaGrant(y, codeAt(secret, step))]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    await forgetFailures();
  });

  it('allows one time step of clock drift either way, not two', async () => {
    at(step + 3);
    const s = step;
    // the phone one step ahead
    expect((await mfaGrant(await ticket('staff01'), codeAt(secret, s + 1))).statusCode).toBe(200);
    at(s + 3);
    // two steps off either way: refused (s + 1, the last one used, is two steps behind now)
    expect((await mfaGrant(await ticket('staff01'), codeAt(secret, s + 5))).json().code).toBe('error.mfaInvalidCode');
    expect((await mfaGrant(await ticket('staff01'), codeAt(secret, s + 1))).json().code).toBe('error.mfaInvalidCode');
    // the phone one step behind
    expect((await mfaGrant(await ticket('staff01'), codeAt(secret, s + 2))).statusCode).toBe(200);
    await forgetFailures();
  });

  it('wrong codes count toward the same delays and lockout as wrong passwords; the right password neither counts nor resets the count', async () => {
    at(step + 2);
    expect((await account('staff01'))!.failedLogins).toBe(0);
    for (let i = 1; i <= 2; i++) expect((await tokenResponse(t.app, 'staff01', `wrongPass${i}`)).json().code).toBe('error.loginFailed');
    const mfa = await ticket('staff01');
    expect((await account('staff01'))!.failedLogins).toBe(2);
    // the third failure in a row: a wrong code; the next attempt, code or password, waits
    expect((await mfaGrant(mfa, '123456')).json().code).toBe('error.mfaInvalidCode');
    expect((await account('staff01'))!.failedLogins).toBe(3);
    const waiting = await mfaGrant(mfa, codeAt(secret, step), 'en-US');
    expect(waiting.statusCode).toBe(429);
    expect(waiting.json()).toMatchObject({ code: 'error.loginThrottled', message: 'Too many failed attempts: please try again in 30 seconds' });
    expect((await tokenResponse(t.app, 'staff01')).json().code).toBe('error.loginThrottled');
    // codes after their wait, up to the lock (a fresh ticket each time: tickets live five minutes)
    const max = metadata.app.lockout.maxFailures;
    for (let n = 4; n <= max; n++) {
      vi.setSystemTime(Date.now() + metadata.app.lockout.maxDelaySeconds * 1000);
      expect((await mfaGrant(await ticket('staff01'), n % 2 ? 'not-a-code' : '000000')).json().code).toBe('error.mfaInvalidCode');
    }
    at(Math.floor(Date.now() / 30_000) + 1);
    // the tenth failure locks it: now the right password only learns that it is locked
    const row = (await account('staff01'))!;
    expect(row).toMatchObject({ failedLogins: max, status: '601' });
    vi.setSystemTime(Date.now() + metadata.app.lockout.maxDelaySeconds * 1000);
    at(Math.floor(Date.now() / 30_000) + 1);
    expect((await tokenResponse(t.app, 'staff01')).json().code).toBe('error.userLocked');
    // the administrator unlocks; then the code gets in and the count starts again
    const admin = await login(t.app, ADMIN);
    expect((await t.app.inject({ method: 'POST', url: `/api/accounts/${row.id}/actions/unlock`, headers: bearer(admin), payload: {} })).statusCode).toBe(200);
    expect((await mfaGrant(await ticket('staff01'), codeAt(secret, step))).statusCode).toBe(200);
    expect((await account('staff01'))!.failedLogins).toBe(0);
  });

  it('the ticket: single purpose, five minutes, used once, voided when the sessions end', async () => {
    at(step + 1);
    const token = (await mfaGrant(await ticket('staff01'), codeAt(secret, step))).json().access_token as string;
    // an access token is no ticket, nor is a forged one
    expect((await mfaGrant(token, codeAt(secret, step + 1))).json().code).toBe('error.mfaExpired');
    expect((await mfaGrant('abc.def.ghi', codeAt(secret, step + 1))).json().code).toBe('error.mfaExpired');
    // used once
    at(step + 1);
    const once = await ticket('staff01');
    expect((await mfaGrant(once, codeAt(secret, step))).statusCode).toBe(200);
    at(step + 1);
    expect((await mfaGrant(once, codeAt(secret, step))).json().code).toBe('error.mfaExpired');
    // five minutes
    const late = await ticket('staff01');
    at(step + 11); // 5.5 minutes later
    expect((await mfaGrant(late, codeAt(secret, step))).json().code).toBe('error.mfaExpired');
    // the administrator ends the sessions: a ticket from before is void
    const before = await ticket('staff01');
    vi.setSystemTime(Date.now() + 1000);
    const admin = await login(t.app, ADMIN);
    const id = (await account('staff01'))!.id;
    expect((await t.app.inject({ method: 'POST', url: `/api/accounts/${id}/actions/endSessions`, headers: bearer(admin), payload: {} })).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 1000);
    expect((await mfaGrant(before, codeAt(secret, step))).json().code).toBe('error.mfaExpired');
    expect((await mfaGrant(await ticket('staff01'), codeAt(secret, step))).statusCode).toBe(200);
    // mistakes in this test were counted: start again
    await forgetFailures();
  });

  it('answers the second step in the language of the login', async () => {
    at(step + 1);
    const zh = await mfaGrant(await ticket('staff01'), '000000', 'zh-CN');
    expect(zh.json().message).toBe('验证码错误或已被使用');
    await forgetFailures();
  });
});

describe('recovery codes', () => {
  it('a recovery code logs in once instead of the code; case, spaces and dashes do not matter', async () => {
    const r = await mfaGrant(await ticket('staff01'), recovery[0]);
    expect(r.statusCode, r.body).toBe(200);
    expect((await info(r.json().access_token)).mfa.recoveryCodesLeft).toBe(9);
    expect((await mfaGrant(await ticket('staff01'), recovery[0])).json().code).toBe('error.mfaInvalidCode');
    const typed = ` ${recovery[1].replace(/-/g, ' ').toUpperCase()} `;
    expect((await mfaGrant(await ticket('staff01'), typed)).statusCode).toBe(200);
    expect((await mfaGrant(await ticket('staff01'), typed)).json().code).toBe('error.mfaInvalidCode');
    expect(JSON.parse((await account('staff01'))!.recovery!)).toHaveLength(8);
    // one almost right is no recovery code. Its last character is changed to another one: a fixed
    // "x" was the code itself whenever the code ended in x (1 in 32), the cause of this test's rare
    // failure (issue 25 point 11); no almost-right code is ever accepted (login-races.test.ts)
    const almost = `${recovery[2].slice(0, -1)}${recovery[2].endsWith('x') ? 'y' : 'x'}`;
    expect((await mfaGrant(await ticket('staff01'), almost)).json().code).toBe('error.mfaInvalidCode');
    await forgetFailures();
  });
});

describe('turning it off', () => {
  it('takes a current code (a wrong one counts toward the lockout) and ends the other sessions', async () => {
    at(step + 1);
    const token = (await mfaGrant(await ticket('staff01'), codeAt(secret, step))).json().access_token as string;
    at(step + 1);
    const wrong = await disable(token, '999999');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ code: 'error.mfaInvalidCode' });
    expect((await account('staff01'))!.failedLogins).toBe(1);
    // the step just used at login is spent
    expect((await disable(token, codeAt(secret, step - 1))).json().errors).toEqual({ code: 'error.mfaInvalidCode' });
    vi.setSystemTime(Date.now() + 1000);
    const r = await disable(token, codeAt(secret, step));
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().message).toBe('Two-step verification is off'); // the language of the login
    const next = fresh(r);
    expect((await post('/supplierApi/accountInfo/info', token)).statusCode).toBe(401);
    expect((await info(next)).mfa).toEqual({ enabled: false, required: false, enrolledAt: null, recoveryCodesLeft: 0 });
    expect(await account('staff01')).toMatchObject({ secret: null, recovery: null, lastStep: null });
    expect((await disable(next, codeAt(secret, step))).json().code).toBe('error.mfaNotEnabled');
    // the password alone logs in again, and the counter is back to 0
    expect((await tokenResponse(t.app, 'staff01')).statusCode).toBe(200);
    expect((await account('staff01'))!.failedLogins).toBe(0);
  });

  it('or a recovery code', async () => {
    const token = await login(t.app, 'staff01');
    const s = (await setup(token)).json().data.secret as string;
    const r = await enable(token, codeAt(s, step));
    const codes = r.json().data.recoveryCodes as string[];
    const r2 = await disable(fresh(r), codes[3]);
    expect(r2.statusCode, r2.body).toBe(200);
    expect((await tokenResponse(t.app, 'staff01')).statusCode).toBe(200);
  });

  it('the administrator resets it for a user who lost the phone and the codes (and ends the sessions)', async () => {
    at(step + 1);
    let token = await login(t.app, 'staff01');
    const s = (await setup(token)).json().data.secret as string;
    token = fresh(await enable(token, codeAt(s, step)));
    const id = (await account('staff01'))!.id;
    const sup = await login(t.app, 'sup01');
    expect((await t.app.inject({ method: 'POST', url: `/api/accounts/${id}/actions/resetTotp`, headers: bearer(sup), payload: {} })).statusCode).toBe(403);
    const admin = await login(t.app, ADMIN);
    vi.setSystemTime(Date.now() + 1000);
    const r = await t.app.inject({ method: 'POST', url: `/api/accounts/${id}/actions/resetTotp`, headers: bearer(admin), payload: {} });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().totpEnabled).toBe(false);
    expect(r.json()).not.toHaveProperty('totpSecret');
    vi.setSystemTime(Date.now() + 1000);
    expect((await post('/supplierApi/accountInfo/info', token)).statusCode).toBe(401);
    expect(await account('staff01')).toMatchObject({ secret: null, recovery: null });
    expect((await tokenResponse(t.app, 'staff01')).statusCode).toBe(200);
  });
});

describe('account types that must use two-step verification (app.mfa.requiredFor)', () => {
  let r: TestApp;
  beforeAll(async () => {
    // a second server over the same data, requiring it of supplier administrators and suppliers
    r = await build({ same: t, seed: false, app: { mfaRequiredFor: ['supplierAdmin', 'supplier'] } });
  });
  afterAll(() => r.close());

  it('log in, but may only set it up until they have: every other call answers 403 error.mfaEnrolmentRequired', async () => {
    at(step + 1);
    const res = await tokenResponse(r.app, 'supadmin');
    expect(res.statusCode).toBe(200);
    expect(res.json().mfa_enrolment_required).toBe(true);
    const token = res.json().access_token as string;
    const refused = await r.app.inject({ method: 'GET', url: '/api/notices', headers: { ...bearer(token), 'accept-language': 'en-US' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'error.mfaEnrolmentRequired',
      message: 'Your account must use two-step verification: please set it up before you continue',
    });
    expect((await post('/connect/warehouse', token, { warehouse: 'PDC02' }, r.app)).json().code).toBe('error.mfaEnrolmentRequired');
    expect((await r.app.inject({ method: 'GET', url: '/api/accounts', headers: bearer(token) })).statusCode).toBe(403);
    // what the dialog needs still works
    expect((await info(token, r.app)).mfa).toEqual({ enabled: false, required: true, enrolledAt: null, recoveryCodesLeft: 0 });
    const s = (await setup(token, undefined, r.app)).json().data.secret as string;
    const on = await enable(token, codeAt(s, step), r.app);
    expect(on.statusCode, on.body).toBe(200);
    const next = fresh(on);
    expect((await r.app.inject({ method: 'GET', url: '/api/notices', headers: bearer(next) })).statusCode).toBe(200);
    expect((await info(next, r.app)).mfa).toMatchObject({ enabled: true, required: true });
    // the login now asks for the code, and answers no enrolment flag
    at(step + 1);
    const login2 = await mfaGrant(await ticket('supadmin', r.app), codeAt(s, step), undefined, r.app);
    expect(login2.statusCode).toBe(200);
    expect(login2.json().mfa_enrolment_required).toBeUndefined();
    // turned off, the account is held again until it enrols again
    at(step + 1);
    const off = await disable(login2.json().access_token, codeAt(s, step), r.app);
    expect(off.statusCode).toBe(200);
    expect((await r.app.inject({ method: 'GET', url: '/api/notices', headers: bearer(fresh(off)) })).json().code).toBe('error.mfaEnrolmentRequired');
    // the server without the requirement lets it through
    expect((await t.app.inject({ method: 'GET', url: '/api/notices', headers: bearer(fresh(off)) })).statusCode).toBe(200);
  });

  it('a 602 account changes its password first, then enrols', async () => {
    const res = await tokenResponse(r.app, 'newuser', 'init2026A');
    expect(res.json()).toMatchObject({ account_status: 602, mfa_enrolment_required: true });
    const token = res.json().access_token as string;
    expect((await setup(token, 'init2026A', r.app)).json().code).toBe('error.passwordMustChange');
    expect((await r.app.inject({ method: 'GET', url: '/api/orders', headers: bearer(token) })).json().code).toBe('error.passwordMustChange');
    const changed = await post(
      '/supplierApi/accountInfo/update',
      token,
      { oldPassword: 'init2026A', newPassword: 'fresh2026B', confirmPassword: 'fresh2026B' },
      r.app,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const next = fresh(changed);
    expect((await r.app.inject({ method: 'GET', url: '/api/orders', headers: bearer(next) })).json().code).toBe('error.mfaEnrolmentRequired');
    expect((await setup(next, 'fresh2026B', r.app)).statusCode).toBe(200);
  });

  it('other account types are not held', async () => {
    const token = await login(r.app, 'staff01');
    expect((await r.app.inject({ method: 'GET', url: '/api/orders?range=[0,0]', headers: bearer(token) })).statusCode).toBe(200);
    expect((await info(token, r.app)).mfa.required).toBe(false);
  });
});
