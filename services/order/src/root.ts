import { type AppRoot, kafkaSaslFromEnv, parseConfig } from '@smm/platform';
import { orderConfigShape } from './config.ts';
import { startOrderService } from './service.ts';

/**
 * The order service's composition root: its configuration from `env` (process.env in its own
 * process, the record the devstack gives it in the shared one), then the service started.
 */
export const startOrderApp: AppRoot = (env, logger) => {
  const config = parseConfig(orderConfigShape, env);
  return startOrderService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    kafkaSasl: kafkaSaslFromEnv(env) ?? null,
    logger,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    idBlock: config.ORDER_ID_BLOCK,
    replicaCacheMs: config.REPLICA_CACHE_MS,
    outboxPollMs: config.OUTBOX_POLL_MS,
    listen: { port: config.PORT, host: config.HOST },
  });
};
