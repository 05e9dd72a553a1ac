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
  /** Signs the short-lived credential of every call to a service (the services verify it). */
  SERVICE_AUTH_SECRET: env.serviceSecret(),

  AUTH_SERVICE_URL: serviceUrl(),
  CATALOG_SERVICE_URL: serviceUrl(),
  WALLET_SERVICE_URL: serviceUrl(),
  // Optional so the BFF starts before they are deployed: order routes answer 503 while unset;
  // /readyz checks them when set.
  ORDER_SERVICE_URL: serviceUrl().optional(),
  SCHEDULER_SERVICE_URL: serviceUrl().optional(),
  FULFILLMENT_SERVICE_URL: serviceUrl().optional(),
  /** Support tickets (issue 40); while unset its routes answer 503. */
  SUPPORT_SERVICE_URL: serviceUrl().optional(),

  /** A ban or a change the BFF did not relay ends a member's sessions within this many seconds. */
  SESSION_STATE_CACHE_SECONDS: env.int(1).default(30),
  /** How long one call to a service may take before the member gets a 503. */
  UPSTREAM_TIMEOUT_MS: env.int(100).default(10_000),
  /** Settings are cached for an hour; this often the BFF asks catalog (cheaply, by ETag) whether they changed. */
  SETTINGS_CACHE_SECONDS: env.int(1).default(3600),
  SETTINGS_REVALIDATE_SECONDS: env.int(0).default(10),
  /** How long an order placement waits for the wallet's answer; without one the order is given up (503 PAYMENT_TIMEOUT). */
  ORDER_WAIT_MS: env.int(100).default(5000),
  /** Public reseller API: requests per API key per minute (fixed one-minute window in Redis). */
  API_RATE_LIMIT_PER_MINUTE: env.int(1).default(600),
  /** How long an Idempotency-Key's first answer is kept and replayed. */
  IDEMPOTENCY_TTL_SECONDS: env.int(1).default(86_400),
  /** API key → member resolutions kept in Redis (0 = ask auth on every request). */
  API_KEY_CACHE_SECONDS: env.int(0).default(60),
  /** The reseller service list (catalog's services, categories, platforms) kept in memory this long. */
  RESELLER_CATALOGUE_CACHE_MS: env.int(0).default(1000),
  /** Kafka, for the members' live channel (`/api/live`); while unset the channel answers 503. */
  KAFKA_BROKERS: env.hostPorts().optional(),
  /** How long a member's missed live updates are kept for a reconnecting page, and how many at most. */
  LIVE_REPLAY_SECONDS: env.int(1).default(120),
  LIVE_REPLAY_PER_MEMBER: env.int(1).default(100),
  /** How long a live ticket (bought with the access token) may wait before opening the stream. */
  LIVE_TICKET_SECONDS: env.int(1).default(30),
  /** A live stream is closed after this long and reopened by the page with its current token. */
  LIVE_STREAM_MAX_SECONDS: env.int(10).default(900),
  /** The public address, e.g. https://panel.example.com: the API documentation's examples use it. */
  PUBLIC_BASE_URL: env.url(['https', 'http']).optional(),
  /**
   * Opens `/metrics` and `/readyz`'s per-service checks on the public port (`Authorization: Bearer …`);
   * unset, the public port serves neither (a Prometheus scraper is given this token).
   */
  METRICS_TOKEN: env.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  /** Behind a reverse proxy, set to its hop count (or true) so the client address comes from X-Forwarded-For. */
  TRUST_PROXY: env.string().optional(),
  /**
   * Shared secret of the bank-transfer notification service (HMAC-SHA256, bff/API.md); at least 32
   * characters. Unset: POST /api/deposits/notify answers 503.
   */
  DEPOSIT_WEBHOOK_SECRET: env.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  /** How far a notification's timestamp may be from now (replay window). */
  DEPOSIT_WEBHOOK_WINDOW_SECONDS: env.int(30).default(300),
};

export type BffConfig = z.infer<z.ZodObject<typeof configShape>>;
