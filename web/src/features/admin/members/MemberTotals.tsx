import type { MemberTotalsBody } from '@smm/contracts/http';
import useSWR from 'swr';
import { count, won } from '../../../lib/format.ts';
import * as ui from '../../../ui/ui.css.ts';
import { profitText as t } from '../profit/messages.ts';
import * as p from '../profit/profit.css.ts';

/** Issue 41: a member's paid orders at a glance on their page — orders, charged, refunded, net. */
export function MemberTotals({ userId }: { userId: string }) {
  const { data } = useSWR<MemberTotalsBody>(`/admin/members/${userId}/totals`);
  if (!data) return null;
  const figures = [
    [t.totalsOrders, count(data.orders)],
    [t.totalsCharged, won(data.chargedDeci)],
    [t.totalsRefunded, won(data.refundedDeci)],
    [t.totalsNet, won(data.chargedDeci - data.refundedDeci)],
  ] as const;
  return (
    <section className={ui.card} aria-labelledby="member-totals-title" data-testid="member-totals">
      <h2 id="member-totals-title" className={ui.cardTitle}>
        {t.totalsTitle}
      </h2>
      <div className={p.figures}>
        {figures.map(([label, value]) => (
          <span key={label} className={p.figure}>
            <span className={p.figureLabel}>{label}</span>
            <span className={p.figureValue}>{value}</span>
          </span>
        ))}
      </div>
    </section>
  );
}
