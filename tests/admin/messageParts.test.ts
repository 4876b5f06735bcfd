/**
 * Which messages a page loads before its first render (issue 21, src/providers/i18nProvider.ts): a
 * page without a session the public part only (the sign-in, forgot and reset password and error
 * pages translate every text with it), a page with a session every message of its language; the
 * session part of a page without one is loaded by preloadShell once the page is idle, and a
 * language chosen on the sign-in page gets its session part too (the next page's language).
 * Each case starts from fresh modules: the providers keep what they loaded.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import enAll from '../../admin/src/generated/messages.en-US.json';
import zhAll from '../../admin/src/generated/messages.zh-CN.json';
import enPublic from '../../admin/src/generated/messages-public.en-US.json';
import zhPublic from '../../admin/src/generated/messages-public.zh-CN.json';
import { KEYS } from '../../admin/src/providers/storage.ts';
import { resetBrowserState } from './helpers.ts';

type Messages = Record<string, string>;
const BUNDLES = { 'en-US': { all: enAll as Messages, public: enPublic as Messages }, 'zh-CN': { all: zhAll as Messages, public: zhPublic as Messages } };
const keysOf = (m: Messages) => Object.keys(m).filter((k) => k !== '$comment');
const sessionKey = 'route.orderShip';

/** The provider's text of `key` is the bundle's (placeholders and plural forms aside, which it resolves). */
function expectTranslated(translate: (key: string) => string, bundle: Messages, keys: string[]) {
  for (const key of keys) {
    const text = bundle[key];
    if (/%\{|\|\|\|\|/.test(text)) expect(translate(key), key).not.toBe(key);
    else expect(translate(key), key).toBe(text);
  }
}

async function freshI18n(locale: 'en-US' | 'zh-CN') {
  vi.resetModules();
  localStorage.setItem(KEYS.locale, locale);
  return import('../../admin/src/providers/i18nProvider.ts');
}

beforeEach(() => resetBrowserState());
afterEach(() => resetBrowserState());

describe('the messages a page loads before its first render', () => {
  for (const locale of ['en-US', 'zh-CN'] as const) {
    it(`${locale}: without a session, the public part: every public text, no other`, async () => {
      const i18n = await freshI18n(locale);
      const p = await i18n.initI18n();
      expectTranslated(p.translate, BUNDLES[locale].public, keysOf(BUNDLES[locale].public));
      expect(BUNDLES[locale].all[sessionKey]).toBeTruthy();
      expect(p.translate(sessionKey)).toBe(sessionKey);
      // react-admin's own texts come with the public part (the notification's close button, the loading page)
      expect(p.translate('ra.action.close')).not.toBe('ra.action.close');
      expect(p.translate('ra.page.loading')).not.toBe('ra.page.loading');
    });

    it(`${locale}: with a session (the page a login opens), every message of the language`, async () => {
      localStorage.setItem(KEYS.token, 'a.b.c');
      const i18n = await freshI18n(locale);
      const p = await i18n.initI18n();
      expectTranslated(p.translate, BUNDLES[locale].all, keysOf(BUNDLES[locale].all));
    });
  }

  it('the session part of a page without a session: loaded once idle (preloadShell), for the next page', async () => {
    const i18n = await freshI18n('en-US');
    await i18n.initI18n();
    // what preloadShell asks for; the provider of this page keeps its texts, the next page finds the module loaded
    await i18n.preloadMessages('en-US', ['session']);
    const next = i18n.createI18nProvider('en-US');
    expectTranslated(next.translate, BUNDLES['en-US'].all, keysOf(BUNDLES['en-US'].all));
  });

  it('a language chosen on the sign-in page: its public part at once, its session part after', async () => {
    const i18n = await freshI18n('zh-CN');
    const p = await i18n.initI18n();
    await p.changeLocale('en-US');
    expect(p.translate('shell.login.submit')).toBe(BUNDLES['en-US'].public['shell.login.submit']);
    await vi.waitFor(async () => {
      const q = i18n.createI18nProvider('en-US');
      expect(q.translate(sessionKey)).toBe(BUNDLES['en-US'].all[sessionKey]);
    });
  });
});
