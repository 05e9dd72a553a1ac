/** Client storage of spec §3: token, saved id, auth mode, dark-mode preference. */
const keys = {
  token: 'smm.token',
  savedId: 'smm.savedId',
  authMode: 'smm.authMode',
  darkMode: 'smm.darkMode',
} as const;

export type AuthMode = 'guest' | 'authorized' | 'unauthorized';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the app still works for this visit.
  }
}

export const storage = {
  token: () => read(keys.token),
  setToken: (token: string | null) => write(keys.token, token),
  savedId: () => read(keys.savedId),
  setSavedId: (id: string | null) => write(keys.savedId, id),
  authMode: (): AuthMode | null => {
    const mode = read(keys.authMode);
    return mode === 'guest' || mode === 'authorized' || mode === 'unauthorized' ? mode : null;
  },
  setAuthMode: (mode: AuthMode) => write(keys.authMode, mode),
  darkMode: (): boolean | null => {
    const value = read(keys.darkMode);
    return value === null ? null : value === 'true';
  },
  setDarkMode: (dark: boolean) => write(keys.darkMode, String(dark)),
};
