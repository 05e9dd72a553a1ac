import { count, dateTime, startCount } from '../../lib/format.ts';
import { OrderStatus } from '../../lib/statuses.ts';
import type { OrderItem } from '../../lib/types.ts';
import * as ui from '../../ui/ui.css.ts';
import { HistoryTable, useHistory } from './HistoryTable.tsx';
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

const filters = [{ value: null, label: t.all }, ...Object.entries(OrderStatus.labels).map(([value, label]) => ({ value: Number(value), label }))];

/** Spec §2 order history: a chip per order status, the nine columns. */
export default function OrderHistoryPage() {
  const history = useHistory<OrderItem>('/service/order-history');
  return (
    <HistoryTable
      title={t.orderTitle}
      lead={t.orderLead}
      filters={filters}
      history={history}
      heads={[t.orderNo, t.date, t.product, t.link, t.used, t.quantity, t.status, t.startCount, t.remains]}
      numeric={[4, 5, 7, 8]}
    >
      {(history.data?.items ?? []).map((o) => (
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
    </HistoryTable>
  );
}
