import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { type ReadinessCheck, createHttpApp } from '../http/create-server.ts';
import { ConfigError, env as envRules, parseConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { type ShutdownStep, announceListening, listen, onShutdown } from '../lifecycle.ts';
import { type Kafka, type KafkaSasl, createKafka, ensureTopics, kafkaReady } from '../kafka/client.ts';
import type { RunningConsumer } from '../kafka/consumer.ts';
import { EventProducer } from '../kafka/producer.ts';
import { connectMongo, mongoReady } from '../mongo/connection.ts';
import { OutboxRelay } from '../mongo/outbox-relay.ts';
import { startTracing, stopTracing } from '../observability/tracing.ts';
import { closeRedis, createRedis, redisReady } from '../redis.ts';

/** What every service gets connected before its own parts are built. */
export type ServiceContext = {
  name: string;
  logger: Logger;
  connection: Connection;
  kafka: Kafka;
  producer: EventProducer;
  /** Already started; a use case kicks it after committing events. */
  relay: OutboxRelay;
  /** Present when the definition names a `redisUrl`. */
  redis: Redis | undefined;
};

/** A background job a service runs beside its consumers (a poller, a periodic sync); stopped before the consumers. */
export type BackgroundJob = { name: string; stop(): unknown };

export type ServiceDefinition<TDeps> = {
  /** Kafka client id, MongoDB app name and the audience of the service credentials it accepts. */
  name: string;
  logger: Logger;
  mongoUrl: string;
  kafkaBrokers: readonly string[];
  /**
   * The service's Kafka credentials (`null`: none). Left out, KAFKA_SASL_* are read from the
   * process's environment — a service alone in its process; where several share one, each passes
   * its own principal's.
   */
  kafkaSasl?: KafkaSasl | null;
  /** Connects Redis too (auth). */
  redisUrl?: string;
  /** SERVICE_AUTH_SECRET: every route but the probes needs a service credential signed with it. */
  serviceAuthSecret: string;
  /**
   * Created when missing (3 partitions unless said): the service's own topic and the ones it reads,
   * so a fresh cluster gives them partitions before anyone writes.
   */
  topics: ReadonlyArray<string | { topic: string; numPartitions?: number }>;
  /**
   * Outbox relay: poll interval when nothing kicks it (default 1000 ms), records per read (default
   * 500), collections whose documents keep their aggregate's leading events (withEvent, keepEvent).
   */
  relay?: { intervalMs?: number; batchSize?: number; documents?: readonly string[] };
  /** Listens when given (main); tests leave it out and run `app` themselves, or pass port 0. */
  listen?: { port: number; host?: string };
  /** The service's store, use-case collaborators and background jobs; runs once everything is connected. */
  build(context: ServiceContext): Promise<TDeps>;
  /** Jobs started by `build` (or here), stopped first, in this order. */
  jobs?(deps: TDeps, context: ServiceContext): BackgroundJob[];
  /** Event consumers; started after `build` and `jobs`. */
  consumers?(deps: TDeps, context: ServiceContext): Promise<RunningConsumer[]>;
  /** Registers the HTTP routes (after the common middleware: probes, metrics, tracing, service credential). */
  routes(app: Express, deps: TDeps, context: ServiceContext): void;
  /** Checks for `/readyz` beside mongo, kafka (and redis). */
  readiness?(deps: TDeps): Record<string, ReadinessCheck>;
};

export type RunningService<TDeps> = ServiceContext & {
  app: Express;
  /** The port listened on, or undefined when the definition has no `listen`. */
  port: number | undefined;
  deps: TDeps;
  /** The stop order: HTTP, jobs, consumers, outbox relay, producer, Redis, MongoDB. */
  shutdownSteps: ShutdownStep[];
  /** Runs `shutdownSteps`; a failing step is logged and the rest still run. */
  stop(): Promise<void>;
};

async function runSteps(logger: Logger, steps: readonly ShutdownStep[]): Promise<void> {
  for (const step of steps) {
    try {
      await step.run();
    } catch (error) {
      logger.warn({ err: error, step: step.name }, 'stop step failed');
    }
  }
}

/**
 * Starts a service the one way every service starts (like eShop's ServiceDefaults): MongoDB, Kafka
 * (topics, idempotent producer, outbox relay), optionally Redis, then the service's own parts
 * (`build`, `jobs`, `consumers`), then the HTTP app with `/healthz`, `/readyz` (mongo, kafka,
 * redis and the service's own checks), `/metrics`, request tracing and the service-credential
 * check. A failure part-way stops what was started and rethrows.
 */
export async function startService<TDeps>(definition: ServiceDefinition<TDeps>): Promise<RunningService<TDeps>> {
  const { name, logger } = definition;
  startTracing(name);
  // Filled as parts start, in stop order at the end (reversed start order for the infrastructure).
  const infra: ShutdownStep[] = [];
  const front: ShutdownStep[] = [];
  const steps = () => [...front, ...infra.slice().reverse()];
  try {
    const connection = await connectMongo(definition.mongoUrl, logger, name);
    infra.push({ name: 'mongodb', run: () => connection.close() });
    const redis = definition.redisUrl === undefined ? undefined : createRedis(definition.redisUrl, logger, name);
    if (redis) infra.push({ name: 'redis', run: () => closeRedis(redis) });
    // Left out (undefined), createKafka's default reads KAFKA_SASL_* from the process's environment.
    const kafka = createKafka(definition.kafkaBrokers, name, logger, definition.kafkaSasl);
    await ensureTopics(
      kafka,
      definition.topics.map((t) => (typeof t === 'string' ? { topic: t, numPartitions: 3 } : t)),
    );
    const producer = new EventProducer(kafka);
    infra.push({ name: 'kafka producer', run: () => producer.disconnect() });
    await producer.connect();
    const relay = new OutboxRelay({ connection, producer, logger: logger.child({ component: 'outbox' }), ...definition.relay });
    infra.push({ name: 'outbox relay', run: () => relay.stop() });
    relay.start();

    const context: ServiceContext = { name, logger, connection, kafka, producer, relay, redis };
    const deps = await definition.build(context);
    for (const job of definition.jobs?.(deps, context) ?? []) front.push({ name: job.name, run: async () => job.stop() });
    const consumers = (await definition.consumers?.(deps, context)) ?? [];
    front.push({ name: 'consumers', run: () => Promise.all(consumers.map((c) => c.stop())) });

    const app = createHttpApp({
      logger,
      readiness: {
        mongo: mongoReady(connection),
        kafka: kafkaReady(kafka),
        ...(redis ? { redis: redisReady(redis) } : {}),
        ...definition.readiness?.(deps),
      },
      serviceAuth: { secret: definition.serviceAuthSecret, audience: name },
      routes: (a) => definition.routes(a, deps, context),
    });
    let port: number | undefined;
    if (definition.listen) {
      const host = definition.listen.host ?? '127.0.0.1';
      const server = await listen(app, definition.listen.port, host);
      front.unshift({ name: 'http', run: () => server.close() });
      port = server.port;
      announceListening(logger, host, port);
    }
    const shutdownSteps = steps();
    return { ...context, app, port, deps, shutdownSteps, stop: () => runSteps(logger, shutdownSteps) };
  } catch (error) {
    await runSteps(logger, steps());
    throw error;
  }
}

/** What a composition root started: how to stop it, in order (see RunningService.shutdownSteps). */
export type StartedApp = { shutdownSteps: ShutdownStep[]; /** The port listened on, when it listens. */ port?: number | undefined };

/**
 * A service's (or the BFF's) composition root: its configuration read from `env` — never from
 * process.env, so several can share a process, each with its own — and everything started, logging
 * through `logger`. A bad variable throws ConfigError; `src/main.ts` runs it with `runAppMain`.
 */
export type AppRoot = (env: Record<string, string | undefined>, logger: Logger) => Promise<StartedApp>;

/**
 * A service's `main.ts` in one call: start it, stop it in order on SIGINT/SIGTERM (flushing
 * traces last), and on a start-up failure (MongoDB or Kafka unreachable) log one fatal line and
 * exit 1 for the supervisor; a configuration problem is one line on stderr and exit code 2.
 */
export async function runService(logger: Logger, start: () => Promise<StartedApp>): Promise<void> {
  try {
    const service = await start();
    onShutdown(logger, [...service.shutdownSteps, { name: 'tracing', run: () => stopTracing() }]);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    logger.fatal({ err: error }, 'start-up failed');
    process.exit(1);
  }
}

/**
 * The logger of an app: named by SERVICE_NAME (default `name`), at LOG_LEVEL, both from `env`.
 * Throws ConfigError for a bad level.
 */
export function appLogger(name: string, env: Record<string, string | undefined>): Logger {
  const config = parseConfig({ SERVICE_NAME: envRules.string().default(name), LOG_LEVEL: envRules.logLevel().default('info') }, env);
  return createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });
}

/** `src/main.ts` of a service alone in its process: its composition root run on process.env. */
export async function runAppMain(name: string, root: AppRoot): Promise<void> {
  let logger: Logger;
  try {
    logger = appLogger(name, process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  await runService(logger, () => root(process.env, logger));
}
