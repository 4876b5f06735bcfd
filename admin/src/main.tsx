/**
 * Entry point: the first language's messages are loaded before the first render (react-admin's
 * polyglot provider needs them synchronously), a page with a session installs its metadata
 * (providers/sessionMetadata.ts), and only then are the app's modules loaded, since they read the
 * metadata as they load; with them the code of the screen the page opens at (routing/landing.ts).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n, translate } from './providers/i18nProvider.ts';
import { loadSessionMetadata } from './providers/sessionMetadata.ts';

const root = document.getElementById('root')!;
const i18nReady = initI18n();
// a server that is restarting is waited for: say so in the page's language
const showWaiting = (waiting: boolean) =>
  void i18nReady.then(() => {
    root.textContent = '';
    if (!waiting) return;
    // the layout's banner (layout/ConnectionBanner.tsx) is not loaded yet: the same words, plainly
    const banner = document.createElement('p');
    banner.setAttribute('role', 'status');
    banner.dataset.testid = 'reconnecting';
    banner.style.cssText = 'margin:16px;font:14px sans-serif;color:#8a5300';
    banner.textContent = translate('message.reconnecting');
    root.append(banner);
  });

void Promise.all([i18nReady, loadSessionMetadata(showWaiting)]).then(async ([i18nProvider, session]) => {
  // a session's first screen renders without suspending: its code comes with the app's (routing/landing.ts)
  const landing = session === 'session' ? import('./routing/landing.ts').then((m) => m.preloadLanding(window.location.pathname)) : undefined;
  const [{ App }] = await Promise.all([import('./App.tsx'), landing?.catch(() => undefined)]);
  root.textContent = '';
  createRoot(root).render(
    <StrictMode>
      <App i18nProvider={i18nProvider} />
    </StrictMode>,
  );
});
