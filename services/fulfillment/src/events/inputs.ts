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

/** The paid order an event announces, if any: an auto order itself is never forwarded, each of its runs is (AutoOrderRunPlaced). */
function paidOrder(event: InputEvent): Paid | null {
  switch (event.type) {
    case 'OrderAccepted': {
      if (event.data.kind !== 'order') return null;
      const { orderId, userId, serviceId, link, amount, serviceType, details } = event.data;
      return { event, orderId, userId, productId: serviceId, link, amount, source: 'order', serviceType, details };
    }
    case 'AutoOrderRunPlaced': {
      const { childOrderId, userId, serviceId, link, amount } = event.data;
      return { event, orderId: childOrderId, userId, productId: serviceId, link, amount, source: 'run' };
    }
  }
}

/** A run of order events, in topic order: the paid orders among them enter fulfillment together. */
export function handleInputs(deps: HandlerDeps, events: readonly InputEvent[], log: Logger): Promise<void> {
  return onOrdersPaid(deps, events.flatMap((e) => paidOrder(e) ?? []), log);
}
