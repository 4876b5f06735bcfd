/**
 * The screen definitions as a store the page reads at render time, swapped in place by `npm run dev`.
 *
 * The route table and the resources are built when the admin mounts (a login mounts it anew with the
 * session's: auth/enterSession.ts), so a change to them (a screen added, removed or moved, an entity
 * added) still reloads the page. Everything a
 * screen draws (columns, filters, buttons, actions, fields, rules) is read from the installed
 * metadata when it renders: an edit that changes only that installs the session's new metadata and
 * re-renders the open screen, keeping what the user typed, selected and scrolled. Vite sends
 * 'portal:metadata' with the edited model as soon as codegen has written it: the page makes its
 * session's view of it as the API does (codegen/runtime/session-metadata.ts) and swaps at once;
 * then again once the API serves the same metadata, when a page that could not swap (its route
 * table changed, or no session) fetches it from the API or reloads (admin/vite.config.ts).
 */
import { useSyncExternalStore } from 'react';
import type { CompiledMetadata, Profile } from '../../../codegen/runtime/model.ts';
import type { EntitySchemas } from '../../../codegen/runtime/field-schema.ts';
import { sessionMetadata } from '../../../codegen/runtime/session-metadata.ts';
import { metadata, schemas } from '../generated/index.ts';
import { installSessionAnswer, type SessionMetaAnswer } from './sessionMetadata.ts';
import { swapMessages } from './i18nProvider.ts';
import { getToken } from './storage.ts';
import { devLoopTrace } from './devLoopTrace.ts';

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

/** The hash this page swapped in from the dev server's model: the API's later word about it changes nothing. */
let swappedHash: string | null = null;

/** The profile this page's session metadata is for (it carries only its own profile's part of the matrix), or null before login. */
function sessionProfile(): Profile | null {
  if (!metadata.entities || !Object.keys(metadata.entities).length) return null;
  const profiles = Object.keys(metadata.access.profiles) as Profile[];
  return profiles.length === 1 ? profiles[0]! : null;
}

/**
 * Swaps in the session's view of the edited model (codegen/runtime/session-metadata.ts, as the API
 * makes it) without waiting for the server's reload; false when it cannot (no session, or the route
 * table changed: the API's word is awaited, then the page reloads).
 */
async function swapFromModel(hash: string, bundles: Record<string, unknown>, model: DevModel): Promise<boolean> {
  const profile = sessionProfile();
  if (!profile) return false;
  const answer = sessionMetadata(model.metadata, model.schemas ?? schemas, profile) as SessionMetaAnswer;
  await swapMessages(bundles);
  if (!swapMetadata(answer)) return false;
  swappedHash = hash;
  return true;
}

/** Fetches the session's metadata and swaps it in (with the new texts), or reloads the page. */
async function swapFromServer(bundles: Record<string, unknown>): Promise<void> {
  const token = getToken();
  const res = token ? await fetch('/api/meta', { headers: { authorization: `Bearer ${token}` } }).catch(() => null) : null;
  const answer = res?.ok ? ((await res.json()) as SessionMetaAnswer) : null;
  devLoopTrace('session metadata fetched');
  if (!answer) return location.reload();
  await swapMessages(bundles);
  if (!swapMetadata(answer)) return location.reload();
  devLoopTrace('screens swapped');
}

/** The dev server's model of an edit (admin/vite.config.ts: the whole metadata, dev only; the schemas when they changed). */
type DevModel = { metadata: CompiledMetadata; schemas?: Record<string, EntitySchemas> };

/** 'portal:metadata' comes at once with the model, then again (without it) once the API serves the same hash. */
export async function onMetadata(data: { hash: string; bundles: Record<string, unknown>; model?: DevModel }): Promise<void> {
  if (data.model) {
    devLoopTrace('screens received');
    if (await swapFromModel(data.hash, data.bundles, data.model)) {
      devLoopTrace('screens swapped');
    }
    return;
  }
  if (swappedHash !== data.hash) await swapFromServer(data.bundles);
}

if (import.meta.hot) import.meta.hot.on('portal:metadata', (data: Parameters<typeof onMetadata>[0]) => void onMetadata(data));
