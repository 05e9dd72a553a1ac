import { setElementVars } from '@vanilla-extract/dynamic';
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { keys, useSettings } from '../lib/settings.ts';
import { storage } from '../lib/storage.ts';
import { noticeColours } from './contrast.ts';
import { noticeTheme, vars } from './contract.css.ts';

type ThemeApi = { dark: boolean; toggle(): void };
const ThemeContext = createContext<ThemeApi | null>(null);

function initialDark(): boolean {
  const stored = storage.darkMode();
  if (stored !== null) return stored;
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}

const colourPattern = /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|hsla?\([\d\s.,%deg]+\))$/i;

/**
 * Dark or light theme (spec §2): stored under the dark-mode key, the browser preference otherwise.
 * The main colour and the notice highlight colour come from the site settings.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  const [dark, setDark] = useState(initialDark);
  const settings = useSettings();
  const main = settings.get(keys.mainColor);
  const notice = settings.get(keys.noticeBoldColor);

  useEffect(() => {
    document.documentElement.classList.toggle('theme-dark', dark);
  }, [dark]);

  useEffect(() => {
    const root = document.documentElement;
    if (colourPattern.test(main)) setElementVars(root, { [vars.color.primary]: main });
  }, [main]);

  // The notice colour keeps its hue but is shaded to stay readable (4.5:1) on its tint in this theme.
  useEffect(() => {
    const theme = dark ? noticeTheme.dark : noticeTheme.light;
    const pair = noticeColours(notice, theme.surface, theme.tint);
    if (pair) setElementVars(document.documentElement, { [vars.color.notice]: pair.ink, [vars.color.noticeSoft]: pair.soft });
  }, [notice, dark]);

  const toggle = useCallback(() => {
    setDark((value) => {
      storage.setDarkMode(!value);
      return !value;
    });
  }, []);
  const api = useMemo(() => ({ dark, toggle }), [dark, toggle]);
  return <ThemeContext.Provider value={api}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeApi {
  const api = useContext(ThemeContext);
  if (!api) throw new Error('useTheme outside ThemeProvider');
  return api;
}
