/**
 * A login continues in the open page: the session's metadata is installed (the route table rebuilt
 * with it), the language's session texts and the first screen's code are fetched, and App mounts
 * the admin anew with them. The sign-in page has fetched the layout, the screens' entry and the data
 * provider while the user typed (layout/LazyLayout.tsx, preloadShell), so nothing is fetched or
 * evaluated twice. A login used to start a fresh page at its target: the document, its scripts and
 * their evaluation again, about 400 ms of a login's page ready on this machine
 * (docs/home-and-notifications.md).
 */
import type { I18nProvider } from 'react-admin';
import { createI18nProvider, currentLocale, preloadMessages } from '../providers/i18nProvider.ts';
import { loadSessionMetadata } from '../providers/sessionMetadata.ts';

type Listener = (i18nProvider: I18nProvider) => void;
const listeners = new Set<Listener>();

/** App takes the new session's texts and mounts the admin anew. */
export function onSessionEntered(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/**
 * After a successful login (its token stored): brings the session into this page, ready to show
 * `target`. False when it could not (no app mounted, the metadata or texts not fetched): the caller
 * then opens `target` as a fresh page, which loads them as any page with a session does.
 */
export async function enterSession(target: string): Promise<boolean> {
  if (!listeners.size) return false;
  try {
    if ((await loadSessionMetadata()) !== 'session') return false;
    const locale = currentLocale();
    const pathname = new URL(target, window.location.origin).pathname;
    const landing = import('../routing/landing.ts').then((m) => m.preloadLanding(pathname));
    await Promise.all([preloadMessages(locale), landing]);
    const i18nProvider = createI18nProvider(locale);
    for (const listener of listeners) listener(i18nProvider);
    return true;
  } catch {
    return false;
  }
}
