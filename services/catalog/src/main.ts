import { createLogger, loadConfig, runService } from '@smm/platform';
import { configShape } from './config.ts';
import { startCatalogService } from './service.ts';

// Composition root: configuration, then the service started (and stopped on signals) by the platform.
const config = loadConfig(configShape);
const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });

await runService(logger, () =>
  startCatalogService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    logger,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    seed: config.CATALOG_SEED,
    listen: { port: config.PORT, host: config.HOST },
  }),
);
