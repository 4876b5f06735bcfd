/** The HTTP layer: bearer token, token refresh header, 401 dialog once, error bodies, envelopes, files. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authEvents } from '../../admin/src/providers/authEvents.ts';
import { fetchRaw, fileNameFrom, httpClient, legacyPost, REFRESH_HEADER } from '../../admin/src/providers/httpClient.ts';
import { createI18nProvider, preloadMessages } from '../../admin/src/providers/i18nProvider.ts';
import { getAccountStatus, getToken, setToken } from '../../admin/src/providers/storage.ts';
import { mockFetch, resetBrowserState } from './helpers.ts';

beforeAll(async () => {
  await preloadMessages('en-US');
  createI18nProvider('en-US');
});
afterEach(resetBrowserState);

describe('httpClient', () => {
  it('sends the bearer token and the UI language', async () => {
    setToken('tok-1');
    const { calls } = mockFetch(() => ({ json: [], headers: { 'content-range': 'orders */0' } }));
    await httpClient('/api/orders');
    expect(calls[0].headers.get('Authorization')).toBe('Bearer tok-1');
    expect(calls[0].headers.get('Accept-Language')).toBe('en-US');
  });

  it('sends no Authorization header without a token', async () => {
    const { calls } = mockFetch(() => ({ json: [] }));
    await httpClient('/api/warehouses');
    expect(calls[0].headers.has('Authorization')).toBe(false);
  });

  it('replaces the stored token when a refreshed one comes back in a header', async () => {
    setToken('old');
    mockFetch(() => ({ json: { id: 1 }, headers: { [REFRESH_HEADER]: 'new-token' } }));
    await httpClient('/api/orders/1');
    expect(getToken()).toBe('new-token');
    // the next call uses it
    const { calls } = mockFetch(() => ({ json: { id: 1 } }));
    await httpClient('/api/orders/1');
    expect(calls[0].headers.get('Authorization')).toBe('Bearer new-token');
  });

  it('does not adopt a refreshed token once logged out', async () => {
    mockFetch(() => ({ json: {}, headers: { [REFRESH_HEADER]: 'late' } }));
    await httpClient('/api/warehouses');
    expect(getToken()).toBeNull();
  });

  it('opens the 401 dialog once when several calls fail together', async () => {
    setToken('revoked');
    mockFetch(() => ({ status: 401, json: { code: 'error.sessionExpired', message: 'Session expired!please log in again!' } }));
    let opened = 0;
    let wasOpen = false;
    const off = authEvents.subscribe(() => {
      const open = authEvents.get().relogin.open;
      if (open && !wasOpen) opened += 1;
      wasOpen = open;
    });
    const results = await Promise.allSettled([httpClient('/api/a'), httpClient('/api/b'), httpClient('/api/c')]);
    off();
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(opened).toBe(1);
    expect(authEvents.get().relogin).toEqual({ open: true, message: 'Session expired!please log in again!' });
    // the token stays until the user chooses re-login
    expect(getToken()).toBe('revoked');
  });

  it('opens it again after the user cancelled', async () => {
    setToken('revoked');
    mockFetch(() => ({ status: 401, json: { code: 'error.unauthorized', message: 'x' } }));
    await httpClient('/api/a').catch(() => undefined);
    authEvents.closeRelogin();
    await httpClient('/api/a').catch(() => undefined);
    expect(authEvents.get().relogin.open).toBe(true);
  });

  it('does not open the dialog for calls that handle 401 themselves', async () => {
    setToken('revoked');
    mockFetch(() => ({ status: 401, json: { code: 'error.unauthorized', message: 'x' } }));
    await fetchRaw('/supplierApi/accountInfo/info', { method: 'POST', skipAuthDialog: true }).catch(() => undefined);
    expect(authEvents.get().relogin.open).toBe(false);
  });

  it('keeps the server error body and maps field errors to react-admin form errors', async () => {
    setToken('t');
    mockFetch(() => ({
      status: 400,
      json: {
        code: 'error.validation',
        message: 'Some input is invalid',
        errors: { title: 'validation.required', content: 'validation.maxLength' },
        errorArgs: { content: { max: 20 } },
      },
    }));
    const err = await httpClient('/api/notices', { method: 'POST', body: '{}' }).catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.message).toBe('Some input is invalid');
    expect(err.body.code).toBe('error.validation');
    expect(err.body.fieldErrors).toEqual({ title: 'validation.required', content: 'validation.maxLength' });
    expect(err.body.errors.title).toBe('validation.required');
    expect(err.body.errors.content).toBe('@@react-admin@@{"message":"validation.maxLength","args":{"max":20}}');
    expect(err.body.errors.root).toEqual({ serverError: 'Some input is invalid' });
  });

  it('a 403 passwordMustChange opens the forced password dialog', async () => {
    setToken('t');
    mockFetch(() => ({ status: 403, json: { code: 'error.passwordMustChange', message: 'change it' } }));
    await httpClient('/api/orders').catch(() => undefined);
    expect(authEvents.get().mustChangePassword).toBe(true);
    expect(getAccountStatus()).toBe(602);
  });
});

describe('legacy envelope', () => {
  it('accepts status 200 and 1', async () => {
    mockFetch(() => ({ json: { status: 1, data: 'ok' } }));
    await expect(legacyPost('/supplierApi/x')).resolves.toEqual({ status: 1, data: 'ok' });
  });
  it('rejects another status with its message, or "Error"', async () => {
    mockFetch(() => ({ json: { status: 500, message: 'Order already confirmed' } }));
    await expect(legacyPost('/supplierApi/x')).rejects.toThrow('Order already confirmed');
    mockFetch(() => ({ json: { status: 0 } }));
    await expect(legacyPost('/supplierApi/x')).rejects.toThrow('Error');
  });
});

describe('file names', () => {
  it('prefers the RFC 5987 name (Chinese file names)', () => {
    expect(fileNameFrom(`attachment; filename="a.xlsx"; filename*=UTF-8''%E8%AE%A2%E5%8D%95.xlsx`)).toBe('订单.xlsx');
    expect(fileNameFrom('attachment; filename="cards.pdf"')).toBe('cards.pdf');
    expect(fileNameFrom('inline; filename=plain.pdf')).toBe('plain.pdf');
    expect(fileNameFrom(null)).toBeNull();
  });
});
