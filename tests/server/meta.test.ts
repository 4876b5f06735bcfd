/** GET /api/meta: the compiled metadata a client needs, without private fields, cacheable by ETag. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { metadata, schemas } from '../../server/generated/index.ts';
import { publicMetadata } from '../../codegen/runtime/public-metadata.ts';
import { bearer, build, login, type TestApp } from './helpers.ts';
import { seedDatabase } from '../../server/seed/index.ts';
import { TEST_PARAMS } from '../../server/engine/passwords.ts';

let t: TestApp;
beforeAll(async () => {
  t = await build({ seed: false });
});
afterAll(() => t.close());

describe('GET /api/meta', () => {
  let supplier: string;
  let staff: string;
  const meta = (token?: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/api/meta', headers: { ...(token ? bearer(token) : {}), ...headers } });
  beforeAll(async () => {
    await seedDatabase(t.app.db, metadata, { hashParams: TEST_PARAMS });
    supplier = await login(t.app, 'sup01');
    staff = await login(t.app, 'staff01');
  });

  it('tells an anonymous caller only what the public pages need: no tables, matrix, lockout, token lifetimes or constants', async () => {
    const r = await meta();
    expect(r.statusCode).toBe(200);
    const m = r.json();
    // the same part the admin's bundle carries (admin/src/generated/metadata.public.json)
    expect(m).toEqual(JSON.parse(JSON.stringify(publicMetadata(metadata))));
    expect(m.hash).toBe(metadata.hash);
    expect(m.app.defaultLocale).toBe('zh-CN');
    for (const secret of ['lockout', 'token', 'upload', 'constants', 'mfa']) expect(m.app[secret], secret).toBeUndefined();
    // the sign-in pages state these to the user; the expiry policy stays private
    expect(Object.keys(m.app.password).sort()).toEqual(['historyCount', 'loginMinLength', 'resetLinkMinutes']);
    expect(m.access).toEqual({ profiles: {}, buttons: {} });
    expect(m.entities).toEqual({});
    expect(m.resources).toEqual({});
    expect(Object.keys(m.rules).sort()).toEqual(['email', 'password']);
    expect(Object.keys(m.codeTables)).toEqual(['accountStatus']);
    expect(new Set(m.screens.map((s: { kind: string }) => s.kind))).toEqual(new Set(['login', 'auth', 'error', 'redirect']));
    expect(r.body.length).toBeLessThan(8000);
    expect(r.body).not.toMatch(/password_hash|passwordHash|maxFailures|expiresInSeconds|expiryDays|supplierScoped|fieldOrder|requiredFor/);
  });

  it('gives a logged-in caller the JSON Schemas its forms validate with', async () => {
    const m = (await meta(supplier)).json();
    expect(Object.keys(m.schemas).sort()).toEqual(Object.keys(metadata.entities).sort());
    expect(m.schemas.order).toEqual(JSON.parse(JSON.stringify(schemas.order)));
  });

  it('after login answers code tables with both labels, screens, entities, rules and buttons', async () => {
    const r = await meta(supplier);
    expect(r.statusCode).toBe(200);
    const m = r.json();
    expect(m.codeTables.claimStatus.values[1]).toEqual({
      code: '1',
      key: 'unaudited',
      label: expect.objectContaining({ 'zh-CN': expect.any(String), 'en-US': expect.any(String) }),
    });
    expect(m.screens.map((s: { path: string }) => s.path)).toContain('/orderConfirm/list');
    expect(Object.keys(m.entities)).toHaveLength(Object.keys(metadata.entities).length);
    expect(m.rules.mobile.messageKey).toBe('rule.mobile');
    expect(m.access.buttons.search.labelKey).toBe('button.search');
  });

  it("carries only the caller's own part of the permission matrix", async () => {
    const sup = (await meta(supplier)).json();
    const stf = (await meta(staff)).json();
    expect(Object.keys(sup.access.profiles)).toEqual(['supplier']);
    expect(Object.keys(stf.access.profiles)).toEqual(['internal']);
    for (const m of [sup, stf]) {
      const profile = Object.keys(m.access.profiles)[0];
      for (const e of Object.values(m.entities) as { access: Record<string, object>; actions: Record<string, { allow: object }> }[]) {
        for (const g of Object.values(e.access)) for (const p of Object.keys(g)) expect(p).toBe(profile);
        for (const a of Object.values(e.actions)) for (const p of Object.keys(a.allow)) expect(p).toBe(profile);
      }
    }
    // the adjustment audit is internal staff's: the supplier does not even learn who may do it
    expect(sup.entities.stockAdjustment.actions.adjust.allow).toEqual({});
    expect(Object.keys(stf.entities.stockAdjustment.actions.adjust.allow)).toEqual(['internal']);
  });

  it('gives a session that must change its password its own metadata (the forced dialog is drawn in its layout), while business calls stay refused', async () => {
    const mustChange = await login(t.app, 'newuser', 'PDC01', 'init2026A');
    const r = await meta(mustChange);
    expect(r.statusCode).toBe(200);
    const m = r.json();
    expect(Object.keys(m.access.profiles)).toHaveLength(1);
    expect(Object.keys(m.entities).length).toBeGreaterThan(0);
    const business = await t.app.inject({ method: 'GET', url: '/api/notices', headers: bearer(mustChange) });
    expect(business.statusCode).toBe(403);
    expect(business.json().code).toBe('error.passwordMustChange');
  });

  it('never carries private fields', async () => {
    const m = (await meta(staff)).json();
    expect(m.entities.account.fields.passwordHash).toBeUndefined();
    expect(m.entities.account.fieldOrder).not.toContain('passwordHash');
    expect(m.entities.noticeAttachment.fields.storageName).toBeUndefined();
  });

  it('answers 304 to a client that has it, per caller', async () => {
    const first = await meta(supplier);
    const again = await meta(supplier, { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect((await meta(staff, { 'if-none-match': String(first.headers.etag) })).statusCode).toBe(200);
    expect((await meta(undefined, { 'if-none-match': String(first.headers.etag) })).statusCode).toBe(200);
  });
});

describe('npm run seed', () => {
  it('fills an empty database at the given scale and refuses one with data', () => {
    const dir = mkdtempSync(join(tmpdir(), 'seed-cli-'));
    try {
      const db = join(dir, 'p.db');
      const out = execFileSync('npx', ['tsx', 'server/seed/cli.ts', '--db', db, '--scale', '0.5'], { encoding: 'utf8' });
      expect(out).toMatch(/order lines in/);
      const n = (new Database(db, { readonly: true }).prepare('SELECT COUNT(*) AS n FROM "order"').get() as { n: number }).n;
      expect(n).toBeGreaterThan(200);
      expect(() => execFileSync('npx', ['tsx', 'server/seed/cli.ts', '--db', db], { encoding: 'utf8', stdio: 'pipe' })).toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
