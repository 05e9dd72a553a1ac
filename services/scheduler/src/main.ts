import { createLogger, loadConfig, runService } from '@smm/platform';
import { schedulerConfigShape } from './config.ts';
import { startSchedulerService } from './service.ts';

// Composition root: configuration, then the service started (and stopped on signals) by the platform.
const config = loadConfig(schedulerConfigShape);
const logger = createLogger({ service: 'scheduler', level: config.LOG_LEVEL });

await runService(logger, () =>
  startSchedulerService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    logger,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    minuteMs: config.SCHEDULER_MINUTE_MS,
    pollMs: config.SCHEDULER_POLL_MS,
    listen: { port: config.PORT, host: config.HOST },
  }),
);
