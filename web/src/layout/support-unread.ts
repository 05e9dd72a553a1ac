import useSWR from 'swr';
import { useAuth } from '../auth/auth.tsx';
import { useLoadedAndIdle } from '../lib/idle.ts';

/**
 * How many of the member's support tickets (issue 40) hold an answer they have not opened. Read
 * once the page has loaded and gone idle (not competing with the page's own data), and again when
 * the live channel says a ticket changed (its `/support/` keys).
 */
export function useSupportUnread(): number {
  const { isMember } = useAuth();
  const idle = useLoadedAndIdle();
  const { data } = useSWR<{ count: number }>(isMember && idle ? '/support/unread' : null);
  return data?.count ?? 0;
}
