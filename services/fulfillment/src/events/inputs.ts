import { AutoOrderRunPlaced, type EventOf, OrderAccepted, Topics } from '@smm/contracts';
import type { Logger } from '@smm/platform';
import type { FulfillmentDeps } from '../use-cases/context.ts';
import { onOrderPaid } from './on-order-paid.ts';

/** What fulfillment reads, and from where. */
export const inputTopics = [Topics.order] as const;
export const inputEvents = [OrderAccepted, AutoOrderRunPlaced] as const;
/** Order events that ask nothing of fulfillment. */
export const ignoredEvents = ['OrderPlaced', 'OrderRejected', 'OrderStatusChanged', 'AutoOrderCompleted', 'AutoOrderCanceled', 'RefundRequested'] as const;

export type InputEvent = EventOf<(typeof inputEvents)[number]>;

export type HandlerDeps = FulfillmentDeps & { wake: () => void };

export function handleInput(deps: HandlerDeps, event: InputEvent, log: Logger): Promise<void> {
  switch (event.type) {
    case 'OrderAccepted': {
      // An auto order itself is never forwarded: each of its runs is (AutoOrderRunPlaced).
      if (event.data.kind !== 'order') return Promise.resolve();
      const { orderId, userId, serviceId, link, amount } = event.data;
      return onOrderPaid(deps, event, { orderId, userId, productId: serviceId, link, amount, source: 'order' }, log);
    }
    case 'AutoOrderRunPlaced': {
      const { childOrderId, userId, serviceId, link, amount } = event.data;
      return onOrderPaid(deps, event, { orderId: childOrderId, userId, productId: serviceId, link, amount, source: 'run' }, log);
    }
  }
}
