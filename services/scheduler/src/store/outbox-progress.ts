import type { Connection } from 'mongoose';
import { outboxModel } from '@smm/platform';

/**
 * Whether the relay has published an event this service recorded. The relay publishes in outbox
 * order, but outbox ids written by two scheduler instances within one second do not sort by time, so
 * a schedule's next claim waits until its previous events are out: runs reach Kafka in run order.
 */
export function outboxProgress(connection: Connection) {
  const outbox = outboxModel(connection);
  return {
    async published(eventId: string): Promise<boolean> {
      return (await outbox.exists({ eventId, publishedAt: { $ne: null } })) !== null;
    },
  };
}

export type OutboxProgress = ReturnType<typeof outboxProgress>;
