import type { AutoOrderCancelBody } from '@smm/contracts/http';
import { useState } from 'react';
import { useSWRConfig } from 'swr';
import { messageOf, post } from '../../lib/api.ts';
import { count, dateTime, won } from '../../lib/format.ts';
import { subscriptionStateLabels } from '../../lib/contracts.ts';
import { AutoOrderStatus } from '../../lib/statuses.ts';
import type { AutoOrderItem } from '../../lib/types.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useToast } from '../../ui/toast.tsx';
import * as ui from '../../ui/ui.css.ts';
import { type Column, HistoryTable, useHistory } from './HistoryTable.tsx';
import { LinkText, money, shortId } from './cells.tsx';
import { historyText as t } from './messages.ts';
import { expectedRefundDeci } from './refund.ts';

const v = AutoOrderStatus.values;
const filters = [
  { value: null, label: t.all },
  { value: v.ACTIVE, label: '진행중' },
  { value: v.COMPLETED, label: '완료' },
  { value: v.CANCELED, label: '취소' },
];
const tones: Record<number, keyof typeof ui.badge> = { [v.ACTIVE]: 'primary', [v.COMPLETED]: 'success', [v.CANCELED]: 'danger', [v.PARTIAL]: 'success' };
/** An auto order's status; before one is set (unpaid, or the payment refused) its payment state. */
const subscriptionTones = { active: 'primary', paused: 'warning', completed: 'success', expired: 'neutral', canceled: 'danger' } as const;
const badge = (o: AutoOrderItem) =>
  o.subscription && o.status !== null ? (
    <span className={ui.badge[subscriptionTones[o.subscription.state]]} data-testid="subscription-state">{subscriptionStateLabels[o.subscription.state]}</span>
  ) : o.status === null ? (
    <span className={ui.badge[o.payment === 'rejected' ? 'danger' : 'neutral']}>{o.payment === 'rejected' ? t.paymentRejected : t.paymentAwaiting}</span>
  ) : (
    <span className={ui.badge[tones[o.status] ?? 'neutral']}>{AutoOrderStatus.labels[o.status] ?? o.status}</span>
  );

/** Spec §2: the columns of the auto-order history (its 관리 column is the row actions). */
const columns: ReadonlyArray<Column<AutoOrderItem>> = [
  { head: t.orderNo, cell: (o) => <span title={String(o.id)}>{shortId(o.id)}</span> },
  { head: t.date, cell: (o) => dateTime(o.createdAt) },
  { head: t.link, cell: (o) => <LinkText link={o.link} linkUrl={o.linkUrl} /> },
  { head: t.finalUsed, cell: (o) => money(o), numeric: true },
  { head: t.perRun, cell: (o) => count(o.amount), numeric: true },
  {
    head: t.product,
    cell: (o) =>
      o.subscription ? (
        <span>
          <span className={ui.badge.neutral}>{t.subscription}</span> {o.serviceText}
          <br />
          <small className={ui.muted} data-testid="subscription-terms">
            {t.subscriptionTerms(o.subscription.username, count(o.subscription.min), count(o.subscription.max), o.subscription.delay)}
            {o.subscription.expiry ? ` · ${t.subscriptionExpiry(o.subscription.expiry)}` : ''}
          </small>
        </span>
      ) : (
        o.serviceText
      ),
    wrap: true,
  },
  { head: t.runs, cell: (o) => (o.subscription ? <span data-testid="posts-done">{t.postsDone(o.completed, o.runs)}</span> : `${o.completed}/${o.runs}`) },
  { head: t.interval, cell: (o) => (o.subscription ? '—' : t.minutes(o.interval)) },
  { head: t.finalQuantity, cell: (o) => count(o.totalQuantity), numeric: true },
  { head: t.status, cell: badge },
];

/** The auto order's cancel as order answers it (@smm/contracts/http). */
type CancelAnswer = AutoOrderCancelBody;
/** A subscription's cancel as fulfillment answers it: ended here at once, or asked of its provider. */
type SubscriptionCancelAnswer = { orderId: number; cancel: 'canceled' | 'requested' };

/** Spec §2 auto-order history: chips all/active/completed/cancelled; cancel for active ones. */
export default function AutoOrderHistoryPage() {
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const history = useHistory<AutoOrderItem>('/service/auto-order-history');
  const [target, setTarget] = useState<AutoOrderItem | null>(null);
  const [busy, setBusy] = useState(false);

  async function cancel() {
    if (!target || busy) return;
    setBusy(true);
    try {
      if (target.subscription) {
        // A subscription ends through fulfillment: at once for one our operators run, through its provider otherwise.
        const answer = await post<SubscriptionCancelAnswer>(`/service/orders/${encodeURIComponent(String(target.id))}/cancel`);
        toast.success(answer?.cancel === 'requested' ? t.subscriptionCancelRequested : t.subscriptionCanceled(won(expectedRefundDeci(target))));
      } else {
        const answer = await post<CancelAnswer>(`/service/auto-order/${encodeURIComponent(String(target.id))}/cancel`);
        toast.success(typeof answer?.refundDeci === 'number' ? t.cancelledWithRefund(won(answer.refundDeci)) : t.cancelled);
      }
      setTarget(null);
      // The refund reaches the balance through the live channel once the wallet credits it.
      void mutate((key) => typeof key === 'string' && key.startsWith('/service/auto-order-history'));
    } catch (err) {
      toast.error(messageOf(err, target.subscription ? t.subscriptionCancelFailed : t.cancelFailed));
    } finally {
      setBusy(false);
    }
  }

  const refund = target === null ? null : expectedRefundDeci(target);
  return (
    <>
      <HistoryTable
        title={t.autoTitle}
        lead={t.autoLead}
        filters={filters}
        history={history}
        columns={columns}
        cardTitle={(o) => `${t.orderNo} ${shortId(o.id)}`}
        cardBadge={badge}
        actions={{ head: t.manage, render: (o) => <AutoOrderActions item={o} onCancel={setTarget} /> }}
      />
      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => !open && setTarget(null)}
        title={target?.subscription ? t.subscriptionCancelTitle : t.cancelTitle}
        description={
          target?.subscription ? t.subscriptionCancelBody(target.runs - target.completed, won(refund ?? 0)) : refund === null ? t.cancelBody : t.cancelBodyWithRefund(target!.runs - target!.completed, won(refund))
        }
        confirmLabel={target?.subscription ? t.subscriptionCancelConfirm : t.cancelConfirm}
        tone="danger"
        busy={busy}
        onConfirm={() => void cancel()}
      />
    </>
  );
}

/** The buttons of one auto order's row (table and card alike). */
function AutoOrderActions({ item, onCancel }: { item: AutoOrderItem; onCancel(item: AutoOrderItem): void }) {
  if (item.status !== v.ACTIVE) return null;
  if (item.subscription && item.subscription.state !== 'active' && item.subscription.state !== 'paused') return null;
  return (
    <button type="button" className={`${ui.button.danger} ${ui.small}`} onClick={() => onCancel(item)} aria-label={`자동 주문 ${shortId(item.id)} ${t.cancel}`}>
      {t.cancel}
    </button>
  );
}
