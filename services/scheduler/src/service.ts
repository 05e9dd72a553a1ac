import { Topics } from '@smm/contracts';
import { type Logger, type RunningService, runEventConsumer, startService, type KafkaSasl } from '@smm/platform';
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
  /** Kafka credentials (null: none); left out, KAFKA_SASL_* of the process's environment. */
  kafkaSasl?: KafkaSasl | null;
  logger: Logger;
  /** SERVICE_AUTH_SECRET: every route but the probes needs a service credential signed with it. */
  serviceAuthSecret: string;
  /** Length of one interval minute (SCHEDULER_MINUTE_MS). */
  minuteMs: number;
  /** Longest pause between due passes (SCHEDULER_POLL_MS). */
  pollMs: number;
  /** Kafka consumer group; instances of one deployment share it. */
  groupId?: string;
  /** Outbox relay poll interval when nothing kicks it. */
  relayIntervalMs?: number;
  /** main listens on PORT/HOST; tests run `app` themselves. */
  listen?: { port: number; host?: string };
};

type SchedulerParts = HandlerDeps & { poller: DuePoller };

export type SchedulerService = RunningService<SchedulerParts> & Pick<SchedulerParts, 'schedules' | 'expiries' | 'poller'>;

/** The scheduler's wiring: its stores, the due poller, the consumer and routes, started by the platform's startService. */
export async function startSchedulerService(settings: SchedulerSettings): Promise<SchedulerService> {
  const { minuteMs, pollMs } = settings;
  const service = await startService<SchedulerParts>({
    name: 'scheduler',
    logger: settings.logger,
    mongoUrl: settings.mongoUrl,
    kafkaBrokers: settings.kafkaBrokers,
    ...(settings.kafkaSasl !== undefined && { kafkaSasl: settings.kafkaSasl }),
    serviceAuthSecret: settings.serviceAuthSecret,
    topics: [Topics.scheduler],
    relay: { intervalMs: settings.relayIntervalMs ?? 500 },
    ...(settings.listen ? { listen: settings.listen } : {}),
    async build({ connection, logger, relay }) {
      const schedules = new AutoSchedules(connection);
      const expiries = new TopUpExpiries(connection);
      await Promise.all([schedules.model.init(), expiries.model.init()]);
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
      return { connection, schedules, expiries, poller, wake: (at) => poller.wake(at) };
    },
    // The poller first: nothing falls due any more once stop() begins, though the consumer's
    // disconnect may take seconds (it waits for its fetch).
    jobs: ({ poller }) => [{ name: 'due poller', stop: () => poller.stop() }],
    consumers: async (deps, { kafka, producer, logger }) => [
      await runEventConsumer({
        kafka,
        groupId: settings.groupId ?? 'scheduler',
        topics: inputTopics,
        definitions: inputEvents,
        ignore: ignoredEvents,
        producer,
        logger,
        gatherMs: 250, // reads every order's events, acts on few: fetch them in gathered runs
        handle: (event, { log }) => handleInput(deps, event, log),
      }),
    ],
    routes: (app, { schedules, expiries }) => scheduleRoutes({ schedules, expiries })(app),
  });
  settings.logger.info({ minuteMs, pollMs }, 'scheduler started');
  const { schedules, expiries, poller } = service.deps;
  return { ...service, schedules, expiries, poller };
}
