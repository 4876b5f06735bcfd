/**
 * Accounts and sessions: login answers, rate limits, revocation (also across a restart), 602
 * gating, password policy and history, token expiry and forgery, refresh, warehouse switch, the
 * profile call. Failed logins, their delays and the lockout: lockout.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { bearer, build, login, tokenResponse, type TestApp } from './helpers.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';
import { metadata } from '../../server/generated/index.ts';
import { hashPassword, verifyPassword, needsRehash, PRODUCTION_PARAMS } from '../../server/engine/passwords.ts';

let t: TestApp;
beforeAll(async () => {
  t = await build();
});
afterAll(() => t.close());

const info = (token: string) => t.app.inject({ method: 'POST', url: '/supplierApi/accountInfo/info', headers: bearer(token) });
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('login', () => {
  it('answers the token, its type, lifetime and the account status', async () => {
    const r = await tokenResponse(t.app, 'sup01');
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ token_type: 'Bearer', expires_in: metadata.app.token.expiresInSeconds, account_status: 0 });
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('wrong password and unknown user get the same answer (no user enumeration)', async () => {
    const a = await tokenResponse(t.app, 'sup02', 'wrongPass1');
    const b = await tokenResponse(t.app, 'nobody-here', 'wrongPass1');
    expect(a.statusCode).toBe(400);
    expect(b.statusCode).toBe(400);
    expect(a.json()).toEqual(b.json());
    expect(a.json()).toMatchObject({ error: 'invalid_grant', code: 'error.loginFailed' });
  });

  it('a password under 6 characters is refused without a lookup; unknown warehouse is named', async () => {
    expect((await tokenResponse(t.app, 'sup01', '12345')).json().code).toBe('error.loginFailed');
    expect((await tokenResponse(t.app, 'sup01', 'demo2026A', 'PDC99')).json().code).toBe('error.wrongWarehouse');
  });

  it('answers in the language asked for', async () => {
    const zh = await tokenResponse(t.app, 'sup02', 'wrongPass1', 'PDC01', 'zh-CN');
    const en = await tokenResponse(t.app, 'sup02', 'wrongPass1', 'PDC01', 'en-US');
    expect(zh.json().message).toMatch(/[\u4e00-\u9fff]/);
    expect(en.json().message).not.toMatch(/[\u4e00-\u9fff]/);
    // these failures must not make sup02 wait in the later tests: reset (lockout.test.ts tests the count)
    await t.app.db.run(`UPDATE account SET failed_logins = 0 WHERE user_id = 'sup02'`);
    await t.app.db.run(`DELETE FROM _login_failures`);
  });

  it('a form field given twice is refused before anything reads it: a wrong password with the right one after it logs nobody in (issue 37 point 3)', async () => {
    const post = (form: string, lang: string) =>
      t.app.inject({
        method: 'POST',
        url: '/connect/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': lang },
        payload: form,
      });
    const right = encodeURIComponent(DEMO_PASSWORD);
    for (const form of [
      `grant_type=password&username=sup01&password=wrongPass1&password=${right}&warehouse=PDC01`,
      `grant_type=password&username=nobody&username=sup01&password=${right}&warehouse=PDC01`,
      `grant_type=password&grant_type=password&username=sup01&password=${right}&warehouse=PDC01`,
    ]) {
      const zh = await post(form, 'zh-CN');
      expect(zh.statusCode, form).toBe(400);
      expect(zh.json()).toMatchObject({ code: 'error.badRequest' });
      expect(zh.json()).not.toHaveProperty('access_token');
      expect(zh.json().message).toMatch(/[\u4e00-\u9fff]/);
      const en = await post(form, 'en-US');
      expect(en.statusCode).toBe(400);
      expect(en.json().message).not.toMatch(/[\u4e00-\u9fff]/);
    }
    // each field once: the login goes through as before
    expect((await post(`grant_type=password&username=sup01&password=${right}&warehouse=PDC01`, 'en-US')).statusCode).toBe(200);
  });

  it('is rate-limited per address and per account', async () => {
    const d = await build({ app: { loginRateLimit: 5, accountAttemptsPerMinute: 3 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) codes.push((await tokenResponse(d.app, 'staff01')).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
      const more: number[] = [];
      for (let i = 0; i < 3; i++) more.push((await tokenResponse(d.app, 'sup01')).statusCode);
      expect(more).toEqual([200, 429, 429]);
      const limited = await tokenResponse(d.app, 'sup01');
      expect(limited.json().code).toBe('error.rateLimited');
    } finally {
      await d.close();
    }
  });
});

describe('tokens', () => {
  it('logout revokes the token: the next call is 401', async () => {
    const token = await login(t.app, 'sup01');
    expect((await info(token)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/connect/logout', headers: bearer(token) });
    expect(out.json()).toEqual({ status: 200 });
    const after = await info(token);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('error.sessionExpired');
  });

  it('revocation survives a restart (it lives in the database)', async () => {
    const d = await build();
    const token = await login(d.app, 'sup01');
    await d.app.inject({ method: 'POST', url: '/connect/logout', headers: bearer(token) });
    await d.app.close();
    const again = await build({ same: d, seed: false });
    try {
      expect((await again.app.inject({ method: 'POST', url: '/supplierApi/accountInfo/info', headers: bearer(token) })).statusCode).toBe(401);
      const fresh = await login(again.app, 'sup01');
      expect((await again.app.inject({ method: 'POST', url: '/supplierApi/accountInfo/info', headers: bearer(fresh) })).statusCode).toBe(200);
    } finally {
      await again.close();
    }
  });

  it('refuses a tampered signature, another algorithm, "none", an expired token and a foreign audience', async () => {
    const good = await login(t.app, 'sup01');
    const [h, p] = good.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const secret = 'test-secret-0123456789-0123456789-0123456789';
    const sign = (header: object, payload: object, alg = 'sha256') => {
      const data = `${b64(header)}.${b64(payload)}`;
      return `${data}.${createHmac(alg, secret).update(data).digest('base64url')}`;
    };
    const tampered = `${h}.${b64({ ...claims, uid: 'sup02', sub: '2' })}.${good.split('.')[2]}`;
    const hs512 = sign({ alg: 'HS512', typ: 'JWT' }, claims, 'sha512');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    const expired = sign({ alg: 'HS256', typ: 'JWT' }, { ...claims, exp: Math.floor(Date.now() / 1000) - 10 });
    const otherAud = sign({ alg: 'HS256', typ: 'JWT' }, { ...claims, aud: 'someone-else' });
    const valid = sign({ alg: 'HS256', typ: 'JWT' }, claims);
    expect((await info(valid)).statusCode).toBe(200);
    for (const bad of [tampered, hs512, none, expired, otherAud, 'garbage', '']) {
      const r = await t.app.inject({ method: 'POST', url: '/supplierApi/accountInfo/info', headers: { authorization: `Bearer ${bad}` } });
      expect(r.statusCode, bad.slice(0, 40)).toBe(401);
    }
  });

  it('a token close to its end comes back refreshed in x-refreshed-token', async () => {
    const good = await login(t.app, 'sup01');
    const claims = JSON.parse(Buffer.from(good.split('.')[1], 'base64url').toString());
    const data = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ ...claims, exp: Math.floor(Date.now() / 1000) + 60 })}`;
    const soon = `${data}.${createHmac('sha256', 'test-secret-0123456789-0123456789-0123456789').update(data).digest('base64url')}`;
    const r = await info(soon);
    expect(r.statusCode).toBe(200);
    const fresh = r.headers['x-refreshed-token'] as string;
    expect(fresh).toBeTruthy();
    expect((await info(fresh)).statusCode).toBe(200);
    expect((await info(good)).headers['x-refreshed-token']).toBeUndefined();
  });

  it('logout ends the whole session: the token it was refreshed from stops working too', async () => {
    const good = await login(t.app, 'sup01');
    const claims = JSON.parse(Buffer.from(good.split('.')[1], 'base64url').toString());
    // the same session's token, close to its end: the server refreshes it
    const data = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ ...claims, exp: Math.floor(Date.now() / 1000) + 60 })}`;
    const soon = `${data}.${createHmac('sha256', 'test-secret-0123456789-0123456789-0123456789').update(data).digest('base64url')}`;
    const fresh = (await info(soon)).headers['x-refreshed-token'] as string;
    expect(fresh).toBeTruthy();
    expect((await info(good)).statusCode).toBe(200);
    // logging out with the newest token ends the older ones of the chain as well
    expect((await t.app.inject({ method: 'POST', url: '/connect/logout', headers: bearer(fresh) })).statusCode).toBe(200);
    for (const tok of [fresh, soon, good]) expect((await info(tok)).statusCode).toBe(401);
    // another session of the same user is not touched
    const other = await login(t.app, 'sup01');
    expect((await info(other)).statusCode).toBe(200);
  });

  it('a password change ends every other session of the account; the changing one goes on', async () => {
    const d = await build();
    try {
      const mine = await login(d.app, 'staff01');
      const elsewhere = await login(d.app, 'staff01', 'PDC02');
      const r = await d.app.inject({
        method: 'POST',
        url: '/supplierApi/accountInfo/update',
        headers: bearer(mine),
        payload: { oldPassword: 'demo2026A', newPassword: 'Changed2026x', confirmPassword: 'Changed2026x' },
      });
      expect(r.statusCode, r.body).toBe(200);
      const fresh = r.headers['x-refreshed-token'] as string;
      const ask = (tok: string) => d.app.inject({ method: 'POST', url: '/supplierApi/accountInfo/info', headers: bearer(tok) });
      expect((await ask(elsewhere)).statusCode).toBe(401);
      expect((await ask(mine)).statusCode).toBe(401);
      expect((await ask(fresh)).statusCode).toBe(200);
      // a profile change without a new password ends nothing
      const again = await login(d.app, 'staff01', 'PDC01', 'Changed2026x');
      expect(
        (await d.app.inject({ method: 'POST', url: '/supplierApi/accountInfo/update', headers: bearer(fresh), payload: { email: 'staff@example.com' } }))
          .statusCode,
      ).toBe(200);
      expect((await ask(again)).statusCode).toBe(200);
    } finally {
      await d.close();
    }
  });

  it('switching warehouse gives a token for the other PDC and revokes the old one', async () => {
    const token = await login(t.app, 'sup01', 'PDC01');
    const r = await t.app.inject({ method: 'POST', url: '/connect/warehouse', headers: bearer(token), payload: { warehouse: 'PDC02' } });
    expect(r.statusCode).toBe(200);
    const next = r.json().access_token as string;
    expect((await info(next)).json().data.user).toMatchObject({ warehouseCode: 'PDC02', isClaimWarehouse: false });
    expect((await info(token)).statusCode).toBe(401);
    const claims = await t.app.inject({ method: 'GET', url: '/api/claims', headers: bearer(next) });
    expect(claims.statusCode).toBe(403);
    expect(claims.json().code).toBe('error.notClaimWarehouse');
  });

  it("account info answers the spec's shape", async () => {
    const r = await info(await login(t.app, 'supadmin'));
    expect(r.json()).toMatchObject({
      status: 200,
      data: { user: { userId: 'supadmin', accountType: '4', roleId: 'sys', admin: true, warehouseCode: 'PDC01' } },
    });
    expect(Date.parse(r.json().data.serverTime)).toBeGreaterThan(0);
  });
});

describe('passwords', () => {
  it('hashes with scrypt at the ASVS parameters and verifies in constant form', async () => {
    const h = await hashPassword('Secret2026', PRODUCTION_PARAMS);
    expect(h).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('Secret2026', h)).toBe(true);
    expect(await verifyPassword('Secret2027', h)).toBe(false);
    expect(needsRehash(h)).toBe(false);
    expect(needsRehash(await hashPassword('x', { N: 1024, r: 8, p: 1 }))).toBe(true);
  });

  it('a 602 account logs in, is refused every business call, and is free after changing its password', async () => {
    const r = await tokenResponse(t.app, 'newuser', 'init2026A');
    expect(r.json()).toMatchObject({ account_status: 602, password_notice: { code: 'error.initialPassword' } });
    const token = r.json().access_token as string;
    expect((await info(token)).statusCode).toBe(200);
    const list = await t.app.inject({ method: 'GET', url: '/api/orders', headers: bearer(token) });
    expect(list.statusCode).toBe(403);
    expect(list.json().code).toBe('error.passwordMustChange');
    const update = (body: object) => t.app.inject({ method: 'POST', url: '/supplierApi/accountInfo/update', headers: bearer(token), payload: body });
    expect((await update({ email: 'a@b.cn' })).json().errors.newPassword).toBe('validation.required');
    expect((await update({ oldPassword: 'init2026A', newPassword: 'short1', confirmPassword: 'short1' })).json().errors.newPassword).toBe('rule.password');
    expect((await update({ oldPassword: 'init2026A', newPassword: 'onlyletters', confirmPassword: 'onlyletters' })).json().errors.newPassword).toBe(
      'rule.password',
    );
    expect((await update({ oldPassword: 'init2026A', newPassword: 'NewPass2026', confirmPassword: 'NewPass2027' })).json().errors.confirmPassword).toBe(
      'error.passwordMismatch',
    );
    expect((await update({ oldPassword: 'wrongOld1', newPassword: 'NewPass2026', confirmPassword: 'NewPass2026' })).json().errors.oldPassword).toBe(
      'error.wrongOldPassword',
    );
    expect((await update({ oldPassword: 'init2026A', newPassword: 'init2026A', confirmPassword: 'init2026A' })).json().errors.newPassword).toBe(
      'error.passwordReused',
    );
    const ok = await update({ oldPassword: 'init2026A', newPassword: 'NewPass2026', confirmPassword: 'NewPass2026' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.accountStatus).toBe(0);
    // this session goes on with the token the answer carries; the token from before the change is over
    const fresh = ok.headers['x-refreshed-token'] as string;
    expect(fresh).toBeTruthy();
    expect((await t.app.inject({ method: 'GET', url: '/api/orders', headers: bearer(fresh) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/orders', headers: bearer(token) })).statusCode).toBe(401);
    expect((await tokenResponse(t.app, 'newuser', 'NewPass2026')).json().account_status).toBe(0);
  });

  it('the last 5 passwords cannot be reused', async () => {
    const d = await build();
    try {
      let token = await login(d.app, 'staff01');
      const change = async (from: string, to: string) => {
        const r = await d.app.inject({
          method: 'POST',
          url: '/supplierApi/accountInfo/update',
          headers: bearer(token),
          payload: { oldPassword: from, newPassword: to, confirmPassword: to },
        });
        // as the client does: a refreshed token replaces the stored one
        token = (r.headers['x-refreshed-token'] as string | undefined) ?? token;
        return r;
      };
      const seq = ['demo2026A', 'Pass2026a1', 'Pass2026a2', 'Pass2026a3', 'Pass2026a4', 'Pass2026a5'];
      for (let i = 1; i < seq.length; i++) expect((await change(seq[i - 1], seq[i])).statusCode).toBe(200);
      // current + 4 before it are refused; the 6th-newest (the demo password) is allowed again
      for (const old of seq.slice(1, 5)) expect((await change('Pass2026a5', old)).json().errors.newPassword).toBe('error.passwordReused');
      expect((await change('Pass2026a5', 'Pass2026a5')).json().errors.newPassword).toBe('error.passwordReused');
      expect((await change('Pass2026a5', 'demo2026A')).statusCode).toBe(200);
    } finally {
      await d.close();
    }
  });

  it('an expired password turns the login into 602; a near expiry is announced with the days left', async () => {
    const d = await build();
    try {
      const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
      await d.app.db.run(`UPDATE account SET password_changed_at = ? WHERE user_id = 'sup01'`, [ago(metadata.app.password.expiryDays + 1)]);
      const expired = await tokenResponse(d.app, 'sup01', 'demo2026A', 'PDC01', 'en-US');
      expect(expired.json()).toMatchObject({
        account_status: 602,
        password_notice: { code: 'error.passwordExpired', message: 'The password have out of date,please modify!' },
      });
      await d.app.db.run(`UPDATE account SET password_changed_at = ? WHERE user_id = 'staff01'`, [ago(metadata.app.password.expiryDays - 3)]);
      const soon = await tokenResponse(d.app, 'staff01', 'demo2026A', 'PDC01', 'en-US');
      expect(soon.json()).toMatchObject({ account_status: 0, password_notice: { code: 'error.passwordExpiresSoon', days: 3 } });
      expect(soon.json().password_notice.message).toBe('The password for the remaining 3 days expired, whether now revised?');
    } finally {
      await d.close();
    }
  });

  it('the profile call validates email, mobile and telephone with the metadata rules', async () => {
    const token = await login(t.app, 'staff01');
    const r = await t.app.inject({
      method: 'POST',
      url: '/supplierApi/accountInfo/update',
      headers: bearer(token),
      payload: { email: 'not-an-email', mobile: '1380013800', telephone: '02112345678' },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().errors).toEqual({ email: 'rule.email', mobile: 'rule.mobile', telephone: 'rule.telephone' });
    const ok = await t.app.inject({
      method: 'POST',
      url: '/supplierApi/accountInfo/update',
      headers: bearer(token),
      payload: { email: 'liu@example.cn', mobile: '13912345678', telephone: '021-87654321' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await info(token)).json().data.user).toMatchObject({ email: 'liu@example.cn', mobile: '13912345678' });
    const audit = (await t.app.db.get<{ changes: string }>(
      `SELECT changes FROM audit_entry WHERE resource = 'accounts' AND operation = 'profile' ORDER BY id DESC LIMIT 1`,
    ))!;
    expect(JSON.parse(audit.changes).email[1]).toBe('liu@example.cn');
  });
});

describe('session limits', () => {
  it('an administrator ends every session of an account at once', async () => {
    const d = await build();
    try {
      const token = await login(d.app, 'sup01');
      const other = await login(d.app, 'sup01', 'PDC02');
      const admin = await login(d.app, 'staff01');
      const id = Number((await d.app.db.get<{ id: number }>(`SELECT id FROM account WHERE user_id = 'sup01'`))!.id);
      expect((await d.app.inject({ method: 'POST', url: `/api/accounts/${id}/actions/endSessions`, headers: bearer(token), payload: {} })).statusCode).toBe(
        403,
      );
      expect(
        (await d.app.inject({ method: 'POST', url: `/api/accounts/${id}/actions/endSessions`, headers: bearer(await login(d.app, 'supadmin')), payload: {} }))
          .statusCode,
      ).toBe(403);
      // tokens carry whole seconds: make sure the end is later than their issue time
      await new Promise((r) => setTimeout(r, 1100));
      const r = await d.app.inject({ method: 'POST', url: `/api/accounts/${id}/actions/endSessions`, headers: bearer(admin), payload: {} });
      expect(r.statusCode, r.body).toBe(200);
      for (const tk of [token, other])
        expect((await d.app.inject({ method: 'POST', url: '/supplierApi/accountInfo/info', headers: bearer(tk) })).statusCode).toBe(401);
      await new Promise((r2) => setTimeout(r2, 1100));
      expect((await d.app.inject({ method: 'POST', url: '/supplierApi/accountInfo/info', headers: bearer(await login(d.app, 'sup01')) })).statusCode).toBe(200);
    } finally {
      await d.close();
    }
  });

  it('refreshing never extends a session beyond its absolute lifetime', async () => {
    const good = await login(t.app, 'sup01');
    const claims = JSON.parse(Buffer.from(good.split('.')[1], 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    const secret = 'test-secret-0123456789-0123456789-0123456789';
    const sign = (payload: object) => {
      const data = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}`;
      return `${data}.${createHmac('sha256', secret).update(data).digest('base64url')}`;
    };
    // logged in almost maxSessionSeconds ago, token about to expire: no fresh token any more
    const old = sign({ ...claims, at: now - metadata.app.token.maxSessionSeconds + 60, iat: now - 100, exp: now + 60 });
    const r = await info(old);
    expect(r.statusCode).toBe(200);
    expect(r.headers['x-refreshed-token']).toBeUndefined();
    // a recent login near token expiry is refreshed, and the fresh token keeps the login time
    const recent = sign({ ...claims, at: now - 600, iat: now - 100, exp: now + 60 });
    const fresh = (await info(recent)).headers['x-refreshed-token'] as string;
    expect(JSON.parse(Buffer.from(fresh.split('.')[1], 'base64url').toString()).at).toBe(now - 600);
  });

  it('writes are limited per user and minute', async () => {
    const d = await build({ app: { writesPerMinute: 3 } });
    try {
      const admin = await login(d.app, 'supadmin');
      const codes: number[] = [];
      for (let i = 0; i < 4; i++)
        codes.push(
          (await d.app.inject({ method: 'POST', url: '/api/notices', headers: bearer(admin), payload: { title: `限流 ${i}`, content: 'c' } })).statusCode,
        );
      expect(codes).toEqual([201, 201, 201, 429]);
      // reading is not limited by it
      expect((await d.app.inject({ method: 'GET', url: '/api/notices', headers: bearer(admin) })).statusCode).toBe(200);
    } finally {
      await d.close();
    }
  });
});
