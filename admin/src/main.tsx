/**
 * Entry point: the first language's messages are loaded before the first render (react-admin's
 * polyglot provider needs them synchronously), then the app mounts.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { initI18n } from './providers/i18nProvider.ts';

void initI18n().then((i18nProvider) => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App i18nProvider={i18nProvider} />
    </StrictMode>,
  );
});
