import type { Consumer, KafkaMessage } from 'kafkajs';
import type { EventDefinition, EventOf } from '@smm/contracts';
import { type EventProducer, type Kafka, type Logger, type RunningConsumer, eventSorter } from '@smm/platform';

/** An event the batch handler could never accept, with the reason for the dead-letter topic. */
export type Refusal<E> = { event: E; reason: string };

export type BatchConsumerOptions<TDefs extends ReadonlyArray<EventDefinition<string, unknown>>> = {
  kafka: Kafka;
  groupId: string;
  topics: readonly string[];
  definitions: TDefs;
  ignore?: readonly string[];
  /** Handles a run of valid events of one partition, in order, atomically; answers the ones it refuses for good. */
  handle: (events: Array<EventOf<TDefs[number]>>, log: Logger) => Promise<Array<Refusal<EventOf<TDefs[number]>>>>;
  producer: EventProducer;
  logger: Logger;
  /** Most events handed to `handle` at once. */
  maxRun?: number;
};

/**
 * The batch twin of the platform's runEventConsumer, for the payment path where one transaction per
 * event would cap throughput at what the database commits per second: it hands runs of a fetched
 * batch to `handle` (one transaction each), with the same contract otherwise — invalid or refused
 * events go to `dlq.<group>.v1` with the reason and their origin in headers, ignored types are
 * skipped, and a failing run is redelivered (offsets advance only past handled runs; handlers are
 * idempotent).
 */
export async function runBatchConsumer<TDefs extends ReadonlyArray<EventDefinition<string, unknown>>>(options: BatchConsumerOptions<TDefs>): Promise<RunningConsumer> {
  const { kafka, groupId, topics, handle, logger } = options;
  const maxRun = options.maxRun ?? 500;
  const sorter = eventSorter(options);
  const consumer: Consumer = kafka.consumer({ groupId, sessionTimeout: 30_000, allowAutoTopicCreation: true });

  await consumer.connect();
  await consumer.subscribe({ topics: [...topics], fromBeginning: true });
  await consumer.run({
    eachBatchAutoResolve: false,
    eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
      const { topic, partition } = batch;
      let run: Array<{ event: EventOf<TDefs[number]>; message: KafkaMessage }> = [];
      const flush = async () => {
        if (run.length === 0) return;
        const current = run;
        run = [];
        const log = logger.child({ topic, partition, firstOffset: current[0]!.message.offset, events: current.length });
        let refused: Array<Refusal<EventOf<TDefs[number]>>>;
        try {
          refused = await handle(current.map((r) => r.event), log);
        } catch (error) {
          log.error({ err: error }, 'event batch failed; will be redelivered');
          throw error;
        }
        for (const { event, reason } of refused) {
          const item = current.find((r) => r.event === event)!;
          await sorter.deadLetter(topic, partition, item.message, `refused: ${reason}`);
        }
        resolveOffset(current[current.length - 1]!.message.offset);
        await heartbeat();
      };
      for (const message of batch.messages) {
        if (!isRunning() || isStale()) break;
        const sorted = sorter.sort(message);
        if (sorted.kind === 'event') {
          run.push({ event: sorted.event, message });
          if (run.length >= maxRun) await flush();
          continue;
        }
        if (sorted.kind === 'invalid') {
          // Keep order: whatever came before the bad message is handled first.
          await flush();
          await sorter.deadLetter(topic, partition, message, sorted.reason);
        }
        if (run.length === 0) resolveOffset(message.offset);
      }
      await flush();
    },
  });
  return { stop: () => consumer.disconnect() };
}
