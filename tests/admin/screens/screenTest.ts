/**
 * The lifecycle every screen test in jsdom shares: the English catalogue and the screen's lazy chunk
 * loaded once (so that the first test's wait is for rendering, not for transforming the module), a
 * signed-in supplier before each test, a clean DOM and browser state after each.
 */
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import type { I18nProvider } from 'react-admin';
import { createI18nProvider, preloadMessages } from '../../../admin/src/providers/i18nProvider.ts';
import { setToken, setUser, type PortalUser } from '../../../admin/src/providers/storage.ts';
import { resetBrowserState, supplierUser } from '../helpers.ts';

/** Registers the hooks; the answer gives the English i18n provider once `beforeAll` has run. */
export function screenTestLifecycle(preloadScreen: () => Promise<unknown>): () => I18nProvider {
  let i18n: I18nProvider | undefined;
  beforeAll(async () => {
    await preloadMessages('en-US');
    await preloadScreen();
    i18n = createI18nProvider('en-US');
  });
  beforeEach(() => {
    setToken('t');
    setUser({ ...supplierUser } as unknown as PortalUser);
  });
  afterEach(() => {
    cleanup();
    resetBrowserState();
  });
  return () => {
    if (!i18n) throw new Error('screenTestLifecycle: the i18n provider is made in beforeAll');
    return i18n;
  };
}
