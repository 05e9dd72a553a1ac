import { type AppRoot, kafkaSaslFromEnv, parseConfig } from '@smm/platform';
import { supportConfigShape } from './config.ts';
import { startSupportService } from './service.ts';

/**
 * The support service's composition root: its configuration from `env` (process.env in its own
 * process, the record the devstack gives it in the shared one), then the service started.
 */
export const startSupportApp: AppRoot = (env, logger) => {
  const config = parseConfig(supportConfigShape, env);
  return startSupportService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    kafkaSasl: kafkaSaslFromEnv(env) ?? null,
    logger,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    limits: { openPerMember: config.SUPPORT_OPEN_TICKETS_PER_MEMBER, messagesPerMinute: config.SUPPORT_MESSAGES_PER_MINUTE },
    listen: { port: config.PORT, host: config.HOST },
  });
};
