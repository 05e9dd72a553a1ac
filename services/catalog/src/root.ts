import { type AppRoot, kafkaSaslFromEnv, parseConfig } from '@smm/platform';
import { configShape } from './config.ts';
import { startCatalogService } from './service.ts';

/**
 * The catalog service's composition root: its configuration from `env` (process.env in its own
 * process, the record the devstack gives it in the shared one), then the service started.
 */
export const startCatalogApp: AppRoot = (env, logger) => {
  const config = parseConfig(configShape, env);
  return startCatalogService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    kafkaSasl: kafkaSaslFromEnv(env) ?? null,
    logger,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    seed: config.CATALOG_SEED,
    listen: { port: config.PORT, host: config.HOST },
  });
};
