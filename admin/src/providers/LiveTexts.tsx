/**
 * The texts swapped in place by `npm run dev` (providers/i18nProvider.ts swapMessages), re-rendering
 * only the components that translate. The provider given to <Admin> never changes: a new one would
 * re-render the whole admin from its root (routes, resources, layout: a second and more on a loaded
 * machine for one label). Here the swapped provider is given to react-admin's I18nContext below
 * <Admin>; this component's children are the same elements as before, so React re-renders only the
 * context's consumers (every useTranslate), not the components between them.
 */
import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { I18nContext, useI18nProvider, type I18nProvider } from 'react-admin';
import { onMessagesSwapped } from './i18nProvider.ts';
import { devLoopTrace } from './devLoopTrace.ts';

export function LiveTexts({ children }: { children: ReactNode }) {
  const given = useI18nProvider();
  // a language change remounts everything below <Admin> (react-admin's I18nContextProvider): back to the given provider
  const [swapped, setSwapped] = useState<I18nProvider | null>(null);
  useEffect(() => onMessagesSwapped(setSwapped), []);
  useLayoutEffect(() => {
    if (swapped) devLoopTrace('texts committed');
  }, [swapped]);
  return <I18nContext.Provider value={swapped ?? given}>{children}</I18nContext.Provider>;
}
