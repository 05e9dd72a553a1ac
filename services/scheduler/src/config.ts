import { env } from '@smm/platform';

export const schedulerConfigShape = {
  HOST: env.string().default('127.0.0.1'),
  PORT: env.port().default(4105),
  MONGO_URL: env.url(['mongodb', 'mongodb+srv']),
  KAFKA_BROKERS: env.hostPorts(),
  LOG_LEVEL: env.logLevel().default('info'),
  SERVICE_AUTH_SECRET: env.serviceSecret(),
  /** How long one "minute" of an auto-order interval lasts; tests shorten it instead of sleeping. */
  SCHEDULER_MINUTE_MS: env.int(1).default(60_000),
  /**
   * Longest pause between passes over the due items. Items this instance stores wake it at their
   * due time, so the poll only finds what another instance stored and left (it stopped or crashed):
   * four reads a pass, so not every second on an idle panel.
   */
  SCHEDULER_POLL_MS: env.int(10).default(5000),
};
