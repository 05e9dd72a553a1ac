import { Partitioners } from 'kafkajs';
import type { Kafka, Message, Producer, RecordMetadata } from 'kafkajs';
import type { EventEnvelope } from '@smm/contracts';
import { type TraceCarrier, traceProduce } from '../observability/tracing.ts';

/** Headers that let tools (kcat, the dead-letter reader) see what a message is without parsing it. */
export function eventHeaders(event: EventEnvelope): Record<string, string> {
  return { 'event-id': event.eventId, 'event-type': event.type, 'correlation-id': event.correlationId };
}

/** The Kafka message for an event: keyed by aggregate id so one aggregate's events stay ordered. */
export function toMessage(event: EventEnvelope): Message {
  return { key: event.aggregateId, value: JSON.stringify(event), headers: eventHeaders(event) };
}

/**
 * An idempotent producer (acks from all in-sync replicas, no duplicates from its own retries).
 * Services publish domain events through the outbox relay, not by calling this from a handler.
 */
export class EventProducer {
  private readonly producer: Producer;

  constructor(private readonly kafka: Kafka) {
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: true,
      createPartitioner: Partitioners.DefaultPartitioner,
      // An idempotent producer keeps retrying (bounded waits) until Kafka is back rather than
      // giving up: the callers (outbox relay, dead-letter path) must not drop the message.
      retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 200, maxRetryTime: 5_000 },
    });
  }

  connect(): Promise<void> {
    return this.producer.connect();
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
  }

  /**
   * `traces`: each event's stored trace context (outbox), carried on in its message's headers.
   * Resolves with what Kafka acknowledged: per partition written, the offset of the first message.
   */
  async publish(topic: string, events: readonly EventEnvelope[], traces: ReadonlyArray<TraceCarrier | undefined> = []): Promise<RecordMetadata[]> {
    if (events.length === 0) return [];
    const spans = traceProduce(topic, events.map((_, i) => traces[i]));
    const messages = events.map((event, i) => {
      const message = toMessage(event);
      const trace = spans.headers[i];
      return trace ? { ...message, headers: { ...message.headers, ...trace } } : message;
    });
    try {
      const acked = await this.producer.send({ topic, acks: -1, messages });
      spans.end();
      return acked;
    } catch (error) {
      spans.end(error);
      throw error;
    }
  }

  /** The end (next offset) of each partition of `topics`, by `topic\u0000partition`. */
  async logEnds(topics: readonly string[]): Promise<Map<string, bigint>> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const ends = new Map<string, bigint>();
      for (const topic of topics) {
        for (const p of await admin.fetchTopicOffsets(topic)) ends.set(`${topic}\u0000${p.partition}`, BigInt(p.high));
      }
      return ends;
    } finally {
      await admin.disconnect();
    }
  }

  /** Sends messages as they are (the dead-letter path forwards original bytes). */
  async sendRaw(topic: string, messages: Message[]): Promise<void> {
    await this.producer.send({ topic, acks: -1, messages });
  }
}
