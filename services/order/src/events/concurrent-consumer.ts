import type { Consumer, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import type { EventDefinition, EventOf } from '@smm/contracts';
import { type ConsumerOptions, PermanentEventError, type RunningConsumer, eventSorter } from '@smm/platform';

export type ConcurrentConsumerOptions<TDefs extends ReadonlyArray<EventDefinition<string, unknown>>> = ConsumerOptions<TDefs> & {
  /** How many aggregates (message keys) of one batch are handled at the same time. */
  concurrency?: number;
  /**
   * When given, a fetched batch's valid events go to this in topic order, up to `chunk` at a time
   * (one transaction for many events), instead of one `handle` call each.
   */
  handleBatch?: (events: Array<EventOf<TDefs[number]>>, log: Logger) => Promise<void>;
  chunk?: number;
};

/**
 * The platform's runEventConsumer semantics (contract validation, dead letters, redelivery on
 * failure, idempotent handlers), but a fetched batch is worked on concurrently across message keys:
 * one aggregate's events still run one after another in topic order, different aggregates overlap.
 * Handling one message at a time caps a partition at one transaction's latency, which is what
 * limited the saga's throughput (see README "Throughput").
 *
 * Offsets are committed only up to the first message that failed, so it and everything after it
 * are redelivered; handlers are idempotent (handleOnce), so the ones that had succeeded change
 * nothing the second time.
 */
export async function runConcurrentConsumer<TDefs extends ReadonlyArray<EventDefinition<string, unknown>>>(
  options: ConcurrentConsumerOptions<TDefs>,
): Promise<RunningConsumer> {
  const { kafka, groupId, topics, handle, logger } = options;
  const concurrency = options.concurrency ?? 32;
  const sorter = eventSorter(options);
  const consumer: Consumer = kafka.consumer({ groupId, sessionTimeout: options.sessionTimeout ?? 30_000, allowAutoTopicCreation: true });

  const handleMessage = async (topic: string, partition: number, message: KafkaMessage): Promise<void> => {
    const sorted = sorter.sort(message);
    if (sorted.kind === 'ignored') return;
    if (sorted.kind === 'invalid') {
      await sorter.deadLetter(topic, partition, message, sorted.reason);
      return;
    }
    const event = sorted.event;
    const log = logger.child({ correlationId: event.correlationId, eventId: event.eventId, eventType: event.type });
    try {
      await handle(event, { topic, partition, offset: message.offset, log });
    } catch (error) {
      if (error instanceof PermanentEventError) {
        await sorter.deadLetter(topic, partition, message, `refused: ${error.message}`);
        return;
      }
      log.error({ err: error, topic, partition, offset: message.offset }, 'event handler failed; will be redelivered');
      throw error;
    }
  };

  await consumer.connect();
  await consumer.subscribe({ topics: [...topics], fromBeginning: options.fromBeginning ?? true });
  await consumer.run({
    eachBatchAutoResolve: false,
    partitionsConsumedConcurrently: 3,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      const handleBatch = options.handleBatch;
      if (handleBatch) {
        const chunk = options.chunk ?? 100;
        let pending: Array<{ event: EventOf<TDefs[number]>; offset: string }> = [];
        const flush = async () => {
          if (pending.length === 0) return;
          const events = pending.map((p) => p.event);
          const last = pending.at(-1)!.offset;
          pending = [];
          await handleBatch(events, logger.child({ topic: batch.topic, partition: batch.partition }));
          resolveOffset(last);
          await heartbeat().catch(() => undefined);
        };
        for (const message of batch.messages) {
          if (!isRunning() || isStale()) return;
          const sorted = sorter.sort(message);
          if (sorted.kind === 'ignored') continue;
          if (sorted.kind === 'invalid') {
            await sorter.deadLetter(batch.topic, batch.partition, message, sorted.reason);
            continue;
          }
          pending.push({ event: sorted.event, offset: message.offset });
          if (pending.length >= chunk) await flush();
        }
        await flush();
        if (isRunning() && !isStale()) resolveOffset(batch.lastOffset());
        return;
      }
      // Messages by key, in offset order within each key.
      const groups = new Map<string, KafkaMessage[]>();
      for (const message of batch.messages) {
        const key = message.key?.toString() ?? `offset-${message.offset}`;
        const list = groups.get(key);
        if (list) list.push(message);
        else groups.set(key, [message]);
      }
      const failed: bigint[] = [];
      let firstError: unknown;
      const queue = [...groups.values()];
      const worker = async () => {
        for (let group = queue.shift(); group; group = queue.shift()) {
          for (const message of group) {
            if (!isRunning() || isStale()) return;
            try {
              await handleMessage(batch.topic, batch.partition, message);
            } catch (error) {
              failed.push(BigInt(message.offset));
              firstError ??= error;
              break; // the rest of this key waits for the redelivery, keeping its order
            }
          }
          await heartbeat().catch(() => undefined);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
      if (!isRunning() || isStale()) return;
      if (failed.length === 0) {
        resolveOffset(batch.lastOffset());
        return;
      }
      const lowest = failed.reduce((a, b) => (b < a ? b : a));
      const done = batch.messages.filter((m) => BigInt(m.offset) < lowest).at(-1);
      if (done) resolveOffset(done.offset);
      throw firstError;
    },
  });
  return { stop: () => consumer.disconnect() };
}
