import { z } from 'zod';
import { env } from '@smm/platform';

export const fulfillmentConfigShape = {
  HOST: env.string().default('127.0.0.1'),
  PORT: env.port().default(4106),
  MONGO_URL: env.url(['mongodb', 'mongodb+srv']),
  KAFKA_BROKERS: env.hostPorts(),
  LOG_LEVEL: env.logLevel().default('info'),
  SERVICE_AUTH_SECRET: env.serviceSecret(),
  ORDER_SERVICE_URL: env.url(['http', 'https']),
  CATALOG_SERVICE_URL: env.url(['http', 'https']),
  /** Encrypts provider API keys at rest (AES-256-GCM); the devstack generates one into secrets.json. */
  FULFILLMENT_KEY_SECRET: z.string({ error: 'is required' }).min(32, { error: 'must be at least 32 characters' }),
  /** Longest wait for one provider call; an `add` without an answer by then is an unknown outcome. */
  FULFILLMENT_PROVIDER_TIMEOUT_MS: env.int(100).default(15_000),
  /** Orders in flight at once per provider; a slow provider fills only its own slots. */
  FULFILLMENT_PROVIDER_CONCURRENCY: env.int(1).default(4),
  /**
   * Longest pause between passes over the forwarding queue and the order-status pushes: new work of
   * this process starts a pass at once and a retry it queued wakes it when due; the poll finds other
   * replicas' work and what a restart left.
   */
  FULFILLMENT_POLL_MS: env.int(10).default(5000),
  /** A claim not marked sent within this belonged to a worker that died before calling: queued again. */
  FULFILLMENT_CLAIM_STALE_MS: env.int(100).default(30_000),
  /** Pause between status-sync cycles over open forwarded orders. */
  FULFILLMENT_STATUS_SYNC_MS: env.int(100).default(60_000),
  /** Pause between provider balance refreshes. */
  FULFILLMENT_BALANCE_SYNC_MS: env.int(100).default(300_000),
  /** Pause between provider price syncs. */
  FULFILLMENT_PRICE_SYNC_MS: env.int(100).default(3_600_000),
  /**
   * Providers may be on loopback or private addresses (a second copy of the product on this
   * machine, a provider inside the same network). Off by default: a provider URL is an address
   * this service calls with a key, and an operator's typo or a stolen console session must not
   * turn it into a probe of the internal network.
   */
  FULFILLMENT_ALLOW_PRIVATE_PROVIDERS: env.bool().default(false),
};
