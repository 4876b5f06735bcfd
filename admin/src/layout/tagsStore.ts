/**
 * Visited pages as tabs (spec 2 and 9): pinned tabs (the dashboard) first and never closed; at
 * most app.maxTabs tabs, the oldest non-pinned one dropped first. Kept in sessionStorage (per
 * browser tab, survives a reload; react-admin's Store is not used because it is a different
 * lifetime) and cleared on logout. Pure functions + a tiny external store for React.
 */
import { metadata } from '../generated/index.ts';
import { getToken, KEYS, readJson, subscribeSession, writeJson } from '../providers/storage.ts';

export interface Tab {
  /** the pathname: one tab per page */
  path: string;
  /** pathname + search, where a click on the tab goes */
  fullPath: string;
  titleKey: string;
  pinned: boolean;
}

export const MAX_TABS = metadata.app.maxTabs;

const pinnedFirst = (tabs: Tab[]): Tab[] => [...tabs.filter((t) => t.pinned), ...tabs.filter((t) => !t.pinned)];

/** Adds or updates a tab, then drops the oldest non-pinned tabs above the limit. */
export function addTab(tabs: Tab[], tab: Tab, max = MAX_TABS): Tab[] {
  const i = tabs.findIndex((t) => t.path === tab.path);
  let next = i >= 0 ? tabs.map((t, j) => (j === i ? { ...t, fullPath: tab.fullPath, titleKey: tab.titleKey } : t)) : [...tabs, tab];
  next = pinnedFirst(next);
  while (next.length > max) {
    const oldest = next.findIndex((t) => !t.pinned && t.path !== tab.path);
    if (oldest < 0) break;
    next = next.filter((_, j) => j !== oldest);
  }
  return next;
}

export const closeTab = (tabs: Tab[], path: string): Tab[] => tabs.filter((t) => t.pinned || t.path !== path);
export const closeOtherTabs = (tabs: Tab[], path: string): Tab[] => tabs.filter((t) => t.pinned || t.path === path);
export const closeAllTabs = (tabs: Tab[]): Tab[] => tabs.filter((t) => t.pinned);
export const keepTabs = (tabs: Tab[], keep: (t: Tab) => boolean): Tab[] => tabs.filter((t) => t.pinned || keep(t));

// ---- the store ---------------------------------------------------------------------------------

let current: Tab[] = readJson<Tab[]>(KEYS.tabs, 'session') ?? [];
const listeners = new Set<() => void>();

export const tagsStore = {
  subscribe(l: () => void): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  get: (): Tab[] => current,
  set(next: Tab[]): void {
    if (next === current) return;
    current = next;
    writeJson(KEYS.tabs, next.length ? next : null, 'session');
    listeners.forEach((l) => l());
  },
  /** re-read after logout cleared sessionStorage */
  reload(): void {
    tagsStore.set(readJson<Tab[]>(KEYS.tabs, 'session') ?? []);
  },
};

// logout (or a dropped token) ends the visited pages with the session
subscribeSession(() => {
  if (!getToken() && current.length) tagsStore.set([]);
});
