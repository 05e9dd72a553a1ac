import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/auth.tsx';
import { shellText } from '../layout/messages.ts';
import type { SettingKey } from '../lib/contracts.ts';
import { useSettings } from '../lib/settings.ts';
import { useToast } from '../ui/toast.tsx';

/** Member-only screens (spec §6): guests get the refusal message, others go to the login form. */
export function MemberOnly() {
  const auth = useAuth();
  const toast = useToast();
  const location = useLocation();
  useEffect(() => {
    if (auth.isGuest) toast.info(shellText.guestRefusal);
  }, [auth.isGuest, toast]);
  if (auth.isMember) return <Outlet />;
  return <Navigate to={auth.isGuest ? '/order' : '/login'} replace state={{ from: location.pathname }} />;
}

/** Login and registration: a signed-in member goes to the order screen instead. */
export function VisitorsOnly() {
  const auth = useAuth();
  if (auth.isMember) return <Navigate to="/order" replace />;
  return <Outlet />;
}

/** A screen behind a site setting (FAQ, price list): off → the order screen. */
export function WhenEnabled({ setting, children }: { setting: SettingKey; children: ReactNode }) {
  const settings = useSettings();
  if (!settings.loaded) return null;
  if (!settings.enabled(setting)) return <Navigate to="/order" replace />;
  return <>{children}</>;
}

/** /logout: clears the stored token and reloads the site root (spec §2). */
export function Logout() {
  const auth = useAuth();
  useEffect(() => {
    auth.signOut();
    window.location.replace('/');
  }, [auth]);
  return null;
}
