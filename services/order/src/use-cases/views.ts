import { type SubscriptionState, deciToWon } from '@smm/contracts';
import { linkUrl } from '../domain/link.ts';
import { paymentLabels } from '../domain/payment.ts';
import type { AutoOrder, Order } from '../store/models.ts';

/** A one-off order (or an auto order's run) as members, resellers and operators see it. */
export function orderView(order: Order) {
  return {
    kind: 'order' as const,
    id: order._id,
    userId: order.userId,
    createdAt: order.createdAt.toISOString(),
    serviceId: order.serviceId,
    serviceText: order.serviceText,
    link: order.link,
    linkUrl: linkUrl(order.link, order.platformId),
    point: deciToWon(order.chargeDeci),
    pointDeci: order.chargeDeci,
    amount: order.amount,
    status: order.status,
    startCount: order.startCount,
    remains: order.remains,
    autoOrderId: order.autoOrderId,
    run: order.run,
    payment: paymentLabels[order.payment],
    refundedDeci: order.refundedDeci,
    source: order.source,
    /** Korean text for the member when a status change came with a reason; otherwise null. */
    reason: order.statusReason ?? null,
    serviceType: order.serviceType ?? 'default',
    details: order.details ?? null,
  };
}

/** An auto order; `point` is what it finally cost: the charge less what went back. */
export function autoOrderView(auto: AutoOrder) {
  const usedDeci = auto.chargeDeci - auto.refundedDeci;
  return {
    kind: 'auto' as const,
    id: auto._id,
    userId: auto.userId,
    createdAt: auto.createdAt.toISOString(),
    serviceId: auto.serviceId,
    serviceText: auto.serviceText,
    link: auto.link,
    linkUrl: linkUrl(auto.link, auto.platformId),
    point: deciToWon(usedDeci),
    pointDeci: usedDeci,
    chargeDeci: auto.chargeDeci,
    refundedDeci: auto.refundedDeci,
    amount: auto.amount,
    completed: auto.completed,
    runs: auto.runs,
    interval: auto.interval,
    totalQuantity: auto.amount * auto.runs,
    status: auto.status,
    payment: paymentLabels[auto.payment],
    source: auto.source,
    subscription: auto.subscription
      ? {
          username: auto.subscription.username,
          min: auto.subscription.min,
          max: auto.subscription.max,
          posts: auto.subscription.posts,
          delay: auto.subscription.delay,
          expiry: auto.subscription.expiry,
          state: auto.subscription.state,
          postsDone: auto.completed,
          perPostDeci: auto.perRunDeci,
          endedAt: auto.subscription.endedAt?.toISOString() ?? null,
        } as { username: string; min: number; max: number; posts: number; delay: number; expiry: string | null; state: SubscriptionState; postsDone: number; perPostDeci: number; endedAt: string | null; orders?: number[] }
      : null,
  };
}

export type OrderView = ReturnType<typeof orderView>;
export type AutoOrderView = ReturnType<typeof autoOrderView>;
