/** Server-side translation of error codes and messages, from the generated catalogues. */
import { messages, metadata } from '../generated/index.ts';
import { LOCALES, type Locale } from '../../codegen/runtime/model.ts';
import type { MessageArgs } from './errors.ts';

/** A message in `locale` with its placeholders filled; `...Label` arguments are keys, translated too (errors.ts MessageArg). */
export function translate(locale: Locale, key: string, args: MessageArgs = {}): string {
  const text = messages[locale]?.[key] ?? messages[metadata.app.defaultLocale]?.[key] ?? key;
  return text.replace(/%\{(\w+)\}/g, (m, name: string) => {
    if (!(name in args)) return m;
    const v = args[name];
    if (typeof v === 'function') return v(locale);
    if (name.endsWith('Label') && typeof v === 'string') return translate(locale, v);
    return String(v);
  });
}

/** First supported language of an Accept-Language header (zh, zh-CN, en, en-US ...), else null. */
export function pickLocale(header: string | undefined): Locale | null {
  if (!header) return null;
  const wanted = header
    .split(',')
    .map((part) => {
      const [tag, q] = part.trim().split(';q=');
      return { tag: tag.toLowerCase(), q: q ? Number(q) : 1 };
    })
    .sort((a, b) => b.q - a.q);
  for (const { tag } of wanted) {
    const hit = LOCALES.find((l) => l.toLowerCase() === tag || l.slice(0, 2).toLowerCase() === tag.slice(0, 2));
    if (hit) return hit;
  }
  return null;
}

export const isLocale = (v: unknown): v is Locale => typeof v === 'string' && (LOCALES as readonly string[]).includes(v);
