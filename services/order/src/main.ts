import { createLogger, loadConfig, runService } from '@smm/platform';
import { orderConfigShape } from './config.ts';
import { startOrderService } from './service.ts';

// Composition root: configuration, then the service started (and stopped on signals) by the platform.
const config = loadConfig(orderConfigShape);
const logger = createLogger({ service: 'order', level: config.LOG_LEVEL });

await runService(logger, () =>
  startOrderService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    logger,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    idBlock: config.ORDER_ID_BLOCK,
    replicaCacheMs: config.REPLICA_CACHE_MS,
    outboxPollMs: config.OUTBOX_POLL_MS,
    listen: { port: config.PORT, host: config.HOST },
  }),
);
