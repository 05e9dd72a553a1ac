import type { EventDefinition } from './envelope.ts';
import { auditEvents } from './events/audit.ts';
import { authEvents } from './events/auth.ts';
import { catalogEvents } from './events/catalog.ts';
import { fulfillmentEvents } from './events/fulfillment.ts';
import { orderEvents } from './events/order.ts';
import { schedulerEvents } from './events/scheduler.ts';
import { supportEvents } from './events/support.ts';
import { walletEvents } from './events/wallet.ts';
import { Topics } from './topics.ts';

/**
 * Every event type the contracts define for each topic: a consumer skips the ones it does not
 * handle and dead-letters anything else — a type no contract defines is an error, not noise.
 */
export const topicEvents: Readonly<Record<string, ReadonlyArray<EventDefinition<string, unknown>>>> = {
  [Topics.auth]: authEvents,
  [Topics.catalog]: catalogEvents,
  [Topics.wallet]: walletEvents,
  [Topics.order]: orderEvents,
  [Topics.scheduler]: schedulerEvents,
  [Topics.fulfillment]: fulfillmentEvents,
  [Topics.audit]: auditEvents,
  [Topics.support]: supportEvents,
};

/** The types defined on these topics that a consumer handling `handled` leaves alone. */
export function unhandledTypes(topics: readonly string[], handled: ReadonlyArray<{ type: string }>): string[] {
  const mine = new Set(handled.map((d) => d.type));
  return topics.flatMap((topic) => (topicEvents[topic] ?? []).map((d) => d.type)).filter((type) => !mine.has(type));
}
