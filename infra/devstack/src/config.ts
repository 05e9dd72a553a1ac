// The narrow entry points, not the package's index: the launcher needs neither Kafka, MongoDB nor
// HTTP clients, and loading them all cost its process ~55 MB of the idle stack's memory (issue 42).
import { env, loadConfig } from '@smm/platform/config';
import { z } from 'zod';

/** What an operator can set for `npm start`; anything unset gets an embedded or default value. */
export const devstackConfigShape = {
  DATA_DIR: env.string().default('.data'),
  HOST: env.string().default('127.0.0.1'),
  /** Unset: 8080, or any free port when 8080 is taken. Set: exactly this port. */
  BFF_PORT: env.port().optional(),
  KAFKA_BROKERS: env.hostPorts().optional(),
  MONGO_URL: env.url(['mongodb', 'mongodb+srv']).optional(),
  REDIS_URL: env.url(['redis', 'rediss']).optional(),
  LOG_LEVEL: env.logLevel().default('info'),
  /**
   * The embedded MongoDB's heap limit in MB: all its data and indexes live there (nothing is paged
   * to disk). Unset: half the machine's memory, and never less than node's own default.
   */
  EMBEDDED_MONGO_MAX_HEAP_MB: env.int(256).optional(),
  /**
   * `shared` (default): every service and the BFF in one Node process, each still its own module,
   * configuration, database, Kafka principal and port; `each`: a process per service and the BFF,
   * as compose runs them.
   */
  DEVSTACK_PROCESSES: z.enum(['shared', 'each'], { error: 'must be shared or each' }).default('shared'),
  /** How long a child may take to become ready before start-up is abandoned. */
  READY_TIMEOUT_MS: env.int(1000).default(60_000),
};

export type DevstackConfig = z.infer<z.ZodObject<typeof devstackConfigShape>>;

export function readDevstackConfig(): DevstackConfig {
  return loadConfig(devstackConfigShape);
}
