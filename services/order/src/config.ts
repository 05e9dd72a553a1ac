import { env } from '@smm/platform';

/** The devstack's common variables, plus the order service's own (all with defaults). */
export const orderConfigShape = {
  HOST: env.string().default('127.0.0.1'),
  PORT: env.port().default(4104),
  MONGO_URL: env.url(['mongodb', 'mongodb+srv']),
  KAFKA_BROKERS: env.hostPorts(),
  LOG_LEVEL: env.logLevel().default('info'),
  SERVICE_AUTH_SECRET: env.serviceSecret(),
  /** Order ids reserved per counter write (1 = strictly increasing ids; more = fewer writes, gaps on restart). */
  ORDER_ID_BLOCK: env.int(1).default(20),
  /** How long this process reuses a product or setting read from its catalogue replica. */
  REPLICA_CACHE_MS: env.int(0).default(1000),
  /** Safety-net poll of the outbox relay (other replicas' records, crash leftovers); this process's commits publish at once. */
  OUTBOX_POLL_MS: env.int(10).default(1000),
};
