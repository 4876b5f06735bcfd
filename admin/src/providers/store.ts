/**
 * react-admin's Store (list parameters, column choices, ...) in localStorage, except the 'locale'
 * key: react-admin's I18nContextProvider reads and writes the current language there, and logout
 * resets the Store. We answer 'locale' from our own preference instead, so the language a user
 * picked survives logout (react-admin #8805), while list parameters are still cleared by it.
 */
import { localStorageStore, type Store } from 'react-admin';
import type { Locale } from '../../../codegen/runtime/model.ts';
import { getStoredLocale } from './storage.ts';
import { saveLocale } from './i18nProvider.ts';

export function portalStore(base: Store = localStorageStore('1', 'Portal')): Store {
  return {
    ...base,
    getItem<T = unknown>(key: string, defaultValue?: T): T | undefined {
      if (key === 'locale') return (getStoredLocale() as unknown as T) ?? defaultValue;
      return base.getItem<T>(key, defaultValue);
    },
    setItem<T = unknown>(key: string, value: T): void {
      if (key === 'locale' && typeof value === 'string') saveLocale(value as Locale);
      // still written to the base store so its subscribers (useLocaleState) hear of the change
      base.setItem(key, value);
    },
  };
}
