import { createContext, useCallback, useContext, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import useSWR from 'swr';
import { api, endSession, onUnauthorized } from '../lib/api.ts';
import type { AuthState } from '../lib/statuses.ts';
import { storage } from '../lib/storage.ts';
import type { GuestProfile, Profile } from '../lib/types.ts';

/** Spec §3: the guest profile is the web app's own — point 0, id meaning browse mode, no API key. */
export const guestProfile: GuestProfile = { id: '둘러보기', point: 0, pointDeci: 0, apiKey: null, referralCode: null };

type Auth = {
  state: AuthState;
  profile: Profile | null;
  isMember: boolean;
  isGuest: boolean;
  signIn(accessToken: string): void;
  browseAsGuest(): void;
  signOut(): void;
  /** Re-reads the profile; balance changes arrive on their own through the live channel (lib/live.ts). */
  refreshProfile(): Promise<unknown>;
};

const AuthContext = createContext<Auth | null>(null);

/**
 * Spec §4 auth state: `loading` until the profile answers; a profile gives `authorization`, a
 * failure `unAuthorization`; browse mode (`guest`) is separate and never fetches a profile.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(() => storage.token());
  const [guest, setGuest] = useState(() => !storage.token() && storage.authMode() === 'guest');

  useEffect(
    () =>
      onUnauthorized(() => {
        setToken(null);
        setGuest(false);
      }),
    [],
  );

  const { data: answered, error: failed, mutate } = useSWR<Profile>(token ? ['/auth/profile', token] : null, ([path]: [string]) => api<Profile>(path));
  // The profile's answer renders the whole app (until then every screen waits, spec §2). That
  // render is deferred: React does it in slices of a few milliseconds between which the browser
  // stays responsive, instead of in one long task when the answer lands (SWR's store updates are
  // synchronous renders). A deferred answer counts only for the token it was asked with, so a
  // new sign-in never shows the previous member's profile while the deferred render catches up.
  const current = useMemo(() => ({ token, data: answered, error: failed }), [token, answered, failed]);
  const deferred = useDeferredValue(current);
  const { data, error } = deferred.token === token ? deferred : { data: undefined, error: undefined };

  let state: AuthState;
  if (token) state = data ? 'authorization' : error ? 'unAuthorization' : 'loading';
  else state = guest ? 'guest' : 'unAuthorization';

  const signIn = useCallback((accessToken: string) => {
    storage.setToken(accessToken);
    storage.setAuthMode('authorized');
    setGuest(false);
    setToken(accessToken);
  }, []);
  const browseAsGuest = useCallback(() => {
    storage.setToken(null);
    storage.setAuthMode('guest');
    setToken(null);
    setGuest(true);
  }, []);
  const signOut = useCallback(() => {
    endSession();
    storage.setToken(null);
    storage.setAuthMode('unauthorized');
    setToken(null);
    setGuest(false);
  }, []);

  const value = useMemo<Auth>(
    () => ({
      state,
      profile: state === 'authorization' ? (data ?? null) : state === 'guest' ? guestProfile : null,
      isMember: state === 'authorization',
      isGuest: state === 'guest',
      signIn,
      browseAsGuest,
      signOut,
      refreshProfile: () => mutate(),
    }),
    [state, data, signIn, browseAsGuest, signOut, mutate],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}
