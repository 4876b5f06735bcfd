/**
 * The screen definitions as a store the page reads at render time, swapped in place by `npm run dev`.
 *
 * The route table, the resources and the menu are built once as the app's modules load, so a change
 * to them (a screen added, removed or moved, an entity added) still reloads the page. Everything a
 * screen draws (columns, filters, buttons, actions, fields, rules) is read from the installed
 * metadata when it renders: an edit that changes only that installs the session's new metadata and
 * re-renders the open screen, keeping what the user typed, selected and scrolled. Vite sends
 * 'portal:metadata' once the API serves the new metadata (admin/vite.config.ts).
 */
import { useSyncExternalStore } from 'react';
import type { CompiledMetadata } from '../../../codegen/runtime/model.ts';
import { metadata } from '../generated/index.ts';
import { installSessionAnswer, type SessionMetaAnswer } from './sessionMetadata.ts';
import { swapMessages } from './i18nProvider.ts';
import { getToken } from './storage.ts';

/** What the modules built at load time depend on: when it differs, the page reloads. */
export function routeShape(m: CompiledMetadata): string {
  const screens = m.screens.map((s) => [s.name, s.path, s.kind, s.component ?? '', s.hidden, s.menu ?? null, s.titleKey, s.roles]);
  return JSON.stringify([screens, Object.keys(m.entities).sort(), Object.keys(m.resources).sort(), m.app.menuGroups]);
}

let version = 0;
const listeners = new Set<() => void>();

/** Re-renders the caller after each swap (its screen definition is then read again). */
export function useMetadataVersion(): number {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
    () => version,
  );
}

/** Installs new session metadata in place when the route table is unchanged; false when the page must reload. */
export function swapMetadata(answer: SessionMetaAnswer): boolean {
  const { schemas: _schemas, ...next } = answer;
  if (!next.entities || routeShape(next as CompiledMetadata) !== routeShape(metadata)) return false;
  if (!installSessionAnswer(answer)) return false;
  version++;
  for (const l of listeners) l();
  return true;
}

/** Fetches the session's metadata and swaps it in (with the new texts), or reloads the page. */
async function swapFromServer(bundles: Record<string, unknown>): Promise<void> {
  const token = getToken();
  const res = token ? await fetch('/api/meta', { headers: { authorization: `Bearer ${token}` } }).catch(() => null) : null;
  const answer = res?.ok ? ((await res.json()) as SessionMetaAnswer) : null;
  if (!answer) return location.reload();
  await swapMessages(bundles);
  if (!swapMetadata(answer)) location.reload();
}

if (import.meta.hot) import.meta.hot.on('portal:metadata', (data: { bundles: Record<string, unknown> }) => void swapFromServer(data.bundles));
