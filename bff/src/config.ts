import type { z } from 'zod';
import { env } from '@smm/platform';


const serviceUrl = () => env.url(['http', 'https']);

/** Every variable the BFF reads; loadConfig reports the first bad one and exits 2. */
export const configShape = {
  HOST: env.string().default('127.0.0.1'),
  PORT: env.port().default(8080),
  REDIS_URL: env.url(['redis', 'rediss']),
  LOG_LEVEL: env.logLevel().default('info'),
  SERVICE_NAME: env.string().default('bff'),

  JWT_PUBLIC_KEY: env.es256PublicKey(),
  /** The `iss` auth writes into access tokens. */
  JWT_ISSUER: env.string().default('smm-auth'),

  AUTH_SERVICE_URL: serviceUrl(),
  CATALOG_SERVICE_URL: serviceUrl(),
  WALLET_SERVICE_URL: serviceUrl(),
  // Optional so the BFF starts before they are deployed: order routes answer 503 while unset;
  // /readyz checks them when set.
  ORDER_SERVICE_URL: serviceUrl().optional(),
  SCHEDULER_SERVICE_URL: serviceUrl().optional(),

  /** How long one call to a service may take before the member gets a 503. */
  UPSTREAM_TIMEOUT_MS: env.int(100).default(10_000),
  /** Settings are cached for an hour; this often the BFF asks catalog (cheaply, by ETag) whether they changed. */
  SETTINGS_CACHE_SECONDS: env.int(1).default(3600),
  SETTINGS_REVALIDATE_SECONDS: env.int(0).default(10),
  /** How long an order placement waits for the wallet's answer before answering 202 awaiting payment. */
  ORDER_WAIT_MS: env.int(0).default(5000),
  /** Public reseller API: requests per API key per minute (fixed one-minute window in Redis). */
  API_RATE_LIMIT_PER_MINUTE: env.int(1).default(600),
  /** How long an Idempotency-Key's first answer is kept and replayed. */
  IDEMPOTENCY_TTL_SECONDS: env.int(1).default(86_400),
  /** API key → member resolutions kept in Redis (0 = ask auth on every request). */
  API_KEY_CACHE_SECONDS: env.int(0).default(60),
  /** The reseller service list (catalog's services, categories, platforms) kept in memory this long. */
  RESELLER_CATALOGUE_CACHE_MS: env.int(0).default(1000),
  /** Behind a reverse proxy, set to its hop count (or true) so the client address comes from X-Forwarded-For. */
  TRUST_PROXY: env.string().optional(),
};

export type BffConfig = z.infer<z.ZodObject<typeof configShape>>;
