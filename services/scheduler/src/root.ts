import { type AppRoot, kafkaSaslFromEnv, parseConfig } from '@smm/platform';
import { schedulerConfigShape } from './config.ts';
import { startSchedulerService } from './service.ts';

/**
 * The scheduler service's composition root: its configuration from `env` (process.env in its own
 * process, the record the devstack gives it in the shared one), then the service started.
 */
export const startSchedulerApp: AppRoot = (env, logger) => {
  const config = parseConfig(schedulerConfigShape, env);
  return startSchedulerService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    kafkaSasl: kafkaSaslFromEnv(env) ?? null,
    logger,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    minuteMs: config.SCHEDULER_MINUTE_MS,
    pollMs: config.SCHEDULER_POLL_MS,
    listen: { port: config.PORT, host: config.HOST },
  });
};
