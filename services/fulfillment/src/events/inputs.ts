import { AutoOrderRunPlaced, type EventOf, OrderAccepted, Topics } from '@smm/contracts';
import type { Logger } from '@smm/platform';
import type { FulfillmentDeps } from '../use-cases/context.ts';
import { type Paid, onOrdersPaid } from './on-order-paid.ts';

/** What fulfillment reads, and from where. */
export const inputTopics = [Topics.order] as const;
export const inputEvents = [OrderAccepted, AutoOrderRunPlaced] as const;
/** Order events that ask nothing of fulfillment. */
export const ignoredEvents = ['OrderPlaced', 'OrderRejected', 'OrderStatusChanged', 'AutoOrderCompleted', 'AutoOrderCanceled', 'RefundRequested'] as const;

export type InputEvent = EventOf<(typeof inputEvents)[number]>;

export type HandlerDeps = FulfillmentDeps & { wake: () => void };

/**
 * The paid order an event announces, if any: an auto order itself is never forwarded, each of its
 * runs is (AutoOrderRunPlaced) — except a subscription, which is forwarded itself, and whose posts
 * follow the provider's orders for them.
 */
function paidOrder(event: InputEvent): Paid | null {
  switch (event.type) {
    case 'OrderAccepted': {
      // A subscription goes to its provider as one `add` (its posts' orders come back through the status sync).
      if (event.data.kind === 'auto' && event.data.subscription) {
        const { orderId, userId, serviceId, subscription } = event.data;
        return { event, orderId, userId, productId: serviceId, link: subscription.username, amount: subscription.max, source: 'subscription', serviceType: 'subscriptions', subscription };
      }
      if (event.data.kind !== 'order') return null;
      const { orderId, userId, serviceId, link, amount, serviceType, details } = event.data;
      return { event, orderId, userId, productId: serviceId, link, amount, source: 'order', serviceType, details };
    }
    case 'AutoOrderRunPlaced': {
      const { childOrderId, userId, serviceId, link, amount, autoOrderId, run, subscription } = event.data;
      return { event, orderId: childOrderId, userId, productId: serviceId, link, amount, source: 'run', ...(subscription ? { subscriptionPost: { autoOrderId, run } } : {}) };
    }
  }
}

/** A run of order events, in topic order: the paid orders among them enter fulfillment together. */
export function handleInputs(deps: HandlerDeps, events: readonly InputEvent[], log: Logger): Promise<void> {
  return onOrdersPaid(deps, events.flatMap((e) => paidOrder(e) ?? []), log);
}
