import type { CancelAnswerBody, ProductFlagsBody, RefillViewBody } from '@smm/contracts/http';
import { useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { messageOf, post } from '../../lib/api.ts';
import { OrderStatus } from '../../lib/statuses.ts';
import type { OrderItem } from '../../lib/types.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useToast } from '../../ui/toast.tsx';
import * as ui from '../../ui/ui.css.ts';
import { shortId } from './cells.tsx';
import { historyText as t } from './messages.ts';

/** Fulfillment's `/products/flags`, relayed by the BFF (type-only). */
type Flags = ProductFlagsBody;

/** Products whose provider takes refill / cancel (read once per screen). */
export function useFulfillmentFlags(): Map<number, { refill: boolean; cancel: boolean }> {
  const { data } = useSWR<Flags>('/service/fulfillment-flags', { revalidateOnFocus: false });
  return new Map((data ?? []).map((f) => [f.productId, f]));
}

/** Refill for a completed order, cancel for a not-yet-started one — only where the product offers it. */
export function OrderActions({ order, flags }: { order: OrderItem; flags: { refill: boolean; cancel: boolean } | undefined }) {
  const canRefill = flags?.refill === true && order.status === OrderStatus.values.COMPLETED;
  const canCancel = flags?.cancel === true && order.status === OrderStatus.values.PENDING;
  if (!canRefill && !canCancel) return null;
  return <ActionButtons order={order} canRefill={canRefill} canCancel={canCancel} />;
}

function ActionButtons({ order, canRefill, canCancel }: { order: OrderItem; canRefill: boolean; canCancel: boolean }) {
  const toast = useToast();
  const { mutate } = useSWRConfig();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const id = encodeURIComponent(String(order.id));
  const reload = () => void mutate((key) => typeof key === 'string' && key.startsWith('/service/order-history'));

  async function run(action: 'refill' | 'cancel') {
    if (busy) return;
    setBusy(true);
    try {
      // Fulfillment's refill (RefillViewBody) or cancel (CancelAnswerBody): `cancel` says which cancel it was.
      const answer = await post<RefillViewBody | CancelAnswerBody>(`/service/orders/${id}/${action}`);
      if (action === 'refill') toast.success('existing' in answer && answer.existing ? t.refillExisting : t.refillDone);
      else {
        toast.success(answer.cancel === 'canceled' ? t.orderCanceled : t.orderCancelRequested);
        setConfirming(false);
        reload();
      }
    } catch (err) {
      toast.error(messageOf(err, action === 'refill' ? t.refillFailed : t.orderCancelFailed));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      {canRefill && (
        <button type="button" className={`${ui.button.secondary} ${ui.small}`} disabled={busy} onClick={() => void run('refill')} aria-label={`주문 ${shortId(order.id)} ${t.refill}`}>
          {t.refill}
        </button>
      )}
      {canCancel && (
        <button type="button" className={`${ui.button.danger} ${ui.small}`} disabled={busy} onClick={() => setConfirming(true)} aria-label={`주문 ${shortId(order.id)} ${t.orderCancel}`}>
          {t.orderCancel}
        </button>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => !open && setConfirming(false)}
        title={t.orderCancelTitle}
        description={t.orderCancelBody}
        confirmLabel={t.orderCancel}
        tone="danger"
        busy={busy}
        onConfirm={() => void run('cancel')}
      />
    </>
  );
}
