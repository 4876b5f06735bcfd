/**
 * The audit trail (one row per mutation, in the same transaction: rolled back with it; a read API)
 * and the protections every answer carries (security headers, no CORS, no-store, generic 5xx).
 */
import { describe, expect, it } from 'vitest';
import { metadata } from '../../server/generated/index.ts';
import { RowWriter } from '../../server/seed/writer.ts';
import { serverSuite, bearer, build, code, listUrl, login, multipart, PDF } from './helpers.ts';

const t = serverSuite({ admin: 'supadmin', sup: 'sup01', staff: 'staff01' });

const AUDIT_COUNT = async () => Number((await t.app.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM audit_entry'))!.n);
const LAST_AUDIT = async () => (await t.app.db.get('SELECT * FROM audit_entry ORDER BY id DESC LIMIT 1'))!;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

describe('audit trail', () => {
  it('create, update, action, delete and upload each write who, when, what and where', async () => {
    let n = await AUDIT_COUNT();
    const created = (await call('POST', '/api/notices', t.tokens.admin, { title: '审计', content: 'v1' })).json();
    expect(await AUDIT_COUNT()).toBe(++n);
    expect(await LAST_AUDIT()).toMatchObject({ user_id: 'supadmin', warehouse_code: 'PDC01', resource: 'notices', record_id: created.id, operation: 'create' });
    expect(JSON.parse(String((await LAST_AUDIT()).changes)).title).toEqual([null, '审计']);

    await call('PUT', `/api/notices/${created.id}`, t.tokens.admin, { ...created, content: 'v2' });
    expect(await AUDIT_COUNT()).toBe(++n);
    expect(JSON.parse(String((await LAST_AUDIT()).changes))).toEqual({ content: ['v1', 'v2'] });

    await call('POST', `/api/notices/${created.id}/actions/repeal`, t.tokens.admin, {});
    expect(await AUDIT_COUNT()).toBe(++n);
    expect((await LAST_AUDIT()).operation).toBe('action:repeal');

    const m = multipart({ noticeId: String(created.id) }, { name: 'a.pdf', data: PDF });
    await t.app.inject({ method: 'POST', url: '/api/notice-attachments/upload', headers: { ...bearer(t.tokens.admin), ...m.headers }, payload: m.payload });
    expect(await AUDIT_COUNT()).toBe(++n);
    expect(JSON.parse(String((await LAST_AUDIT()).changes)).storageName).toEqual(['***', '***']);

    await call('DELETE', `/api/notices/${created.id}`, t.tokens.admin);
    expect(await AUDIT_COUNT()).toBe(n + 1);
    expect((await LAST_AUDIT()).operation).toBe('delete');
  });

  it('a failed operation leaves no audit row: it is rolled back with the change', async () => {
    const w = await RowWriter.open(t.app.db, metadata);
    const mk = (qty: number) =>
      w.insert('order', {
        orderNo: `AU${qty}${Math.random().toString(36).slice(2, 8)}`,
        itemNo: 1,
        partsCode: 'P',
        orderQty: qty,
        shippedQty: 0,
        unsentQty: qty,
        status: code('purchaseOrderStatus', 'confirmed'),
        warehouseCode: 'PDC01',
        directSupplierCode: 'S001',
        productionSupplierCode: 'S001',
        purchasingSupplierCode: 'S001',
      });
    const a = mk(10);
    const b = mk(1);
    await w.close();
    const before = await AUDIT_COUNT();
    const r = await call('POST', '/api/orders/actions/ship', t.tokens.sup, { ids: [a, b], shipQty: 5 });
    expect(r.statusCode).toBe(409);
    expect(await AUDIT_COUNT()).toBe(before);
    expect(await t.app.db.get('SELECT shipped_qty, version FROM "order" WHERE id = ?', [a])).toEqual({ shipped_qty: 0, version: 1 });
    const stale = await call('PUT', `/api/notices/1`, t.tokens.admin, { version: 999, content: 'x' });
    expect(stale.statusCode).toBe(409);
    expect(await AUDIT_COUNT()).toBe(before);
  });

  it('is readable through the API by internal t.tokens.staff only, never by suppliers or the supplier administrator, never writable', async () => {
    const r = await call('GET', listUrl('audit-entries', { sort: ['at', 'DESC'], range: [0, 9], filter: { resource: 'notices' } }), t.tokens.staff);
    expect(r.statusCode).toBe(200);
    expect((r.json() as unknown[]).length).toBeGreaterThan(0);
    expect((await call('GET', '/api/audit-entries', t.tokens.sup)).statusCode).toBe(403);
    // the supplier administrator manages notices only: the trail names other suppliers' orders,
    // claims and settlements and users' e-mail addresses and mobiles (issue 25 point 3)
    expect((await call('GET', '/api/audit-entries', t.tokens.admin)).statusCode).toBe(403);
    expect((await call('GET', '/api/audit-entries/1', t.tokens.admin)).statusCode).toBe(403);
    expect((await call('POST', '/api/audit-entries', t.tokens.admin, { operation: 'x' })).statusCode).toBe(403);
    expect((await call('DELETE', '/api/audit-entries/1', t.tokens.admin)).statusCode).toBe(403);
  });
});

describe('protections on every answer', () => {
  it('security headers: CSP without unsafe-eval and with base-uri none, HSTS, nosniff, frame denial', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/warehouses' });
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(r.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['x-powered-by']).toBeUndefined();
  });

  it('CORS is closed: another origin gets no Access-Control-Allow-Origin, preflights are not answered', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/warehouses', headers: { origin: 'https://evil.example' } });
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/notices',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'DELETE' },
    });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.statusCode).toBe(404);
  });

  it('an unexpected failure answers a generic 500 with an error id, never the cause', async () => {
    const d = await build();
    try {
      const token = await login(d.app, 'supadmin');
      await d.app.db.exec('DROP TABLE notice_attachment');
      const r = await d.app.inject({ method: 'GET', url: '/api/notice-attachments', headers: { ...bearer(token), 'accept-language': 'en-US' } });
      expect(r.statusCode).toBe(500);
      expect(r.json().code).toBe('error.internal');
      expect(r.json().errorId).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.body).not.toMatch(/notice_attachment|SQLITE|no such table|relation|does not exist/);
    } finally {
      await d.close();
    }
  });
});
