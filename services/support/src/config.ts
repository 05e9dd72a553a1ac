import { env } from '@smm/platform';

export const supportConfigShape = {
  HOST: env.string().default('127.0.0.1'),
  PORT: env.port().default(4107),
  MONGO_URL: env.url(['mongodb', 'mongodb+srv']),
  KAFKA_BROKERS: env.hostPorts(),
  LOG_LEVEL: env.logLevel().default('info'),
  SERVICE_AUTH_SECRET: env.serviceSecret(),
  /** Tickets a member may have open or answered (not closed) at once. */
  SUPPORT_OPEN_TICKETS_PER_MEMBER: env.int(1).default(3),
  /** Messages (a new ticket counts as one) a member may write in any sixty seconds. */
  SUPPORT_MESSAGES_PER_MINUTE: env.int(1).default(5),
};
