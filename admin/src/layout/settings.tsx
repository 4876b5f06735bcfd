/**
 * The settings panel's choices (spec 2: theme colour, tab bar, fixed header, sidebar logo), kept
 * in localStorage under our own key and provided above <Admin> so the theme colour reaches the
 * login page too. Defaults come from metadata (app.themeColor, app.settingsDefaults).
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { metadata } from '../generated/index.ts';
import { KEYS, readJson, writeJson } from '../providers/storage.ts';

export interface Settings {
  themeColor: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
}

export const DEFAULT_SETTINGS: Settings = {
  themeColor: metadata.app.themeColor,
  tagsView: metadata.app.settingsDefaults.tagsView,
  fixedHeader: metadata.app.settingsDefaults.fixedHeader,
  sidebarLogo: metadata.app.settingsDefaults.sidebarLogo,
};

const HEX = /^#[0-9a-fA-F]{6}$/;

/** Stored settings over the defaults; anything malformed falls back to its default. */
export function loadSettings(): Settings {
  const s = readJson<Partial<Settings>>(KEYS.settings) ?? {};
  return {
    themeColor: typeof s.themeColor === 'string' && HEX.test(s.themeColor) ? s.themeColor : DEFAULT_SETTINGS.themeColor,
    tagsView: typeof s.tagsView === 'boolean' ? s.tagsView : DEFAULT_SETTINGS.tagsView,
    fixedHeader: typeof s.fixedHeader === 'boolean' ? s.fixedHeader : DEFAULT_SETTINGS.fixedHeader,
    sidebarLogo: typeof s.sidebarLogo === 'boolean' ? s.sidebarLogo : DEFAULT_SETTINGS.sidebarLogo,
  };
}

interface SettingsContextValue {
  settings: Settings;
  update: (patch: Partial<Settings>) => void;
  reset: () => void;
}

const SettingsContext = createContext<SettingsContextValue | null>(null);

export function SettingsProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<Settings>(loadSettings);
  const update = useCallback((patch: Partial<Settings>) => {
    setSettings((prev) => {
      const next = { ...prev, ...patch };
      writeJson(KEYS.settings, next);
      return next;
    });
  }, []);
  const reset = useCallback(() => {
    writeJson(KEYS.settings, null);
    setSettings({ ...DEFAULT_SETTINGS });
  }, []);
  const value = useMemo(() => ({ settings, update, reset }), [settings, update, reset]);
  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}

export function useSettings(): SettingsContextValue {
  const ctx = useContext(SettingsContext);
  if (!ctx) throw new Error('useSettings must be used inside <SettingsProvider>');
  return ctx;
}
