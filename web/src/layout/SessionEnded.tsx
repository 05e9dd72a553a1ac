import { useEffect } from 'react';
import { onSessionEnded } from '../lib/api.ts';
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
  return null;
}
