/**
 * Polyglot i18n with zh-CN (default) and en-US. Messages of a language = react-admin's own ra.*
 * dictionary (ours for zh-CN, ra-language-english for en-US) + the generated metadata bundle
 * (labels, errors, code labels) + the shell's texts. The generated bundles load on demand; the
 * first language is loaded before the app renders because ra-i18n-polyglot needs it synchronously
 * (only its public part on a page without a session: see MessagePart).
 *
 * The language comes from our own stored preference (localStorage 'portal.locale', which logout
 * does not touch), else the browser, else metadata's default. react-admin keeps the current locale
 * in its Store under 'locale'; portalStore (store.ts) maps that key onto our preference.
 */
/// <reference types="vite/client" />
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import type { Locale } from '../../../codegen/runtime/model.ts';
import { loadMessageParts, metadata } from '../generated/index.ts';
import { LOCALE_NAMES } from '../i18n/shell.ts';
import { getStoredLocale, getToken, setStoredLocale } from './storage.ts';
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

/**
 * A language's messages come in two parts (codegen's splitMessages): 'public', what a page without
 * a session can show (sign-in, forgot and reset password, error pages), and 'session', the rest.
 * A page without a session needs only the first before it renders; it fetches the second once idle
 * (layout/LazyLayout.tsx, preloadShell), and a login waits for it (auth/enterSession.ts).
 */
export type MessagePart = keyof (typeof loadMessageParts)[Locale];
const ALL_PARTS: readonly MessagePart[] = ['public', 'session'];
export const partsForThisPage = (): readonly MessagePart[] => (getToken() ? ALL_PARTS : ['public']);

const appBundles: Partial<Record<Locale, Record<string, string>>> = {};
const loadedParts: Partial<Record<Locale, Set<MessagePart>>> = {};
const loading = new Map<string, Promise<void>>();

function loadPart(locale: Locale, part: MessagePart): Promise<void> {
  if (loadedParts[locale]?.has(part)) return Promise.resolve();
  const key = `${locale}:${part}`;
  let p = loading.get(key);
  if (!p) {
    const ra = part === 'public' ? raDictionaries[locale]() : Promise.resolve(null);
    p = Promise.all([loadMessageParts[locale][part](), ra])
      .then(([m, raModule]) => {
        const { $comment: _ignored, ...rest } = m;
        appBundles[locale] = { ...appBundles[locale], ...rest };
        if (raModule) raLoaded[locale] = raModule.default;
        (loadedParts[locale] ??= new Set()).add(part);
      })
      .finally(() => loading.delete(key));
    loading.set(key, p);
  }
  return p;
}

const hasParts = (locale: Locale, parts: readonly MessagePart[]) => parts.every((part) => loadedParts[locale]?.has(part));

/** Loads the parts of a language's messages not loaded yet (by default all of them). */
export async function preloadMessages(locale: Locale, parts: readonly MessagePart[] = ALL_PARTS): Promise<void> {
  await Promise.all(parts.map((part) => loadPart(locale, part)));
}

/**
 * react-admin's own texts (ra.*), one chunk per language loaded with the public part (the public
 * pages show a few: notifications, loading, the error page), so a page carries its language's only.
 * admin/preloadApp.ts finds these chunks by their modules' names (src/i18n/ra.<locale>.ts).
 */
const raDictionaries: Record<Locale, () => Promise<{ default: TranslationMessages }>> = {
  'zh-CN': () => import('../i18n/ra.zh-CN.ts'),
  'en-US': () => import('../i18n/ra.en-US.ts'),
};
const raLoaded: Partial<Record<Locale, TranslationMessages>> = {};

function messagesOf(locale: Locale): TranslationMessages {
  return { ...raLoaded[locale], ...(appBundles[locale] ?? {}) } as TranslationMessages;
}

let provider: I18nProvider | null = null;

/** Builds the provider for `locale` (its bundle must be preloaded). */
export function createI18nProvider(locale: Locale): I18nProvider {
  const getMessages = (l: string): TranslationMessages | Promise<TranslationMessages> => {
    const loc = isLocale(l) ? l : metadata.app.defaultLocale;
    const parts = partsForThisPage();
    if (hasParts(loc, parts)) return messagesOf(loc);
    return preloadMessages(loc, parts).then(() => messagesOf(loc));
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
  // <html lang> follows the language (fonts, screen readers); a language chosen on the sign-in page
  // is the next page's: its session part is fetched, as the first language's is once the page is idle
  const changed = (l: string) => {
    setLang(l);
    if (isLocale(l)) void preloadMessages(l, ['session']).catch(() => undefined);
  };
  const wrapped: I18nProvider = { ...p, changeLocale: (l: string, o?: unknown) => Promise.resolve(p.changeLocale(l, o)).then(() => changed(l)) };
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

const sameTexts = (a: Record<string, string>, b: Record<string, string> | undefined) =>
  !!b && Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

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
    if (sameTexts(rest, appBundles[l])) continue;
    // the language counts as loaded whole from now on: react-admin's own texts too, which otherwise
    // come with its public part (a language not shown yet would switch to keys like ra.action.save)
    raLoaded[l] ??= (await raDictionaries[l]()).default;
    appBundles[l] = rest;
    loadedParts[l] = new Set(ALL_PARTS);
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

/** Tests: forgets every loaded message, the provider and the swap listeners, as a page that has loaded none yet. */
export function resetI18n(): void {
  for (const l of SUPPORTED) {
    delete appBundles[l];
    delete loadedParts[l];
    delete raLoaded[l];
  }
  loading.clear();
  provider = null;
  swapListeners.clear();
}

/** Preloads the resolved language and builds the provider (main.tsx awaits this before rendering). */
export async function initI18n(): Promise<I18nProvider> {
  const locale = resolveLocale();
  await preloadMessages(locale, partsForThisPage());
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
