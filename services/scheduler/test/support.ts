import { randomUUID } from 'node:crypto';
import type { Consumer } from 'kafkajs';
import {
  AutoOrderCanceled,
  type EventEnvelope,
  OrderAccepted,
  Topics,
  TopUpApproved,
  TopUpRequested,
  parseEvent,
  schedulerEvents,
} from '@smm/contracts';
import { EventProducer, type Kafka, type RunningServer, createKafka, createLogger, listen, outboxModel } from '@smm/platform';
import { type Infra, eventually, startInfra, testServiceSecret } from '@smm/testkit';
import { type SchedulerService, startSchedulerService } from '../src/service.ts';

export { eventually, startInfra };
export type { Infra };

export const logger = createLogger({ service: 'scheduler-test', level: 'silent' });

/** One "minute" of an interval in these tests: an interval of 60 lasts 1.2 s. */
export const minuteMs = 20;
export const intervalMs = (minutes: number) => minutes * minuteMs;

export type Scheduler = SchedulerService & { base: string; database: string; close(): Promise<void>; flush(): Promise<void> };

/** The scheduler as main.ts wires it, on port 0. Instances given the same database and group act as one deployment. */
export async function startScheduler(
  infra: Pick<Infra, 'kafka' | 'mongo'>,
  options: { database?: string; groupId?: string; pollMs?: number } = {},
): Promise<Scheduler> {
  const database = options.database ?? `scheduler_${randomUUID().slice(0, 8)}`;
  const service = await startSchedulerService({
    mongoUrl: infra.mongo.uri(database),
    kafkaBrokers: [infra.kafka.brokers],
    logger,
    serviceAuthSecret: testServiceSecret,
    minuteMs,
    pollMs: options.pollMs ?? 1000,
    groupId: options.groupId ?? `scheduler-${database}`,
    relayIntervalMs: 100,
  });
  const server: RunningServer = await listen(service.app, 0);
  return {
    ...service,
    base: `http://127.0.0.1:${server.port}`,
    database,
    async flush() {
      await eventually(() => outboxModel(service.connection).countDocuments({ publishedAt: null }), (n) => n === 0);
    },
    async close() {
      await server.close();
      await service.stop();
    },
  };
}

/** Stands in for order and wallet: publishes their events as they would. */
export async function upstream(infra: Pick<Infra, 'kafka'>) {
  const producer = new EventProducer(createKafka([infra.kafka.brokers], 'upstream-test', logger));
  await producer.connect();
  return {
    producer,
    /** An accepted auto order, as order announces it. */
    autoAccepted(autoOrderId: number, runs: number, interval: number, userId = 'member-1') {
      return OrderAccepted.create(`order-${autoOrderId}`, { orderId: autoOrderId, kind: 'auto', userId, runs, interval }, { correlationId: `corr-${autoOrderId}` });
    },
    canceled(autoOrderId: number, runsDone: number, runs: number, userId = 'member-1') {
      return AutoOrderCanceled.create(`order-${autoOrderId}`, { autoOrderId, userId, runsDone, runs, refundDeci: 100 }, { correlationId: `cancel-${autoOrderId}` });
    },
    topUpRequested(topUpId: number, expiresAt: Date, userId = 'member-1') {
      return TopUpRequested.create(
        `topup-${topUpId}`,
        { topUpId, userId, pointDeci: 50_000, transferDeci: 50_000, receiptType: 'none', expiresAt: expiresAt.toISOString() },
        { correlationId: `topup-corr-${topUpId}` },
      );
    },
    topUpApproved(topUpId: number, userId = 'member-1') {
      return TopUpApproved.create(`topup-${topUpId}`, { topUpId, userId, pointDeci: 50_000 }, { correlationId: `approve-${topUpId}` });
    },
    publishOrder: (...events: EventEnvelope[]) => producer.publish(Topics.order, events),
    publishWallet: (...events: EventEnvelope[]) => producer.publish(Topics.wallet, events),
    stop: () => producer.disconnect(),
  };
}

export type Received = { event: EventEnvelope; at: number };

/** Every event on scheduler.events.v1 from the beginning, as order and wallet would parse them. */
export async function collectSchedulerEvents(kafka: Kafka): Promise<{ received: Received[]; stop(): Promise<void> }> {
  const received: Received[] = [];
  // Kafka delivers at least once (a producer retry, this reader's own rebalance): a message seen
  // again carries the same eventId, which every consumer skips. "Fired once" means one eventId per run.
  const seen = new Set<string>();
  const consumer: Consumer = kafka.consumer({ groupId: `test-${randomUUID()}`, sessionTimeout: 6000 });
  await consumer.connect();
  await consumer.subscribe({ topics: [Topics.scheduler], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const parsed = parseEvent(message.value, schedulerEvents);
      if (!parsed.ok) throw new Error(`scheduler published an invalid event: ${parsed.reason}`);
      if (message.key?.toString() !== parsed.event.aggregateId) throw new Error('message key is not the aggregate id');
      if (seen.has(parsed.event.eventId)) return;
      seen.add(parsed.event.eventId);
      received.push({ event: parsed.event, at: Date.now() });
    },
  });
  return { received, stop: () => consumer.disconnect() };
}

/** The runs fired for one auto order, in topic order. */
export function runsOf(received: readonly Received[], autoOrderId: number): number[] {
  return received
    .map((r) => r.event)
    .filter((e) => e.type === 'AutoOrderRunDue' && (e.data as { autoOrderId: number }).autoOrderId === autoOrderId)
    .map((e) => (e.data as { run: number }).run);
}

export function expiriesOf(received: readonly Received[], topUpId: number): EventEnvelope[] {
  return received.map((r) => r.event).filter((e) => e.type === 'TopUpExpiryDue' && (e.data as { topUpId: number }).topUpId === topUpId);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Kafka client for test helpers that need their own. */
export function kafkaOf(infra: Pick<Infra, 'kafka'>): Kafka {
  return createKafka([infra.kafka.brokers], 'scheduler-test-reader', logger);
}
