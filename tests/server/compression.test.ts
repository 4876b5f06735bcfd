/**
 * Compressed answers (issue 21, server/plugins/compression.ts): API answers in brotli or gzip as
 * Accept-Encoding allows, small answers and already compressed downloads (xlsx) as they are, and the
 * admin's static files sent as their precompressed twins (admin/precompress.ts), never compressed twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompressDir } from '../../admin/precompress.ts';
import { COMPRESS_THRESHOLD } from '../../server/plugins/compression.ts';
import { negotiateEncoding } from '../../server/plugins/compress-whole.ts';
import { bearer, build, login, type TestApp } from './helpers.ts';

let t: TestApp;
let sup01: string;
let adminDir: string;
// a script big enough to be worth compressing, and one too small for it
const SCRIPT = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ line: i, part: `P-${i % 37}`, text: 'lorem ipsum dolor' })))};\n`;

beforeAll(async () => {
  const dir = (adminDir = mkdtempSync(join(tmpdir(), 'compress-admin-')));
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>admin</title>');
  writeFileSync(join(dir, 'assets', 'app-1234.js'), SCRIPT);
  writeFileSync(join(dir, 'assets', 'tiny-1234.js'), 'export {}');
  precompressDir(dir);
  t = await build({ app: { adminDir: dir } });
  sup01 = await login(t.app, 'sup01');
});
afterAll(async () => {
  await t?.close();
  rmSync(adminDir, { recursive: true, force: true });
});

const ORDERS = `/api/orders?range=${encodeURIComponent('[0,499]')}&sort=${encodeURIComponent('["id","ASC"]')}`;
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { ...bearer(sup01), ...headers } });

describe('API answers', () => {
  it('are brotli when the client takes it, gzip when it takes only gzip, plain otherwise; same JSON, fewer bytes', async () => {
    const plain = await get(ORDERS, { 'accept-encoding': 'identity' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD);

    const br = await get(ORDERS, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());
    expect(br.headers['content-range']).toBe(plain.headers['content-range']);
    expect(br.rawPayload.length * 5).toBeLessThan(plain.rawPayload.length);

    const gz = await get(ORDERS, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain.json());
    expect(gz.rawPayload.length * 5).toBeLessThan(plain.rawPayload.length);

    const none = await get(ORDERS);
    expect(none.headers['content-encoding']).toBeUndefined();
  });

  it('follow the qualities of Accept-Encoding: a refused coding (q=0) is never sent, * stands for the others', async () => {
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('br;q=0, gzip;q=0.8')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0')).toBeNull();
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding(undefined)).toBeNull();

    const gz = await get(ORDERS, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const none = await get(ORDERS, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.json()).toEqual(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8')));
  });

  it('below the threshold go out as they are', async () => {
    const r = await get(`/api/orders?range=${encodeURIComponent('[0,0]')}`, { 'accept-encoding': 'br, gzip' });
    expect(r.statusCode).toBe(200);
    expect(r.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(r.headers['content-encoding']).toBeUndefined();
  });

  it('an xlsx export (a zip already) is not compressed again', async () => {
    const filter = encodeURIComponent(JSON.stringify({ orderNo_like: 'P' }));
    const r = await get(`/api/orders/export?screen=orderSearch&filter=${filter}`, { 'accept-encoding': 'br, gzip' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/spreadsheetml/);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
  });
});

describe("the admin's static files", () => {
  const asset = '/assets/app-1234.js';
  it('are sent as their precompressed twin, with their caching, and never compressed twice', async () => {
    const br = await t.app.inject({ method: 'GET', url: asset, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // the very bytes of the build's twin: compressed once, at build time
    expect(br.rawPayload.equals(readFileSync(join(adminDir, 'assets', 'app-1234.js.br')))).toBe(true);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(SCRIPT);

    const gz = await t.app.inject({ method: 'GET', url: asset, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(readFileSync(join(adminDir, 'assets', 'app-1234.js.gz')))).toBe(true);

    const plain = await t.app.inject({ method: 'GET', url: asset });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('a file without a twin (too small to gain) is compressed once by the hook; a client route still gets index.html', async () => {
    const tiny = await t.app.inject({ method: 'GET', url: '/assets/tiny-1234.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(tiny.statusCode).toBe(200);
    const body = tiny.headers['content-encoding'] === 'br' ? brotliDecompressSync(tiny.rawPayload).toString('utf8') : tiny.body;
    expect(body).toBe('export {}');
    const route = await t.app.inject({ method: 'GET', url: '/orderShip/list', headers: { 'accept-encoding': 'br, gzip' } });
    expect(route.statusCode).toBe(200);
    expect(route.body).toContain('<title>admin</title>');
  });
});
