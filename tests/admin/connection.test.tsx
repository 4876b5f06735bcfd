/**
 * A server that cannot be reached (restarting: connection refused, 502/503/504 from a proxy) ends
 * no session: reads wait and try again while the page says it is reconnecting, writes fail without
 * being sent twice, react-admin's checkError does not log out, and the route guard keeps the token
 * and lets the user in once the server answers. Only a 401 is about the session.
 */
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdminContext, memoryStore, type I18nProvider } from 'react-admin';
import { fetchRaw, httpClient, legacyPost } from '../../admin/src/providers/httpClient.ts';
import { authProvider, fetchSession } from '../../admin/src/providers/authProvider.ts';
import { connection, SERVER_UNAVAILABLE } from '../../admin/src/providers/connection.ts';
import { createI18nProvider, preloadMessages } from '../../admin/src/providers/i18nProvider.ts';
import { getToken, setToken } from '../../admin/src/providers/storage.ts';
import { SessionGate } from '../../admin/src/routing/SessionGate.tsx';
import { mockFetch, resetBrowserState, supplierUser, type Call, type Reply } from './helpers.ts';

let i18n: I18nProvider;
beforeAll(async () => {
  await preloadMessages('en-US');
  i18n = createI18nProvider('en-US');
});
afterEach(() => {
  resetBrowserState();
  connection.reset();
});

/** Answers `down` (a status, or 'refused' for no answer at all) to the first `n` calls, then `up`. */
function flaky(n: number, down: number | 'refused', up: (c: Call) => Reply) {
  let left = n;
  const seen: boolean[] = [];
  const { calls } = mockFetch((c) => {
    seen.push(connection.reconnecting());
    if (left-- > 0) {
      if (down === 'refused') throw new TypeError('Failed to fetch');
      return { status: down, body: 'Bad Gateway', headers: { 'content-type': 'text/plain' } };
    }
    return up(c);
  });
  return { calls, reconnectingSeen: seen };
}

const info = () => ({ json: { status: 200, data: { user: supplierUser, serverTime: '2026-11-22T10:00:00.000Z' } } });

describe('the HTTP layer while the server is away', () => {
  it('a read waits through 502s and a refused connection, saying it is reconnecting, and gets its answer', async () => {
    setToken('tok');
    const { calls, reconnectingSeen } = flaky(3, 502, () => ({ json: [{ id: 1 }], headers: { 'content-range': 'orders 0-0/1' } }));
    const r = await httpClient('/api/orders');
    expect(r.json).toEqual([{ id: 1 }]);
    expect(calls).toHaveLength(4);
    // the first try did not know yet; the retries ran while the page said "reconnecting"
    expect(reconnectingSeen).toEqual([false, true, true, true]);
    expect(connection.reconnecting()).toBe(false);
    expect(getToken()).toBe('tok');

    const refused = flaky(2, 'refused', () => ({ json: { id: 1 } }));
    expect((await httpClient('/api/orders/1')).json).toEqual({ id: 1 });
    expect(refused.calls).toHaveLength(3);
  });

  it('a write is not sent twice: it fails with error.serverUnavailable and the token stays', async () => {
    setToken('tok');
    const { calls } = flaky(5, 503, () => ({ json: {} }));
    const err = await httpClient('/api/orders/1/actions/ship', { method: 'POST', body: '{}' }).catch((e) => e);
    expect(calls).toHaveLength(1);
    expect(err.status).toBe(503);
    expect(err.body.code).toBe(SERVER_UNAVAILABLE);
    expect(err.message).toBe('The server cannot be reached, please try again later');
    expect(getToken()).toBe('tok');
  });

  it('a read gives up when its timeout runs out, with error.serverUnavailable', async () => {
    setToken('tok');
    const { calls } = flaky(1000, 'refused', () => ({ json: {} }));
    const err = await fetchRaw('/api/orders', { timeoutMs: 700 }).catch((e) => e);
    expect(err.body.code).toBe(SERVER_UNAVAILABLE);
    expect(err.status).toBe(0);
    expect(calls.length).toBeGreaterThan(1);
    expect(connection.reconnecting()).toBe(false);
  });

  it('the user info (a POST that only reads) waits too; a 401 is still a refused session', async () => {
    setToken('tok');
    flaky(2, 502, info);
    expect((await fetchSession({ skipAuthDialog: true })).user.userId).toBe('sup01');
    mockFetch(() => ({ status: 401, json: { code: 'error.sessionExpired', message: 'Session expired!please log in again!' } }));
    await expect(fetchSession({ skipAuthDialog: true })).rejects.toMatchObject({ status: 401, message: 'Verification failed, please Login again.' });
  });

  it("react-admin's checkError logs nobody out for an unreachable server", async () => {
    for (const status of [0, 502, 503, 504]) await expect(authProvider.checkError({ status, body: { code: SERVER_UNAVAILABLE } })).resolves.toBeUndefined();
    await expect(authProvider.checkError({ status: 401 })).rejects.toMatchObject({ logoutUser: false });
    // a legacy write that finds no server fails with the same code
    mockFetch(() => ({ status: 502, body: 'Bad Gateway' }));
    await expect(legacyPost('/supplierApi/accountInfo/update', {})).rejects.toMatchObject({ body: { code: SERVER_UNAVAILABLE } });
  });
});

describe('the route guard while the server is away', () => {
  it('keeps the token, says it is reconnecting, and lets the user in when the server answers', async () => {
    // forget the session an earlier test fetched (logout without a token calls nothing)
    await authProvider.logout({});
    setToken('tok');
    let up = false;
    mockFetch((c) => (up && c.url === '/supplierApi/accountInfo/info' ? info() : { status: 502, body: 'Bad Gateway' }));
    render(
      <AdminContext i18nProvider={i18n} store={memoryStore()}>
        <SessionGate>
          <p>the screen</p>
        </SessionGate>
      </AdminContext>,
    );
    expect(await screen.findByTestId('reconnecting')).toHaveTextContent('Reconnecting to the server…');
    expect(screen.queryByText('the screen')).toBeNull();
    await act(async () => {
      up = true;
    });
    expect(await screen.findByText('the screen', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(getToken()).toBe('tok');
    expect(screen.queryByTestId('reconnecting')).toBeNull();
  });
});
