import type { Connection } from 'mongoose';
import { outboxPublished } from '@smm/platform';

/**
 * Whether the relay has published an event this service recorded. The relay publishes in outbox
 * order, but outbox ids written by two scheduler instances within one second do not sort by time, so
 * a schedule's next claim waits until its previous events are out: runs reach Kafka in run order.
 */
export function outboxProgress(connection: Connection) {
  return {
    // "No longer pending", so a published record the TTL has since removed still counts as out.
    published: (eventId: string): Promise<boolean> => outboxPublished(connection, eventId),
  };
}

export type OutboxProgress = ReturnType<typeof outboxProgress>;
