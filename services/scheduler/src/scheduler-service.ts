import type { Express } from 'express';
import { Topics } from '@smm/contracts';
import {
  type Connection,
  EventProducer,
  type Logger,
  OutboxRelay,
  connectMongo,
  createHttpApp,
  createKafka,
  ensureTopics,
  kafkaReady,
  mongoReady,
  runEventConsumer,
} from '@smm/platform';
import type { HandlerDeps } from './events/deps.ts';
import { handleInput, ignoredEvents, inputEvents, inputTopics } from './events/inputs.ts';
import { scheduleRoutes } from './http/schedule-routes.ts';
import { DuePoller } from './poller/due-poller.ts';
import { fireDueExpiries } from './poller/fire-due-expiries.ts';
import { fireDueRuns } from './poller/fire-due-runs.ts';
import { AutoSchedules } from './store/auto-schedule.model.ts';
import { outboxProgress } from './store/outbox-progress.ts';
import { TopUpExpiries } from './store/topup-expiry.model.ts';

export type SchedulerSettings = {
  mongoUrl: string;
  kafkaBrokers: readonly string[];
  logger: Logger;
  /** Length of one interval minute (SCHEDULER_MINUTE_MS). */
  minuteMs: number;
  /** Longest pause between due passes (SCHEDULER_POLL_MS). */
  pollMs: number;
  /** Kafka consumer group; instances of one deployment share it. */
  groupId?: string;
  /** Outbox relay poll interval when nothing kicks it. */
  relayIntervalMs?: number;
};

export type SchedulerService = {
  app: Express;
  connection: Connection;
  schedules: AutoSchedules;
  expiries: TopUpExpiries;
  poller: DuePoller;
  stop(): Promise<void>;
};

/** Wires the scheduler: storage, the due poller, the outbox relay, consumers and HTTP. `main.ts` adds listen and signals. */
export async function startSchedulerService(settings: SchedulerSettings): Promise<SchedulerService> {
  const { logger, minuteMs, pollMs } = settings;
  const connection = await connectMongo(settings.mongoUrl, logger, 'scheduler');
  const schedules = new AutoSchedules(connection);
  const expiries = new TopUpExpiries(connection);
  await Promise.all([schedules.model.init(), expiries.model.init()]);

  const kafka = createKafka(settings.kafkaBrokers, 'scheduler', logger);
  await ensureTopics(kafka, [{ topic: Topics.scheduler, numPartitions: 3 }]);
  const producer = new EventProducer(kafka);
  await producer.connect();
  const relay = new OutboxRelay({ connection, producer, logger, intervalMs: settings.relayIntervalMs ?? 500 });
  relay.start();

  const progress = outboxProgress(connection);
  const poller = new DuePoller({
    logger,
    pollMs,
    onFired: () => relay.kick(),
    sources: [
      { name: 'auto-order runs', fire: (now) => fireDueRuns({ connection, schedules, progress, logger, minuteMs }, now), earliestDue: () => schedules.earliestDue() },
      { name: 'top-up expiries', fire: (now) => fireDueExpiries({ connection, expiries, logger }, now), earliestDue: () => expiries.earliestDue() },
    ],
  });
  poller.start();

  const deps: HandlerDeps = { connection, schedules, expiries, wake: (at) => poller.wake(at) };
  const consumer = await runEventConsumer({
    kafka,
    groupId: settings.groupId ?? 'scheduler',
    topics: inputTopics,
    definitions: inputEvents,
    ignore: ignoredEvents,
    producer,
    logger,
    handle: (event, { log }) => handleInput(deps, event, log),
  });

  const app = createHttpApp({
    logger,
    readiness: { mongo: mongoReady(connection), kafka: kafkaReady(kafka) },
    routes: scheduleRoutes({ schedules, expiries }),
  });
  logger.info({ minuteMs, pollMs }, 'scheduler started');

  return {
    app,
    connection,
    schedules,
    expiries,
    poller,
    async stop() {
      // The poller first: nothing falls due any more once stop() begins, though the consumer's
      // disconnect may take seconds (it waits for its fetch).
      await poller.stop();
      await consumer.stop();
      await relay.stop();
      await producer.disconnect();
      await connection.close();
    },
  };
}
