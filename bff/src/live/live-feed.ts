import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Consumer, Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import { Topics, parseEvent } from '@smm/contracts';
import { GatherWindow, OffsetCommitter, consumerMaxWait } from '@smm/platform';
import type { LiveHub } from './live-hub.ts';
import { type LiveSourceEvent, liveDefinitions, memberUpdateOf } from './member-update.ts';

export type RunningFeed = { groupId: string; stop(): Promise<void> };

/**
 * A consumer group of this process's own: every replica must see every member's events, since a
 * member's connection may be on any of them. Per process, so a restart does not inherit a stale
 * group; it starts at the latest offset, since an update nobody was connected for has no reader.
 */
export function liveGroupId(): string {
  return `bff-live-${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
}

/**
 * Reads wallet's, order's and support's events and hands what concerns a member to the hub. Nothing here
 * changes data, so an event that fails its contract is skipped with a warning rather than
 * dead-lettered: the services' own consumers already dead-letter it, once.
 */
export async function startLiveFeed(options: { kafka: Kafka; hub: LiveHub; logger: Logger; groupId?: string }): Promise<RunningFeed> {
  const { kafka, hub, logger } = options;
  const groupId = options.groupId ?? liveGroupId();
  // KAFKA_CONSUMER_MAX_WAIT_MS as for the services' consumers (unset: kafkajs's 5 s; the tests' stops wait less).
  const consumer: Consumer = kafka.consumer({ groupId, sessionTimeout: 30_000, allowAutoTopicCreation: true, ...consumerMaxWait() });
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await consumer.connect();
  await consumer.subscribe({ topics: [Topics.wallet, Topics.order, Topics.support], fromBeginning: false });
  // No offset matters after a restart (the group goes with the process); they only let a rejoin
  // within its life resume where it was, so they are committed once a second, not after every
  // fetched batch as kafkajs's auto-commit does. A rejoin may deliver up to that second again: the
  // hub drops an event id it already holds.
  const committer = new OffsetCommitter(consumer, logger);
  // Screens tolerate a quarter second: under load every order's events come in gathered runs, a
  // fraction of one fetch per produce (and a quiet feed waits in one long poll).
  const gather = new GatherWindow(consumer, 250);
  await consumer.run({
    autoCommit: false,
    eachBatch: gather.wrap(async ({ batch }) => {
      for (const message of batch.messages) {
        committer.handled(batch.topic, batch.partition, message.offset);
        const parsed = parseEvent(message.value, liveDefinitions);
        if (!parsed.ok) {
          logger.warn({ topic: batch.topic, partition: batch.partition, offset: message.offset, reason: parsed.reason }, 'live: event skipped');
          continue;
        }
        const event = parsed.event as LiveSourceEvent;
        const target = memberUpdateOf(event);
        if (target) hub.publish(target.userId, event.eventId, target.update);
      }
    }),
  });
  await joined;
  committer.start(1000);
  logger.info({ groupId }, 'live: feed joined');
  return {
    groupId,
    stop: async () => {
      await committer.stop();
      await consumer.disconnect();
      // The group was this process's alone; leaving it behind would only clutter the cluster.
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteGroups([groupId]).catch(() => undefined);
      await admin.disconnect();
    },
  };
}
