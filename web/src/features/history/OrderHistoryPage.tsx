import { count, dateTime, startCount } from '../../lib/format.ts';
import { OrderStatus } from '../../lib/statuses.ts';
import type { OrderItem } from '../../lib/types.ts';
import * as ui from '../../ui/ui.css.ts';
import { type Column, HistoryTable, useHistory } from './HistoryTable.tsx';
import { OrderActions, useFulfillmentFlags } from './OrderActions.tsx';
import { LinkText, OrderDetailsText, money, shortId } from './cells.tsx';
import { historyText as t } from './messages.ts';

const tones: Record<number, keyof typeof ui.badge> = {
  [OrderStatus.values.PENDING]: 'neutral',
  [OrderStatus.values.IN_PROGRESS]: 'primary',
  [OrderStatus.values.COMPLETED]: 'success',
  [OrderStatus.values.PARTIAL]: 'warning',
  [OrderStatus.values.PROCESSING]: 'neutral',
  [OrderStatus.values.CANCELED]: 'danger',
};

/** An order's status; before one is set (unpaid, or the payment refused) its payment state. */
export function OrderStatusBadge({ order }: { order: Pick<OrderItem, 'status' | 'payment'> }) {
  const { status, payment } = order;
  if (status === null) return <span className={ui.badge[payment === 'rejected' ? 'danger' : 'neutral']}>{payment === 'rejected' ? t.paymentRejected : t.paymentAwaiting}</span>;
  return <span className={ui.badge[tones[status] ?? 'neutral']}>{OrderStatus.labels[status] ?? status}</span>;
}

const filters = [{ value: null, label: t.all }, ...Object.entries(OrderStatus.labels).map(([value, label]) => ({ value: Number(value), label }))];

/** Spec §2: the nine columns of the order history. */
const columns: ReadonlyArray<Column<OrderItem>> = [
  { head: t.orderNo, cell: (o) => <span title={String(o.id)}>{shortId(o.id)}</span> },
  { head: t.date, cell: (o) => dateTime(o.createdAt) },
  {
    head: t.product,
    cell: (o) => (
      <>
        {o.serviceText}
        <OrderDetailsText order={o} />
      </>
    ),
    wrap: true,
  },
  { head: t.link, cell: (o) => <LinkText link={o.link} linkUrl={o.linkUrl} /> },
  { head: t.used, cell: (o) => money(o), numeric: true },
  { head: t.quantity, cell: (o) => count(o.amount), numeric: true },
  {
    head: t.status,
    cell: (o) => (
      <>
        <OrderStatusBadge order={o} />
        {o.reason ? <div className={ui.muted}>{o.reason}</div> : null}
      </>
    ),
  },
  { head: t.startCount, cell: (o) => startCount(o.startCount), numeric: true },
  { head: t.remains, cell: (o) => count(o.remains), numeric: true },
];

/** Spec §2 order history: a chip per order status, the nine columns (a card per order on a phone). */
export default function OrderHistoryPage() {
  const history = useHistory<OrderItem>('/service/order-history');
  const flags = useFulfillmentFlags();
  return (
    <HistoryTable
      title={t.orderTitle}
      lead={t.orderLead}
      filters={filters}
      history={history}
      columns={columns}
      cardTitle={(o) => `${t.orderNo} ${shortId(o.id)}`}
      cardBadge={(o) => <OrderStatusBadge order={o} />}
      actions={{ head: t.manage, render: (o) => <OrderActions order={o} flags={flags.get(o.serviceId)} /> }}
    />
  );
}
