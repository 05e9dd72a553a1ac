import { useState } from 'react';
import { useAuth } from '../../auth/auth.tsx';
import { count, dateTime, startCount } from '../../lib/format.ts';
import { OrderStatus } from '../../lib/statuses.ts';
import type { OrderItem } from '../../lib/types.ts';
import { FilterChips, Pager, usePaged } from '../../ui/paging.tsx';
import * as ui from '../../ui/ui.css.ts';
import { useAwaitOrder } from './await-order.ts';
import { LinkCell, money, shortId } from './cells.tsx';
import { historyText as t } from './messages.ts';

const tones: Record<number, keyof typeof ui.badge> = {
  [OrderStatus.values.PENDING]: 'neutral',
  [OrderStatus.values.IN_PROGRESS]: 'primary',
  [OrderStatus.values.COMPLETED]: 'success',
  [OrderStatus.values.PARTIAL]: 'warning',
  [OrderStatus.values.PROCESSING]: 'neutral',
  [OrderStatus.values.CANCELED]: 'danger',
};

export function OrderStatusBadge({ status }: { status: number }) {
  return <span className={ui.badge[tones[status] ?? 'neutral']}>{OrderStatus.labels[status] ?? status}</span>;
}

/** Spec §2 order history: a chip per order status, the nine columns. */
export default function OrderHistoryPage() {
  const [status, setStatus] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const auth = useAuth();
  const { data, error, mutate } = usePaged<OrderItem>('/service/order-history', page, status);
  useAwaitOrder(data, () => mutate(), () => void auth.refreshProfile());
  const options = [{ value: null, label: t.all }, ...Object.entries(OrderStatus.labels).map(([value, label]) => ({ value: Number(value), label }))];
  return (
    <div className={`${ui.page} ${ui.wide}`}>
      <header className={ui.pageHeader}>
        <h1 className={ui.pageTitle}>{t.orderTitle}</h1>
        <p className={ui.pageLead}>{t.orderLead}</p>
      </header>
      <section className={ui.card}>
        <div className={ui.stack}>
          <FilterChips
            label={t.filter}
            options={options}
            value={status}
            onChange={(value) => {
              setStatus(value);
              setPage(1);
            }}
          />
          <div className={ui.tableWrap}>
            <table className={ui.table}>
              <thead>
                <tr>
                  {[t.orderNo, t.date, t.product, t.link, t.used, t.quantity, t.status, t.startCount, t.remains].map((h, i) => (
                    <th key={h} scope="col" className={i === 4 || i === 5 || i >= 7 ? `${ui.th} ${ui.num}` : ui.th}>{h}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {(data?.items ?? []).map((o) => (
                  <tr key={o.id}>
                    <td className={ui.td} title={String(o.id)}>{shortId(o.id)}</td>
                    <td className={ui.td}>{dateTime(o.createdAt)}</td>
                    <td className={ui.tdWrap}>{o.serviceText ?? o.serviceId}</td>
                    <LinkCell link={o.link} linkUrl={o.linkUrl} />
                    <td className={`${ui.td} ${ui.num}`}>{money(o)}</td>
                    <td className={`${ui.td} ${ui.num}`}>{count(o.amount)}</td>
                    <td className={ui.td}><OrderStatusBadge status={o.status} /></td>
                    <td className={`${ui.td} ${ui.num}`}>{startCount(o.startCount)}</td>
                    <td className={`${ui.td} ${ui.num}`}>{typeof o.remains === 'number' ? count(o.remains) : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {data && data.items.length === 0 && <p className={ui.empty}>{t.empty}</p>}
            {error && !data && <p className={ui.empty}>{t.loadFailed}</p>}
          </div>
          <Pager page={page} hasNext={data?.hasNext ?? false} onPage={setPage} label={t.orderTitle} />
        </div>
      </section>
    </div>
  );
}
