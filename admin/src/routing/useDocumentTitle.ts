/** Document title (spec 2): the page's translated title followed by the app title. */
import { useEffect } from 'react';
import { useTranslate } from 'react-admin';
import { metadata } from '../generated/index.ts';

export const TITLE_SEPARATOR = ' - ';

export function documentTitle(translate: (k: string) => string, titleKey?: string): string {
  const app = translate(metadata.app.titleKey);
  return titleKey ? `${translate(titleKey)}${TITLE_SEPARATOR}${app}` : app;
}

export function useDocumentTitle(titleKey?: string): void {
  const translate = useTranslate();
  const title = documentTitle(translate, titleKey);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
