/** Language choice: stored preference, else the browser, else zh-CN; the preference survives logout. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStore, type I18nProvider } from 'react-admin';
import { loadMessages } from '../../admin/src/generated/index.ts';
import { authProvider } from '../../admin/src/providers/authProvider.ts';
import {
  createI18nProvider,
  matchLocale,
  onMessagesSwapped,
  preloadMessages,
  resolveLocale,
  swapMessages,
  translate,
} from '../../admin/src/providers/i18nProvider.ts';
import { getStoredLocale, KEYS, setToken } from '../../admin/src/providers/storage.ts';
import { portalStore } from '../../admin/src/providers/store.ts';
import { mockFetch, resetBrowserState } from './helpers.ts';

const browserLanguages = (langs: string[]) => {
  vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(langs);
  vi.spyOn(window.navigator, 'language', 'get').mockReturnValue(langs[0] ?? '');
};

afterEach(() => {
  vi.restoreAllMocks();
  resetBrowserState();
});

describe('locale choice', () => {
  it('maps browser tags to supported locales by language', () => {
    expect(matchLocale('en-GB')).toBe('en-US');
    expect(matchLocale('zh-TW')).toBe('zh-CN');
    expect(matchLocale('zh')).toBe('zh-CN');
    expect(matchLocale('fr-FR')).toBeNull();
  });

  it('takes the browser language when nothing is stored', () => {
    browserLanguages(['en-US', 'en']);
    expect(resolveLocale()).toBe('en-US');
    browserLanguages(['fr-FR', 'zh-CN']);
    expect(resolveLocale()).toBe('zh-CN');
  });

  it('defaults to zh-CN for an unsupported browser language', () => {
    browserLanguages(['fr-FR']);
    expect(resolveLocale()).toBe('zh-CN');
  });

  it('prefers the stored preference over the browser', () => {
    browserLanguages(['zh-CN']);
    localStorage.setItem(KEYS.locale, 'en-US');
    expect(resolveLocale()).toBe('en-US');
  });
});

describe('persistence', () => {
  it("react-admin's locale in the Store is our own preference, and a Store reset (logout) keeps it", () => {
    const store = portalStore(memoryStore());
    store.setItem('locale', 'en-US');
    expect(getStoredLocale()).toBe('en-US');
    store.setItem('sidebar.open', true);
    store.reset();
    expect(store.getItem('locale')).toBe('en-US');
    expect(store.getItem('sidebar.open')).toBeUndefined();
  });

  it('survives authProvider.logout', async () => {
    const store = portalStore(memoryStore());
    store.setItem('locale', 'en-US');
    setToken('t');
    mockFetch(() => ({ json: { status: 200 } }));
    await authProvider.logout({});
    store.reset();
    browserLanguages(['zh-CN']);
    expect(resolveLocale()).toBe('en-US');
  });

  it('switches messages and keeps app + react-admin + shell texts together', async () => {
    // a page with a session (the header's switch): every message of the new language
    setToken('t');
    await preloadMessages('zh-CN');
    const p = createI18nProvider('zh-CN');
    expect(p.translate('ra.action.save')).toBe('保存');
    expect(p.translate('route.orderShip')).toBe('订单发货');
    expect(p.translate('shell.tags.closeAll')).toBe('关闭所有');
    expect(p.translate('code.accountStatus.602')).toBe('须修改密码');
    await p.changeLocale('en-US');
    expect(p.getLocale()).toBe('en-US');
    expect(p.translate('ra.action.save')).toBe('Save');
    expect(p.translate('route.orderShip')).toBe('Order ship');
    expect(document.documentElement.lang).toBe('en-US');
    expect(p.getLocales!().map((l) => l.locale)).toEqual(['zh-CN', 'en-US']);
  });

  it('swaps the message bundles in place (npm run dev, a label-only edit): a new provider with the new texts, in the current language', async () => {
    await preloadMessages('zh-CN');
    const p = createI18nProvider('zh-CN');
    const received: I18nProvider[] = [];
    const stop = onMessagesSwapped((next) => received.push(next));
    const zh = { ...(await loadMessages['zh-CN']()), 'route.orderShip': '订单发货（新）' };
    const en = { ...(await loadMessages['en-US']()), 'route.orderShip': 'Ship orders' };
    try {
      await swapMessages({ 'zh-CN': zh, 'en-US': en, 'fr-FR': { 'route.orderShip': 'Expédier' } });
      expect(received).toHaveLength(1);
      // a new object, so that react-admin's translate consumers re-render; the same language
      expect(received[0]).not.toBe(p);
      expect(received[0].getLocale()).toBe('zh-CN');
      expect(received[0].translate('route.orderShip')).toBe('订单发货（新）');
      expect(translate('route.orderShip')).toBe('订单发货（新）');
      // react-admin's and the shell's own texts stay
      expect(received[0].translate('ra.action.save')).toBe('保存');
      expect(received[0].translate('shell.tags.closeAll')).toBe('关闭所有');
      await received[0].changeLocale('en-US');
      expect(received[0].translate('route.orderShip')).toBe('Ship orders');
      // the same texts again (a column edit sends them too): nothing swapped, nothing re-rendered
      await swapMessages({ 'zh-CN': zh, 'en-US': en });
      expect(received).toHaveLength(1);
    } finally {
      stop();
      // back to the generated texts for the other tests
      await swapMessages({ 'zh-CN': await loadMessages['zh-CN'](), 'en-US': await loadMessages['en-US']() });
    }
  });
});
