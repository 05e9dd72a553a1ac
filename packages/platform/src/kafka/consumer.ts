import type { Consumer, EachBatchPayload, IHeaders, Kafka, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import { type EventDefinition, type EventOf, deadLetterTopic, parseEvent, unhandledTypes } from '@smm/contracts';
import { deadLetterCounter, trackConsumerLag } from '../observability/metrics.ts';
import { traceConsume } from '../observability/tracing.ts';
import { InFlight, OffsetCommitter } from './offset-committer.ts';
import type { EventProducer } from './producer.ts';
import { GatherWindow } from './gather.ts';
import { withDeadline } from './deadline.ts';
import { batchRunner, perKeyRunner, serialRunner } from './runners.ts';

/** Thrown by a handler for an event it can never accept; the event goes to the dead-letter topic. */
export class PermanentEventError extends Error {
  override name = 'PermanentEventError';
}

export type HandlerContext = { topic: string; partition: number; offset: string; log: Logger };

export type ConsumerOptions<TDefs extends ReadonlyArray<EventDefinition<string, unknown>>> = {
  kafka: Kafka;
  groupId: string;
  topics: readonly string[];
  /**
   * The events this consumer handles. The other types the contracts define for its topics are
   * skipped; anything else (a type no contract defines, invalid data) is dead-lettered.
   */
  definitions: TDefs;
  /** Further types to skip (events of topics the contracts do not list, e.g. in tests). */
  ignore?: readonly string[];
  /** One event (modes `serial` and `per-key`). */
  handle?: (event: EventOf<TDefs[number]>, context: HandlerContext) => Promise<void>;
  /**
   * - `serial` (default): one event at a time per partition, in offset order.
   * - `per-key`: a fetched batch concurrently across message keys, in order within one key.
   * - `batch`: runs of up to `maxBatch` valid events of a partition to `handleBatch` (one
   *   transaction for many events); it answers the events it refuses for good (dead-lettered).
   */
  mode?: 'serial' | 'per-key' | 'batch';
  /** per-key: how many keys are worked on at the same time. */
  concurrency?: number;
  handleBatch?: (events: Array<EventOf<TDefs[number]>>, log: Logger) => Promise<Array<{ event: EventOf<TDefs[number]>; reason: string }> | void>;
  maxBatch?: number;
  /**
   * batch: runs of different partitions (partitionsConcurrently > 1) go to `handleBatch` together,
   * one call at a time: what is handed in while a call runs, or in the same turn of the event loop,
   * makes the next call. One transaction for a fetch's worth of every partition, and no two of this
   * consumer's transactions at once (so no write conflicts between them). A failed joint call is
   * retried run by run, so one partition's bad run does not hold up the others.
   */
  acrossPartitions?: boolean;
  /** Partitions handled at the same time (kafkajs partitionsConsumedConcurrently); default 1. */
  partitionsConcurrently?: number;
  producer: EventProducer;
  logger: Logger;
  fromBeginning?: boolean;
  sessionTimeout?: number;
  /**
   * For consumers off the answer path (live screens, referrals, schedules, forwarding): after a
   * fetch's batches are handled, the next fetch waits until this long after they began (see
   * GatherWindow), so under load each fetch brings a gathered run instead of one produce's worth,
   * and the consumer, its offset commits and the broker do a fraction of the round trips; the price
   * is up to this much delay. A quiet consumer still hears the first event at once. Unset (or 0):
   * every fetch goes out as soon as the last is handled, which the saga's payment consumers need.
   */
  gatherMs?: number;
  /**
   * How often handled offsets are committed (default 1000 ms; and once more at stop). Not after
   * every batch: at one event per batch that was one OffsetCommit request (and, on the embedded
   * broker, one fsync) per event per consumer group. A crash or rebalance redelivers at most the
   * events handled since the last commit, which idempotent handlers ignore.
   */
  commitIntervalMs?: number;
  /**
   * How long one handler call (an event, or a run in batch mode) may take before it is given up and
   * its events delivered again (default 60 s). A MongoDB operation caught by a server crash has been
   * seen never to settle (issue 43's MongoDB-SIGKILL test: the order service's payment consumer
   * waited on one write for good, and every later order timed out); without a deadline one such call
   * stops the consumer until the process restarts. Handlers are idempotent, so the call left behind
   * changes nothing if it ever finishes.
   */
  handlerTimeoutMs?: number;
};

/** KAFKA_HANDLER_TIMEOUT_MS, else the consumer's own handlerTimeoutMs, else 60 s. */
export function handlerDeadline(own: number | undefined, source: Record<string, string | undefined> = process.env): number {
  const raw = source.KAFKA_HANDLER_TIMEOUT_MS?.trim();
  if (!raw) return own ?? 60_000;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 100 || ms > 3_600_000) throw new Error(`KAFKA_HANDLER_TIMEOUT_MS must be a whole number of milliseconds from 100 to 3600000 (got "${raw}")`);
  return ms;
}

export type RunningConsumer = { stop(): Promise<void> };

function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

/**
 * KAFKA_CONSUMER_MAX_WAIT_MS: how long a fetch waits on the broker when there is nothing to read
 * (kafkajs's maxWaitTimeInMs; unset: its default, 5000). It is also how long a stop can take:
 * kafkajs lets the fetch in flight — or, once the consumer is paused, a sleep of that length —
 * finish before it leaves the group, so every service stop waited ~5 s. The test harnesses set a
 * few hundred ms (infra/test-runner/README.md); production keeps the default, which keeps idle
 * consumers quiet. New data answers a waiting fetch at once either way.
 */
export function consumerMaxWait(source: Record<string, string | undefined> = process.env): { maxWaitTimeInMs?: number } {
  const raw = source.KAFKA_CONSUMER_MAX_WAIT_MS?.trim();
  if (!raw) return {};
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 10 || ms > 60_000) throw new Error(`KAFKA_CONSUMER_MAX_WAIT_MS must be a whole number of milliseconds from 10 to 60000 (got "${raw}")`);
  return { maxWaitTimeInMs: ms };
}

/** What a message from a consumer's topics is to it: a valid event, a type it ignores, or invalid. */
export type SortedMessage<E> = { kind: 'event'; event: E } | { kind: 'ignored' } | { kind: 'invalid'; reason: string };

export type EventSorter<TDefs extends ReadonlyArray<EventDefinition<string, unknown>>> = {
  sort(message: KafkaMessage): SortedMessage<EventOf<TDefs[number]>>;
  /** Sends the message to `dlq.<group>.v1` with the reason and its origin in headers. */
  deadLetter(topic: string, partition: number, message: KafkaMessage, reason: string): Promise<void>;
};

/**
 * The contract check every consumer of a group applies, one-at-a-time or in batches: validate the
 * message against the event definitions, skip ignored types (by header, or by the envelope for
 * messages without one, e.g. written by kcat), and dead-letter what cannot be accepted.
 */
export function eventSorter<TDefs extends ReadonlyArray<EventDefinition<string, unknown>>>(
  options: Pick<ConsumerOptions<TDefs>, 'groupId' | 'topics' | 'definitions' | 'ignore' | 'producer' | 'logger'>,
): EventSorter<TDefs> {
  const { groupId, definitions, producer, logger } = options;
  const ignored = new Set([...unhandledTypes(options.topics, definitions), ...(options.ignore ?? [])]);
  const dlq = deadLetterTopic(groupId);
  const countDeadLetter = deadLetterCounter();
  return {
    sort(message) {
      const type = headerText(message.headers, 'event-type');
      if (type !== undefined && ignored.has(type)) return { kind: 'ignored' };
      const parsed = parseEvent(message.value, definitions);
      if (parsed.ok) return { kind: 'event', event: parsed.event as EventOf<TDefs[number]> };
      if (parsed.type !== undefined && ignored.has(parsed.type)) return { kind: 'ignored' };
      return { kind: 'invalid', reason: parsed.reason };
    },
    async deadLetter(topic, partition, message, reason) {
      logger.warn({ topic, partition, offset: message.offset, reason }, 'event dead-lettered');
      countDeadLetter(groupId, topic);
      await producer.sendRaw(dlq, [
        {
          key: message.key,
          value: message.value,
          headers: {
            ...message.headers,
            'dlq-reason': reason,
            'dlq-consumer': groupId,
            'dlq-source': `${topic}/${partition}/${message.offset}`,
          },
        },
      ]);
    },
  };
}

/**
 * Runs a consumer group that validates every message against the event contracts. Invalid or
 * permanently refused events go to `dlq.<group>.v1` with the reason and their origin in headers,
 * and the group moves on; any other handler error is retried by redelivery (handlers are
 * idempotent), so nothing is lost and nothing crash-loops on a bad message. Offsets advance only
 * past what was handled, so a failure redelivers it and everything after it.
 */
export async function runEventConsumer<TDefs extends ReadonlyArray<EventDefinition<string, unknown>>>(
  options: ConsumerOptions<TDefs>,
): Promise<RunningConsumer> {
  const { kafka, groupId, topics, handle, logger } = options;
  if (options.mode !== 'batch' && !handle) throw new Error(`consumer ${groupId}: mode ${options.mode ?? 'serial'} needs handle`);
  const sorter = eventSorter(options);
  const deadlineMs = handlerDeadline(options.handlerTimeoutMs);
  const consumer: Consumer = kafka.consumer({ groupId, sessionTimeout: options.sessionTimeout ?? 30_000, allowAutoTopicCreation: true, ...consumerMaxWait() });

  trackConsumerLag(consumer, groupId);
  /** Handles one message; a failure other than a permanent refusal is thrown, for redelivery. */
  const handleMessage = async (topic: string, partition: number, message: KafkaMessage): Promise<void> => {
    const sorted = sorter.sort(message);
    if (sorted.kind === 'ignored') return;
    if (sorted.kind === 'invalid') return sorter.deadLetter(topic, partition, message, sorted.reason);
    const event = sorted.event;
    const log = logger.child({ correlationId: event.correlationId, eventId: event.eventId, eventType: event.type });
    try {
      await traceConsume(topic, groupId, message.headers, () => withDeadline(handle!(event, { topic, partition, offset: message.offset, log }), deadlineMs, `consumer ${groupId}: the handler of ${topic}/${partition}@${message.offset}`));
    } catch (error) {
      if (error instanceof PermanentEventError) return sorter.deadLetter(topic, partition, message, `refused: ${error.message}`);
      log.error({ err: error, topic, partition, offset: message.offset }, 'event handler failed; will be redelivered');
      throw error;
    }
  };

  const committer = new OffsetCommitter(consumer, logger.child({ groupId }));
  const work = new InFlight();
  let stopping = false; // a serial batch ends at its next message once a stop begins
  const runner = options.mode === 'batch' ? batchRunner(options, sorter, deadlineMs) : options.mode === 'per-key' ? perKeyRunner(options.concurrency ?? 32, handleMessage) : serialRunner(handleMessage, () => stopping);
  // What a runner resolves is also what gets committed.
  const handled = (payload: EachBatchPayload) =>
    work.run(() =>
      runner({
        ...payload,
        resolveOffset: (offset: string) => {
          payload.resolveOffset(offset);
          committer.handled(payload.batch.topic, payload.batch.partition, offset);
        },
      }),
    );
  const eachBatch = options.gatherMs ? new GatherWindow(consumer, options.gatherMs).wrap(handled) : handled;

  await consumer.connect();
  await consumer.subscribe({ topics: [...topics], fromBeginning: options.fromBeginning ?? true });
  // autoCommit off: kafkajs would commit after every batch; the committer does it on a timer.
  await consumer.run({ autoCommit: false, partitionsConsumedConcurrently: options.partitionsConcurrently ?? 1, eachBatchAutoResolve: false, eachBatch });
  committer.start(options.commitIntervalMs ?? 1000);
  return {
    async stop() {
      // No new batch starts, the ones under way finish, and what they handled is committed while
      // this member is still in the group (afterwards the broker would refuse its commit).
      stopping = true;
      try {
        consumer.pause(topics.map((topic) => ({ topic })));
      } catch {
        // not running (it crashed or never joined): nothing is under way
      }
      await work.idle(10_000);
      await committer.stop();
      await consumer.disconnect();
    },
  };
}

