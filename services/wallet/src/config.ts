import { env } from '@smm/platform';

export const walletConfigShape = {
  HOST: env.string().default('127.0.0.1'),
  PORT: env.port().default(4103),
  MONGO_URL: env.url(['mongodb', 'mongodb+srv']),
  KAFKA_BROKERS: env.hostPorts(),
  LOG_LEVEL: env.logLevel().default('info'),
  SERVICE_AUTH_SECRET: env.serviceSecret(),
  /** How long a top-up request waits for the transfer before the scheduler expires it (spec §9: 3 hours). */
  TOPUP_EXPIRY_SECONDS: env.int(1).default(10_800),
};
