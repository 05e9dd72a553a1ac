import { Link } from 'react-router-dom';
import useSWR from 'swr';
import * as ui from '../../../ui/ui.css.ts';
import { adminText as t } from '../messages.ts';

/** From the orders screen to fulfillment's review queue, with how many wait (admin and staff both settle it). */
export function ReviewLink() {
  const queue = useSWR<unknown[]>('/admin/fulfillment/forwards?state=review&limit=200');
  const waiting = queue.data?.length ?? 0;
  return (
    <Link to="/admin/review" className={ui.link} data-testid="review-link">
      {t.toReview} <span className={waiting > 0 ? ui.badge.danger : ui.badge.neutral}>{queue.data ? (waiting >= 200 ? '200+' : waiting) : '…'}</span>
    </Link>
  );
}
