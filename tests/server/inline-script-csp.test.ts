/**
 * The admin's one inline script (admin/preloadApp.ts: the language's messages preloaded while the
 * HTML is parsed) runs under the CSP by its hash (server/plugins/inline-script-hashes.ts): the
 * policy names that exact script, never 'unsafe-inline', and a script not in the served
 * index.html has no hash in it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../../server/plugins/inline-script-hashes.ts';
import { build, type TestApp } from './helpers.ts';

const INLINE = "(function(){document.head.dataset.ran='yes'})()";
const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const scriptSrc = (csp: string) => csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';

describe('inlineScriptHashes', () => {
  it('hashes the text of inline scripts only: not scripts with a src, not empty ones', () => {
    const html = `<head><script type="module" crossorigin src="/assets/index-1.js"></script><script>${INLINE}</script><script> </script></head>`;
    expect(inlineScriptHashes(html)).toEqual([hashOf(INLINE)]);
    expect(inlineScriptHashes('<script src="/a.js"></script>')).toEqual([]);
  });
});

describe("the served admin's inline script", () => {
  let t: TestApp;
  let adminDir: string;
  beforeAll(async () => {
    adminDir = mkdtempSync(join(tmpdir(), 'csp-admin-'));
    mkdirSync(join(adminDir, 'assets'));
    writeFileSync(join(adminDir, 'index.html'), `<!doctype html><head><script>${INLINE}</script></head><body></body>`);
    t = await build({ seed: false, app: { adminDir } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(adminDir, { recursive: true, force: true });
  });

  it('is allowed by its hash on the page and on every answer; nothing else inline is', async () => {
    for (const url of ['/login', '/api/warehouses']) {
      const r = await t.app.inject({ method: 'GET', url });
      const src = scriptSrc(String(r.headers['content-security-policy']));
      expect(src, url).toContain("'self'");
      expect(src, url).toContain(hashOf(INLINE));
      expect(src, url).not.toContain('unsafe-inline');
      expect(src, url).not.toContain(hashOf(`${INLINE} `));
    }
  });
});
