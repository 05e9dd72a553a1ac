import { Link } from 'react-router-dom';
import useSWR from 'swr';
import { useAuth } from '../../../auth/auth.tsx';
import * as ui from '../../../ui/ui.css.ts';
import { adminText as t } from '../messages.ts';

/** From the orders screen to fulfillment's review queue, with how many wait (admins only: the queue is theirs). */
export function ReviewLink() {
  const admin = useAuth().profile?.role === 'admin';
  const queue = useSWR<unknown[]>(admin ? '/admin/fulfillment/forwards?state=review&limit=200' : null);
  if (!admin) return null;
  const waiting = queue.data?.length ?? 0;
  return (
    <Link to="/admin/review" className={ui.link} data-testid="review-link">
      {t.toReview} <span className={waiting > 0 ? ui.badge.danger : ui.badge.neutral}>{queue.data ? (waiting >= 200 ? '200+' : waiting) : '…'}</span>
    </Link>
  );
}
