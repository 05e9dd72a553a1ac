import type { Consumer, IHeaders, Kafka, KafkaMessage } from 'kafkajs';
import type { Logger } from 'pino';
import { type EventDefinition, type EventOf, deadLetterTopic, parseEvent } from '@smm/contracts';
import type { EventProducer } from './producer.ts';

/** Thrown by a handler for an event it can never accept; the event goes to the dead-letter topic. */
export class PermanentEventError extends Error {
  override name = 'PermanentEventError';
}

export type HandlerContext = { topic: string; partition: number; offset: string; log: Logger };

export type ConsumerOptions<TDefs extends ReadonlyArray<EventDefinition<string, unknown>>> = {
  kafka: Kafka;
  groupId: string;
  topics: readonly string[];
  /** The events this consumer understands; anything else on its topics is dead-lettered. */
  definitions: TDefs;
  /** Events of the topics this consumer does not care about; skipped without a dead letter. */
  ignore?: readonly string[];
  handle: (event: EventOf<TDefs[number]>, context: HandlerContext) => Promise<void>;
  producer: EventProducer;
  logger: Logger;
  fromBeginning?: boolean;
  sessionTimeout?: number;
};

export type RunningConsumer = { stop(): Promise<void> };

function headerText(headers: IHeaders | undefined, name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
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
  options: Pick<ConsumerOptions<TDefs>, 'groupId' | 'definitions' | 'ignore' | 'producer' | 'logger'>,
): EventSorter<TDefs> {
  const { groupId, definitions, producer, logger } = options;
  const ignored = new Set(options.ignore ?? []);
  const dlq = deadLetterTopic(groupId);
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
 * idempotent), so nothing is lost and nothing crash-loops on a bad message.
 */
export async function runEventConsumer<TDefs extends ReadonlyArray<EventDefinition<string, unknown>>>(
  options: ConsumerOptions<TDefs>,
): Promise<RunningConsumer> {
  const { kafka, groupId, topics, handle, logger } = options;
  const sorter = eventSorter(options);
  const consumer: Consumer = kafka.consumer({ groupId, sessionTimeout: options.sessionTimeout ?? 30_000, allowAutoTopicCreation: true });

  await consumer.connect();
  await consumer.subscribe({ topics: [...topics], fromBeginning: options.fromBeginning ?? true });
  await consumer.run({
    eachMessage: async ({ topic, partition, message }) => {
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
    },
  });
  return { stop: () => consumer.disconnect() };
}
