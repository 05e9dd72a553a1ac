/** Client storage of spec §3: token, saved id, auth mode, dark-mode preference. */
export const storageKeys = {
  token: 'smm.token',
  savedId: 'smm.savedId',
  authMode: 'smm.authMode',
  darkMode: 'smm.darkMode',
  /** Written when this browser's member changed the password: its other tabs sign out (issue 40). */
  passwordChanged: 'smm.passwordChanged',
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
  token: () => read(storageKeys.token),
  setToken: (token: string | null) => write(storageKeys.token, token),
  savedId: () => read(storageKeys.savedId),
  setSavedId: (id: string | null) => write(storageKeys.savedId, id),
  authMode: (): AuthMode | null => {
    const mode = read(storageKeys.authMode);
    return mode === 'guest' || mode === 'authorized' || mode === 'unauthorized' ? mode : null;
  },
  setAuthMode: (mode: AuthMode) => write(storageKeys.authMode, mode),
  darkMode: (): boolean | null => {
    const value = read(storageKeys.darkMode);
    return value === null ? null : value === 'true';
  },
  setDarkMode: (dark: boolean) => write(storageKeys.darkMode, String(dark)),
  markPasswordChanged: () => write(storageKeys.passwordChanged, String(Date.now())),
};
