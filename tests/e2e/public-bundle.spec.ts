/**
 * What anybody can download without logging in: the page and every script of the built admin carry
 * only the public part of the metadata (codegen/runtime/public-metadata.ts), never the tables, the
 * permission matrix, the lockout threshold or token lifetimes; a logged-in page gets those from
 * GET /api/meta (its own profile's part). The same patterns are checked against that answer, so the
 * test would notice if they stopped meaning anything.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { token } from './pages/api.ts';

const ASSETS = fileURLToPath(new URL('../../admin/dist/assets/', import.meta.url));

/** Keys of the private metadata, as data (`key:` or `"key":`), not as property reads in code. */
const PRIVATE_DATA = [
  /\bsupplierScoped"?\s*:/,
  /\bmaxFailures"?\s*:/,
  /\bexpiresInSeconds"?\s*:/,
  /\bfieldOrder"?\s*:/,
  /\bexpiryDays"?\s*:/,
  /\bcodeTable"?\s*:/,
];

test('no script of the admin carries the private metadata; the logged-in /api/meta does', async ({ request }) => {
  const page = await request.get('/login');
  expect(page.status()).toBe(200);
  const html = await page.text();
  const entry = [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  expect(entry.length).toBeGreaterThan(0);
  // every chunk the page may load (dynamic imports included), fetched as an anonymous visitor would
  const scripts = readdirSync(ASSETS)
    .filter((f) => f.endsWith('.js'))
    .map((f) => `/assets/${f}`);
  for (const e of entry) expect(scripts).toContain(e);
  let publicPartSeen = false;
  for (const src of scripts) {
    const r = await request.get(src);
    expect(r.status(), src).toBe(200);
    const text = await r.text();
    for (const p of PRIVATE_DATA) expect(text, `${src} ${p}`).not.toMatch(p);
    if (/\bresetLinkMinutes"?\s*:/.test(text)) publicPartSeen = true;
  }
  expect(publicPartSeen, 'the public part is in the bundle').toBe(true);

  const session = await request.get('/api/meta', { headers: { authorization: `Bearer ${await token(request, 'sup01')}` } });
  expect(session.status()).toBe(200);
  const body = await session.text();
  for (const p of PRIVATE_DATA) expect(body, String(p)).toMatch(p);
});
