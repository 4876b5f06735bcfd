/**
 * Logs an operator can follow (server/ops/request-log.ts): a session of many kinds of calls
 * (logins right and wrong, password change, forgot and reset with the mailed link, an action,
 * a filtered list, an error) is run with the production logger options at debug level, and
 * its every line is read: each line of a request carries the request id, the route template and,
 * once known, the user ID; the id of a trusted proxy is taken and echoed; writes name their
 * records; and no password, token, secret, e-mail, phone number or person's name appears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.ts';
import { leaks } from '../support/log-grep.ts';
import { loggerOptions } from '../../server/prepare.ts';
import { DEMO_PASSWORD } from '../../server/seed/base.ts';
import { metadata } from '../../server/generated/index.ts';
import { bearer, build, listUrl, login, TEST_SECRET, tokenResponse, type TestApp } from './helpers.ts';

type Line = Record<string, unknown> & { msg?: string; reqId?: string; route?: string; userId?: string };
const raw: string[] = [];
let t: TestApp;
let smtp: TestSmtpServer;
const secrets: string[] = [TEST_SECRET, DEMO_PASSWORD];
const orders = metadata.entities.order.resource;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await build({
    app: {
      logger: { ...loggerOptions('debug'), stream: { write: (s: string) => raw.push(s) } },
      trustRequestId: true,
      mail: { smtpUrl: smtp.url },
    },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const lines = (): Line[] => raw.flatMap((s) => s.split('\n').filter(Boolean)).map((s) => JSON.parse(s) as Line);

describe('request logs', () => {
  it('run a session of many kinds of calls', async () => {
    // wrong and right logins, with the password in the body
    expect((await tokenResponse(t.app, 'sup01', 'Wrong2026pass')).statusCode).toBe(400);
    secrets.push('Wrong2026pass');
    const sup = await login(t.app, 'sup01');
    const staff = await login(t.app, 'staff01');
    secrets.push(sup, staff);
    // a filtered list: a person's name in the query string
    expect((await t.app.inject({ method: 'GET', url: listUrl('accounts', { filter: { name_like: '张伟' } }), headers: bearer(staff) })).statusCode).toBe(200);
    // an action on a record
    const [order] = await t.app.db.all<{ id: number }>(`SELECT id FROM "order" WHERE direct_supplier_code = 'S001' ORDER BY id LIMIT 1`);
    await t.app.inject({ method: 'POST', url: `/api/${orders}/${order.id}/actions/confirm`, headers: bearer(sup), payload: { thisShipmentQty: 1 } });
    // password change of the caller
    const changed = await t.app.inject({
      method: 'POST',
      url: '/supplierApi/accountInfo/update',
      headers: bearer(sup),
      payload: {
        oldPassword: DEMO_PASSWORD,
        newPassword: 'Chosen2026x',
        confirmPassword: 'Chosen2026x',
        email: 'zhang.wei@example.org',
        mobile: '13912345678',
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    secrets.push('Chosen2026x', 'zhang.wei@example.org', '13912345678', changed.headers['x-refreshed-token'] as string);
    // forgot password: the mail's link carries a token
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/forgot', payload: { userId: 'sup02' } })).statusCode).toBe(202);
    await t.app.mailer.drain();
    const mail = smtp.mails.find((m) => m.to[0] === 'sup02@example.com')!;
    const token = /token=([A-Za-z0-9_-]{20,})/.exec(mail.text)![1];
    secrets.push(token, 'sup02@example.com');
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset',
      payload: { token, newPassword: 'Reset2026abc', confirmPassword: 'Reset2026abc' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    secrets.push('Reset2026abc');
    // a trusted proxy's request id, and one that could forge a log line
    // (probes of /healthz and /readyz log warnings only: another route)
    const traced = await t.app.inject({ method: 'GET', url: '/api/meta', headers: { 'x-request-id': 'lb-7f3a9c21-0001' } });
    expect(traced.headers['x-request-id']).toBe('lb-7f3a9c21-0001');
    const forged = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'x"}\n{"level":60' } });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // an error
    expect((await t.app.inject({ method: 'GET', url: `/api/${orders}/999999999`, headers: bearer(staff) })).statusCode).toBe(404);
  });

  it('carry the request id and route template on every line of a request, and the user ID once known', () => {
    const all = lines();
    const ofRequests = all.filter((l) => l.reqId);
    expect(ofRequests.length).toBeGreaterThan(10);
    for (const l of ofRequests) expect(l.route, JSON.stringify(l)).toBeTruthy();
    const completed = all.filter((l) => l.msg === 'request completed');
    const confirm = completed.find((l) => l.route === `/api/${orders}/:id/actions/confirm`)!;
    expect(confirm.userId).toBe('sup01');
    expect(confirm.records).toMatchObject({ resource: orders, action: 'confirm' });
    expect(completed.find((l) => l.route === '/api/accounts')!.userId).toBe('staff01');
    expect(completed.some((l) => l.reqId === 'lb-7f3a9c21-0001' && l.route === '/api/meta')).toBe(true);
    // the failed login is logged with the user ID it named, under its request id
    expect(all.some((l) => l.msg === 'login refused' && l.userId === 'sup01' && l.reqId && l.route === '/connect/token')).toBe(true);
    // the mail names its records: the queue row and the account
    expect(all.some((l) => l.event === 'mail' && l.mailId && l.accountId)).toBe(true);
  });

  it('hold no password, token, secret, e-mail, phone number or name', () => {
    const text = raw.join('');
    for (const s of secrets) expect(text.includes(s), `the log holds ${s.slice(0, 12)}…`).toBe(false);
    // the demo people's names and the list filter's value
    for (const name of ['张伟', '李娜', '王芳', '刘强']) expect(text.includes(name), name).toBe(false);
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/);
    expect(text).not.toMatch(/"(password|newPassword|oldPassword|authorization)"\s*:\s*"[^[]/i);
  });

  it("and the whole-run grep (PORTAL_TEST_LOG, tests/support/log-grep.ts) finds none in this session's log, but would find each kind", () => {
    expect(leaks(raw.join(''))).toEqual([]);
    for (const bad of [
      '{"password":"x1"}',
      '{"to":"a.b@example.com"}',
      '{"m":"13912345678"}',
      '{"name":"张伟"}',
      '{"h":"Bearer abcdefghijklmnopqrstuvwxyz"}',
      `{"t":"${secrets[3]}"}`,
    ])
      expect(leaks(bad), bad).toHaveLength(1);
  });
});
