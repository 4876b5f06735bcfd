/** GET /api/meta: the compiled metadata a client needs, without private fields, cacheable by ETag. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { metadata } from '../../server/generated/index.ts';
import { build, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await build({ seed: false });
});
afterAll(() => t.close());

describe('GET /api/meta', () => {
  it('answers code tables with both labels, screens, entities, rules and buttons', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/meta' });
    expect(r.statusCode).toBe(200);
    const m = r.json();
    expect(m.hash).toBe(metadata.hash);
    expect(m.codeTables.claimStatus.values[1]).toEqual({ code: '1', key: 'unaudited', label: expect.objectContaining({ 'zh-CN': expect.any(String), 'en-US': expect.any(String) }) });
    expect(m.screens.map((s: { path: string }) => s.path)).toContain('/orderConfirm/list');
    expect(Object.keys(m.entities)).toHaveLength(Object.keys(metadata.entities).length);
    expect(m.rules.mobile.messageKey).toBe('rule.mobile');
    expect(m.access.buttons.search.labelKey).toBe('button.search');
  });

  it('never carries private fields', async () => {
    const m = (await t.app.inject({ method: 'GET', url: '/api/meta' })).json();
    expect(m.entities.account.fields.passwordHash).toBeUndefined();
    expect(m.entities.account.fieldOrder).not.toContain('passwordHash');
    expect(m.entities.noticeAttachment.fields.storageName).toBeUndefined();
  });

  it('answers 304 to a client that has it', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/api/meta' });
    const again = await t.app.inject({ method: 'GET', url: '/api/meta', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
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
