import { useAuth } from '../auth/auth.tsx';
import { formatWon } from '../lib/contracts.ts';
import { useLiveUpdates } from '../lib/live.ts';
import { useToast } from '../ui/toast.tsx';
import { shellText as t } from './messages.ts';

/**
 * Keeps a signed-in member's balance and histories current, with a small notice for completions
 * and refunds. Its own chunk: Layout loads it once the page has loaded and gone idle, so neither
 * its code nor the stream it opens competes with the first paint.
 */
export default function LiveUpdates() {
  const auth = useAuth();
  const toast = useToast();
  useLiveUpdates(auth.isMember ? (auth.profile?.id ?? null) : null, (notice) => {
    if (notice.kind === 'orderCompleted') toast.info(t.orderCompleted(notice.orderId));
    else if (notice.kind === 'ticketAnswered') toast.info(t.ticketAnswered(notice.ticketId));
    else toast.info(t.refunded(formatWon(notice.amountDeci)));
  });
  return null;
}
