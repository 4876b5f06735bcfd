/**
 * Polyglot i18n with zh-CN (default) and en-US. Messages of a language = react-admin's own ra.*
 * dictionary (ours for zh-CN, ra-language-english for en-US) + the generated metadata bundle
 * (labels, errors, code labels) + the shell's texts. The generated bundles load on demand; the
 * first language is loaded before the app renders because ra-i18n-polyglot needs it synchronously.
 *
 * The language comes from our own stored preference (localStorage 'portal.locale', which logout
 * does not touch), else the browser, else metadata's default. react-admin keeps the current locale
 * in its Store under 'locale'; portalStore (store.ts) maps that key onto our preference.
 */
/// <reference types="vite/client" />
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import type { Locale } from '../../../codegen/runtime/model.ts';
import { loadMessages, metadata } from '../generated/index.ts';
import { raChineseMessages } from '../i18n/zh-CN.ts';
import { LOCALE_NAMES } from '../i18n/shell.ts';
import { getStoredLocale, setStoredLocale } from './storage.ts';
import { pickLocale } from './localeChoice.ts';
import { devLoopTrace } from './devLoopTrace.ts';

export const SUPPORTED: readonly Locale[] = metadata.app.locales;
const isLocale = (v: unknown): v is Locale => typeof v === 'string' && (SUPPORTED as readonly string[]).includes(v);

/** Maps a browser language tag onto a supported locale by its language part (zh-TW -> zh-CN). */
export function matchLocale(tag: string | undefined | null): Locale | null {
  return pickLocale(null, [tag], SUPPORTED, null);
}

/** Stored preference, else the browser's languages in order, else the metadata default. */
export function resolveLocale(): Locale {
  const tags = typeof navigator !== 'undefined' ? [...(navigator.languages ?? []), navigator.language] : [];
  return pickLocale(getStoredLocale(), tags, SUPPORTED, metadata.app.defaultLocale) ?? metadata.app.defaultLocale;
}

/** Remember the user's choice (login page or header); it survives logout. */
export function saveLocale(locale: Locale): void {
  if (isLocale(locale)) setStoredLocale(locale);
}

const appBundles: Partial<Record<Locale, Record<string, string>>> = {};

export async function preloadMessages(locale: Locale): Promise<void> {
  if (appBundles[locale]) return;
  const m = await loadMessages[locale]();
  const { $comment: _ignored, ...rest } = m;
  appBundles[locale] = rest;
}

const raDictionary = (locale: Locale): TranslationMessages => (locale === 'zh-CN' ? raChineseMessages : englishMessages);

function messagesOf(locale: Locale): TranslationMessages {
  return { ...raDictionary(locale), ...(appBundles[locale] ?? {}) } as TranslationMessages;
}

let provider: I18nProvider | null = null;

/** Builds the provider for `locale` (its bundle must be preloaded). */
export function createI18nProvider(locale: Locale): I18nProvider {
  const getMessages = (l: string): TranslationMessages | Promise<TranslationMessages> => {
    const loc = isLocale(l) ? l : metadata.app.defaultLocale;
    if (appBundles[loc]) return messagesOf(loc);
    return preloadMessages(loc).then(() => messagesOf(loc));
  };
  const p = polyglotI18nProvider(
    getMessages,
    locale,
    SUPPORTED.map((l) => ({ locale: l, name: LOCALE_NAMES[l] })),
    // all four arguments: ra-i18n-polyglot drops options given third when the locale changes.
    // A missing key shows its default (`_`) or the key, without a console warning per render.
    { allowMissing: true },
  );
  const setLang = (l: string) => {
    if (typeof document !== 'undefined') document.documentElement.lang = l;
  };
  setLang(locale);
  // <html lang> follows the language (fonts, screen readers)
  const wrapped: I18nProvider = { ...p, changeLocale: (l: string, o?: unknown) => Promise.resolve(p.changeLocale(l, o)).then(() => setLang(l)) };
  provider = wrapped;
  return wrapped;
}

type ProviderListener = (p: I18nProvider) => void;
const swapListeners = new Set<ProviderListener>();

/** App renders with the provider given after a swap (a new object, so that react-admin's translate re-renders its texts). */
export function onMessagesSwapped(listener: ProviderListener): () => void {
  swapListeners.add(listener);
  return () => void swapListeners.delete(listener);
}

/**
 * Replaces the metadata message bundles in place and re-renders the texts, without reloading the
 * page: `npm run dev` sends the new bundles when a metadata edit changed only texts (admin/vite.config.ts).
 */
export async function swapMessages(bundles: Record<string, unknown>): Promise<void> {
  let changed = false;
  for (const l of SUPPORTED) {
    const m = bundles[l];
    if (!m || typeof m !== 'object') continue;
    const { $comment: _ignored, ...rest } = m as Record<string, string>;
    // the same texts (a column or an action edit sends them too) re-render nothing: the whole app re-renders on a swap
    if (JSON.stringify(rest) === JSON.stringify(appBundles[l])) continue;
    appBundles[l] = rest;
    changed = true;
  }
  if (!provider || !changed) return;
  await provider.changeLocale(provider.getLocale());
  provider = { ...provider };
  for (const listener of swapListeners) listener(provider);
  devLoopTrace('texts swapped');
}

if (import.meta.hot)
  import.meta.hot.on('portal:messages', (data: { bundles: Record<string, unknown> }) => {
    devLoopTrace('texts received');
    void swapMessages(data.bundles);
  });

/** Preloads the resolved language and builds the provider (main.tsx awaits this before rendering). */
export async function initI18n(): Promise<I18nProvider> {
  const locale = resolveLocale();
  await preloadMessages(locale);
  return createI18nProvider(locale);
}

/** The current UI language, for Accept-Language and the login call. */
export function currentLocale(): Locale {
  const l = provider?.getLocale();
  return isLocale(l) ? l : resolveLocale();
}

/** Translation outside React (providers, HTTP layer). Falls back to the key before init. */
export function translate(key: string, args: Record<string, unknown> = {}): string {
  return provider ? provider.translate(key, args) : String(args._ ?? key);
}
