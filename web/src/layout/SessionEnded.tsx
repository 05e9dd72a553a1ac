import { useEffect } from 'react';
import { onSessionEnded, passwordChangedInAnotherTab } from '../lib/api.ts';
import { storageKeys } from '../lib/storage.ts';
import { useToast } from '../ui/toast.tsx';
import { shellText as t } from './messages.ts';

/**
 * A 401 drops the stored token (lib/api.ts) and the member lands on the login screen; this says
 * why, instead of a silent jump: the session ended, or the member was suspended or banned (the
 * server's message names level, reason and end) — also when the page's first read was refused
 * before this was mounted.
 */
export function SessionEnded() {
  const toast = useToast();
  useEffect(() => onSessionEnded((message) => toast.error(message ?? t.sessionEnded)), [toast]);
  // Another tab of this browser changed the password (issue 40): this one signs out now, saying
  // why, not on its next click with the generic notice. (Other devices hear it on the live stream.)
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === storageKeys.passwordChanged && event.newValue !== null) passwordChangedInAnotherTab();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  return null;
}
