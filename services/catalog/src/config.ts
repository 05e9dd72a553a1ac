import { env } from '@smm/platform';

/** The devstack's common variables; the catalog uses no Redis (the BFF caches settings). */
export const configShape = {
  HOST: env.string().default('127.0.0.1'),
  PORT: env.port().default(4102),
  KAFKA_BROKERS: env.hostPorts(),
  MONGO_URL: env.url(['mongodb', 'mongodb+srv']),
  LOG_LEVEL: env.logLevel().default('info'),
  SERVICE_AUTH_SECRET: env.serviceSecret(),
  SERVICE_NAME: env.string().default('catalog'),
  /** Set to false to start without loading the starting catalogue (it is loaded at most once anyway). */
  CATALOG_SEED: env.bool().default(true),
};
