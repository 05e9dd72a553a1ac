import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { Topics } from '@smm/contracts';
import {
  EventProducer,
  type Kafka,
  OutboxRelay,
  type RunningConsumer,
  closeRedis,
  connectMongo,
  createKafka,
  createRedis,
  ensureTopics,
  kafkaReady,
  mongoReady,
  redisReady,
} from '@smm/platform';
import { createApp } from './app.ts';
import type { AuthConfig } from './config.ts';
import { startAuthConsumer } from './events/consumer.ts';
import { buildServices } from './services.ts';
import { bootstrapAdmin } from './use-cases/bootstrap-admin.ts';
import type { AuthServices } from './use-cases/context.ts';

export type AuthRuntime = {
  app: Express;
  services: AuthServices;
  connection: Connection;
  redis: Redis;
  kafka: Kafka;
  /** Stops in dependency order: consumer, relay, producer, then the stores. */
  stop(): Promise<void>;
};

/**
 * Connects everything auth needs and makes it ready to serve: indexes built, the admin account
 * present, the outbox relay and the settings consumer running. main.ts and the integration tests
 * both start the service through this.
 */
export async function startRuntime(config: AuthConfig, logger: Logger, options: { consumerGroup?: string } = {}): Promise<AuthRuntime> {
  const connection = await connectMongo(config.MONGO_URL, logger, config.SERVICE_NAME);
  const redis = createRedis(config.REDIS_URL, logger, config.SERVICE_NAME);
  const kafka = createKafka(config.KAFKA_BROKERS, config.SERVICE_NAME, logger);
  const producer = new EventProducer(kafka);
  let relay: OutboxRelay | undefined;
  let consumer: RunningConsumer | undefined;
  const stop = async () => {
    await consumer?.stop().catch((error: unknown) => logger.warn({ err: error }, 'consumer stop failed'));
    await relay?.stop().catch((error: unknown) => logger.warn({ err: error }, 'relay stop failed'));
    await producer.disconnect().catch(() => undefined);
    await closeRedis(redis);
    await connection.close();
  };
  try {
    await ensureTopics(kafka, [{ topic: Topics.auth }, { topic: Topics.catalog }]);
    await producer.connect();
    relay = new OutboxRelay({ connection, producer, logger: logger.child({ component: 'outbox' }), intervalMs: 500 });
    const services = buildServices({ config, logger, connection, redis, kickOutbox: () => relay?.kick() });
    await services.members.ensureIndexes();
    relay.start();
    await services.passwords.warmUp();
    if (config.ADMIN_ID !== undefined && config.ADMIN_PASSWORD !== undefined) {
      await bootstrapAdmin(services, config.ADMIN_ID, config.ADMIN_PASSWORD);
    }
    consumer = await startAuthConsumer({ kafka, producer, connection, settings: services.settings, logger, groupId: options.consumerGroup });
    const app = createApp({
      logger,
      services,
      redis,
      devSmsOutbox: config.SMS_DEV_OUTBOX,
      readiness: { mongo: mongoReady(connection), kafka: kafkaReady(kafka), redis: redisReady(redis) },
    });
    return { app, services, connection, redis, kafka, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
