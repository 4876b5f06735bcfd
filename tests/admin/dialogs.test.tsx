/** The session dialogs in jsdom: the 401 confirm appears once; the personal-info rules. */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AdminContext, memoryStore, type I18nProvider } from 'react-admin';
import { ReloginDialog } from '../../admin/src/auth/ReloginDialog.tsx';
import { validateProfile, profilePayload, type ProfileForm } from '../../admin/src/auth/profileRules.ts';
import { authEvents } from '../../admin/src/providers/authEvents.ts';
import { httpClient } from '../../admin/src/providers/httpClient.ts';
import { createI18nProvider, preloadMessages } from '../../admin/src/providers/i18nProvider.ts';
import { getToken, setToken } from '../../admin/src/providers/storage.ts';
import { mockFetch, resetBrowserState } from './helpers.ts';

let i18n: I18nProvider;
beforeAll(async () => {
  await preloadMessages('zh-CN');
  i18n = createI18nProvider('zh-CN');
});
afterEach(resetBrowserState);

describe('ReloginDialog', () => {
  it('shows one "login timeout" dialog for several failing calls; cancel stays, re-login clears the token and reloads', async () => {
    setToken('revoked');
    render(
      <AdminContext i18nProvider={i18n} store={memoryStore()}>
        <ReloginDialog />
      </AdminContext>,
    );
    expect(screen.queryByTestId('relogin-dialog')).toBeNull();
    mockFetch(() => ({ status: 401, json: { code: 'error.sessionExpired', message: '会话已过期，请重新登录！' } }));
    await act(async () => {
      await Promise.allSettled([httpClient('/api/a'), httpClient('/api/b'), httpClient('/api/c')]);
    });
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByText('登录超时')).toBeInTheDocument();
    expect(screen.getByText('会话已过期，请重新登录！')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('relogin-cancel'));
    expect(authEvents.get().relogin.open).toBe(false);
    expect(getToken()).toBe('revoked');

    await act(async () => {
      await httpClient('/api/d').catch(() => undefined);
    });
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    fireEvent.click(screen.getByTestId('relogin-confirm'));
    expect(getToken()).toBeNull();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('personal-info rules', () => {
  const base: ProfileForm = {
    userId: 'sup01',
    name: '张伟',
    email: 'a@b.cn',
    mobile: '13800138000',
    telephone: '021-12345678',
    oldPassword: '',
    newPassword: '',
    confirmPassword: '',
  };
  it('accepts a valid profile without a password change', () => {
    expect(validateProfile(base, false)).toEqual({});
    expect(profilePayload(base)).not.toHaveProperty('newPassword');
  });
  it('checks e-mail, mobile (11 digits) and telephone (XXX-XXXXXXXX)', () => {
    const e = validateProfile({ ...base, email: 'nope', mobile: '1380013800', telephone: '12345678' }, false);
    expect(e.email?.key).toBe('rule.email');
    expect(e.mobile?.key).toBe('rule.mobile');
    expect(e.telephone?.key).toBe('rule.telephone');
  });
  it('password: old required, 8-20 letters and digits, confirm must match', () => {
    let e = validateProfile({ ...base, newPassword: 'abc' }, false);
    expect(e.oldPassword?.key).toBe('validation.required');
    expect(e.newPassword).toEqual({ key: 'rule.password', args: { min: 8, max: 20 } });
    e = validateProfile({ ...base, oldPassword: 'demo2026A', newPassword: 'abcd1234', confirmPassword: 'abcd12345' }, false);
    expect(e).toEqual({ confirmPassword: { key: 'error.passwordMismatch' } });
    expect(validateProfile({ ...base, oldPassword: 'demo2026A', newPassword: 'abcd1234', confirmPassword: 'abcd1234' }, false)).toEqual({});
  });
  it('a 602 account must set a new password', () => {
    const e = validateProfile(base, true);
    expect(e.newPassword?.key).toBe('validation.required');
  });
});
