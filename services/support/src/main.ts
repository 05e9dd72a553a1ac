import { createLogger, loadConfig, runService } from '@smm/platform';
import { supportConfigShape } from './config.ts';
import { startSupportService } from './service.ts';

// Composition root: configuration, then the service started (and stopped on signals) by the platform.
const config = loadConfig(supportConfigShape);
const logger = createLogger({ service: 'support', level: config.LOG_LEVEL });

await runService(logger, () =>
  startSupportService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    logger,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    limits: { openPerMember: config.SUPPORT_OPEN_TICKETS_PER_MEMBER, messagesPerMinute: config.SUPPORT_MESSAGES_PER_MINUTE },
    listen: { port: config.PORT, host: config.HOST },
  }),
);
