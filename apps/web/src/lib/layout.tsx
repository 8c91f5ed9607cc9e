import { useMantineColorScheme } from '@mantine/core';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { STORAGE_KEYS } from './session.js';

/** Layout settings of spec §3, kept in local storage and applied at once. */
export interface LayoutSettings {
  layoutType: 'vertical' | 'horizontal';
  layoutMode: 'light' | 'dark';
  layoutWidth: 'fluid' | 'boxed';
  layoutPosition: 'fixed' | 'scrollable';
  topbarTheme: 'light' | 'dark';
  /** lg default, md compact, sm small icon view. */
  sidebarSize: 'lg' | 'md' | 'sm';
  sidebarTheme: 'light' | 'dark' | 'brand';
  isPreloader: boolean;
}

export const DEFAULT_LAYOUT: LayoutSettings = {
  layoutType: 'vertical',
  layoutMode: 'light',
  layoutWidth: 'fluid',
  layoutPosition: 'fixed',
  topbarTheme: 'light',
  sidebarSize: 'lg',
  sidebarTheme: 'light',
  isPreloader: false,
};

/** The choices the Theme Customizer offers, per setting (spec §2 "Theme Customizer"). */
export const LAYOUT_CHOICES = {
  layoutType: ['vertical', 'horizontal'],
  layoutMode: ['light', 'dark'],
  layoutWidth: ['fluid', 'boxed'],
  layoutPosition: ['fixed', 'scrollable'],
  topbarTheme: ['light', 'dark'],
  sidebarSize: ['lg', 'md', 'sm'],
  sidebarTheme: ['light', 'dark', 'brand'],
} as const satisfies Partial<Record<keyof LayoutSettings, readonly string[]>>;

export function loadLayout(): LayoutSettings {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEYS.layout) ?? '{}') as Partial<LayoutSettings>;
    const settings = { ...DEFAULT_LAYOUT };
    for (const [key, choices] of Object.entries(LAYOUT_CHOICES) as Array<[keyof typeof LAYOUT_CHOICES, readonly string[]]>) {
      const value = stored[key];
      if (typeof value === 'string' && choices.includes(value)) (settings as Record<string, unknown>)[key] = value;
    }
    return settings;
  } catch {
    return { ...DEFAULT_LAYOUT };
  }
}

interface LayoutState {
  settings: LayoutSettings;
  update(change: Partial<LayoutSettings>): void;
  /** The Theme Customizer panel; kept here so it stays open while the layout changes under it. */
  customizerOpen: boolean;
  setCustomizerOpen(open: boolean): void;
}

const LayoutContext = createContext<LayoutState | null>(null);

export function LayoutProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<LayoutSettings>(loadLayout);
  const [customizerOpen, setCustomizerOpen] = useState(false);
  const { setColorScheme } = useMantineColorScheme();

  useEffect(() => {
    setColorScheme(settings.layoutMode);
    const root = document.documentElement;
    root.dataset.layout = settings.layoutType;
    root.dataset.layoutWidth = settings.layoutWidth;
    root.dataset.layoutPosition = settings.layoutPosition;
    root.dataset.topbar = settings.topbarTheme;
    root.dataset.sidebarSize = settings.sidebarSize;
    root.dataset.sidebar = settings.sidebarTheme;
  }, [settings, setColorScheme]);

  const update = useCallback((change: Partial<LayoutSettings>) => {
    setSettings((current) => {
      const next = { ...current, ...change };
      localStorage.setItem(STORAGE_KEYS.layout, JSON.stringify(next));
      return next;
    });
  }, []);

  const value = useMemo(() => ({ settings, update, customizerOpen, setCustomizerOpen }), [settings, update, customizerOpen]);
  return <LayoutContext.Provider value={value}>{children}</LayoutContext.Provider>;
}

export function useLayout(): LayoutState {
  const context = useContext(LayoutContext);
  if (!context) throw new Error('useLayout outside LayoutProvider');
  return context;
}
