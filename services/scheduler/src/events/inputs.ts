import {
  AutoOrderCanceled,
  AutoOrderCompleted,
  type EventOf,
  OrderAccepted,
  Topics,
  TopUpApproved,
  TopUpExpired,
  TopUpRejected,
  TopUpRequested,
} from '@smm/contracts';
import type { Logger } from '@smm/platform';
import type { HandlerDeps } from './deps.ts';
import { onAutoOrderEnded } from './on-auto-order-ended.ts';
import { onOrderAccepted } from './on-order-accepted.ts';
import { onTopUpClosed } from './on-top-up-closed.ts';
import { onTopUpRequested } from './on-top-up-requested.ts';

/** What the scheduler reads, and from where. */
export const inputTopics = [Topics.order, Topics.wallet] as const;
export const inputEvents = [OrderAccepted, AutoOrderCompleted, AutoOrderCanceled, TopUpRequested, TopUpApproved, TopUpRejected, TopUpExpired] as const;
/** Events of those topics that change no due time. */
export const ignoredEvents = [
  'OrderPlaced',
  'OrderRejected',
  'OrderStatusChanged',
  'AutoOrderRunPlaced',
  'RefundRequested',
  'PointDebited',
  'PointDebitRejected',
  'PointCredited',
  'PointAdjusted',
] as const;

export type InputEvent = EventOf<(typeof inputEvents)[number]>;

/** Routes one validated input event to its handler. */
export function handleInput(deps: HandlerDeps, event: InputEvent, log: Logger): Promise<void> {
  switch (event.type) {
    case 'OrderAccepted':
      return onOrderAccepted(deps, event, log);
    case 'AutoOrderCompleted':
    case 'AutoOrderCanceled':
      return onAutoOrderEnded(deps, event, log);
    case 'TopUpRequested':
      return onTopUpRequested(deps, event, log);
    case 'TopUpApproved':
    case 'TopUpRejected':
    case 'TopUpExpired':
      return onTopUpClosed(deps, event, log);
  }
}
