/** The session: login (form-encoded, status rule, separate storage names), identity, logout, checkError. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authEvents } from '../../admin/src/providers/authEvents.ts';
import { authProvider, loginPathFor } from '../../admin/src/providers/authProvider.ts';
import { createI18nProvider, preloadMessages } from '../../admin/src/providers/i18nProvider.ts';
import { getAccountStatus, getToken, getUser, KEYS, setToken } from '../../admin/src/providers/storage.ts';
import { mockFetch, resetBrowserState, supplierUser, type Call } from './helpers.ts';

beforeAll(async () => {
  await preloadMessages('zh-CN');
  createI18nProvider('zh-CN');
});
afterEach(resetBrowserState);

const server =
  (accountStatus: number, extra: Record<string, unknown> = {}) =>
  (call: Call) => {
    if (call.url === '/connect/token')
      return { json: { access_token: 'tok', token_type: 'Bearer', expires_in: 7200, account_status: accountStatus, ...extra } };
    if (call.url === '/supplierApi/accountInfo/info')
      return { json: { status: 200, data: { user: { ...supplierUser, accountStatus }, serverTime: '2026-11-22T10:00:00.000Z' } } };
    if (call.url === '/connect/logout') return { json: { status: 200 } };
    return { status: 404, json: { code: 'error.notFound', message: 'not found' } };
  };

describe('login', () => {
  it('posts the credentials form-encoded with warehouse and language', async () => {
    const { calls } = mockFetch(server(0));
    await authProvider.login({ username: ' sup01 ', password: 'demo2026A', warehouse: 'PDC01', locale: 'en-US' });
    const token = calls.find((c) => c.url === '/connect/token')!;
    expect(token.method).toBe('POST');
    expect(token.headers.has('Authorization')).toBe(false);
    const form = token.body as URLSearchParams;
    expect(form).toBeInstanceOf(URLSearchParams);
    expect(Object.fromEntries(form)).toEqual({ grant_type: 'password', username: 'sup01', password: 'demo2026A', warehouse: 'PDC01', lang: 'en-US' });
    // the user info is fetched with the new token
    const info = calls.find((c) => c.url === '/supplierApi/accountInfo/info')!;
    expect(info.headers.get('Authorization')).toBe('Bearer tok');
  });

  it('stores token and account status under two separate names, plus user ID and warehouse', async () => {
    mockFetch(server(0));
    await authProvider.login({ username: 'sup01', password: 'demo2026A', warehouse: 'PDC01' });
    expect(localStorage.getItem(KEYS.token)).toBe('tok');
    expect(localStorage.getItem(KEYS.accountStatus)).toBe('0');
    expect(KEYS.token).not.toBe(KEYS.accountStatus);
    expect(localStorage.getItem(KEYS.userId)).toBe('sup01');
    expect(localStorage.getItem(KEYS.warehouse)).toBe('PDC01');
    expect(getUser()?.profile).toBe('supplier');
  });

  it('lets status 602 in and asks for the password change', async () => {
    mockFetch(server(602, { password_notice: { code: 'error.initialPassword', message: 'x' } }));
    await authProvider.login({ username: 'newuser', password: 'init2026A', warehouse: 'PDC01' });
    expect(getToken()).toBe('tok');
    expect(getAccountStatus()).toBe(602);
    expect(authEvents.get().mustChangePassword).toBe(true);
  });

  it.each([601, 603, 1])('refuses account status %i', async (status) => {
    mockFetch(server(status));
    await expect(authProvider.login({ username: 'x', password: 'demo2026A', warehouse: 'PDC01' })).rejects.toThrow('您没有访问本系统的权限！');
    expect(getToken()).toBeNull();
  });

  it('shows the server message of a refused login', async () => {
    mockFetch(() => ({
      status: 400,
      json: { error: 'invalid_grant', code: 'error.userLocked', message: 'The user is locked out, please contact administrator!' },
    }));
    await expect(authProvider.login({ username: 'locked01', password: 'demo2026A', warehouse: 'PDC01' })).rejects.toThrow(
      'The user is locked out, please contact administrator!',
    );
    expect(authEvents.get().relogin.open).toBe(false);
  });

  it('a failed user-info fetch drops the token: "Verification failed, please Login again."', async () => {
    mockFetch((c) => (c.url === '/connect/token' ? server(0)(c) : { json: { status: 200, data: {} } }));
    await expect(authProvider.login({ username: 'sup01', password: 'demo2026A', warehouse: 'PDC01' })).rejects.toThrow('验证失败，请重新登录。');
    expect(getToken()).toBeNull();
  });
});

describe('logout', () => {
  it('calls /connect/logout and clears user data, token, tabs, warehouse and user ID (not language or settings)', async () => {
    mockFetch(server(0));
    await authProvider.login({ username: 'sup01', password: 'demo2026A', warehouse: 'PDC01' });
    sessionStorage.setItem(KEYS.tabs, '[{"path":"/orderShip/list"}]');
    localStorage.setItem(KEYS.locale, 'en-US');
    localStorage.setItem(KEYS.settings, '{"themeColor":"#f5222d"}');
    const { calls } = mockFetch(server(0));
    await expect(authProvider.logout({})).resolves.toBe('/login');
    expect(calls.map((c) => c.url)).toEqual(['/connect/logout']);
    expect(calls[0].headers.get('Authorization')).toBe('Bearer tok');
    for (const k of [KEYS.token, KEYS.accountStatus, KEYS.user, KEYS.userId, KEYS.warehouse]) expect(localStorage.getItem(k)).toBeNull();
    expect(sessionStorage.getItem(KEYS.tabs)).toBeNull();
    expect(localStorage.getItem(KEYS.locale)).toBe('en-US');
    expect(localStorage.getItem(KEYS.settings)).toContain('#f5222d');
  });

  it('still clears everything when the server call fails', async () => {
    setToken('dead');
    mockFetch(() => ({ status: 401, json: { code: 'error.unauthorized', message: 'x' } }));
    await authProvider.logout({});
    expect(getToken()).toBeNull();
    expect(authEvents.get().relogin.open).toBe(false);
  });
});

describe('checkAuth / checkError / identity', () => {
  it('without a token, checkAuth sends to login carrying the target', async () => {
    window.history.pushState({}, '', '/orderShip/list?x=1');
    await expect(authProvider.checkAuth({})).rejects.toEqual({ redirectTo: '/login?redirect=%2ForderShip%2Flist%3Fx%3D1', message: false });
    setToken('t');
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined();
    expect(loginPathFor('/')).toBe('/login');
  });

  it('a 401 neither logs out nor notifies (the dialog decides); other errors pass', async () => {
    await expect(authProvider.checkError({ status: 401 })).rejects.toEqual({ logoutUser: false, message: false });
    await expect(authProvider.checkError({ status: 403, body: { code: 'error.passwordMustChange' } })).rejects.toEqual({ logoutUser: false, message: false });
    await expect(authProvider.checkError({ status: 403, body: { code: 'error.forbidden' } })).resolves.toBeUndefined();
    await expect(authProvider.checkError({ status: 409 })).resolves.toBeUndefined();
  });

  it('getIdentity answers from the stored user info', async () => {
    mockFetch(server(0));
    await authProvider.login({ username: 'sup01', password: 'demo2026A', warehouse: 'PDC01' });
    const id = await authProvider.getIdentity!();
    expect(id).toMatchObject({ id: 'sup01', fullName: '张伟', profile: 'supplier' });
  });
});
