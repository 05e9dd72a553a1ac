import type { Redis } from 'ioredis';
import type { SessionStates } from '../security/session-states.ts';
import type { ServiceClient } from '../upstream/service-client.ts';
import { ApiKeyResolver } from './api-key-resolver.ts';
import { ResellerCatalogue } from './catalogue.ts';
import { Idempotency } from './idempotency.ts';
import { MemberPrices } from './member-prices.ts';
import { RateLimiter } from './rate-limiter.ts';

export type ResellerOptions = {
  ratePerMinute: number;
  idempotencyTtlSeconds: number;
  apiKeyCacheSeconds: number;
  catalogueCacheMs: number;
  orderWaitMs: number;
};

/** What the public reseller API (plain and v2) shares: key resolution, limits, idempotency, the list. */
export type Reseller = {
  keys: ApiKeyResolver;
  limiter: RateLimiter;
  idempotency: Idempotency;
  catalogue: ResellerCatalogue;
  /** Rates per member (issue 40) over the catalogue's prices. */
  prices: MemberPrices;
  order: ServiceClient;
  wallet: ServiceClient;
  orderWaitMs: number;
};

export function createReseller(redis: Redis, auth: ServiceClient, catalog: ServiceClient, order: ServiceClient, wallet: ServiceClient, options: ResellerOptions, upstreamTimeoutMs: number, sessions: SessionStates): Reseller {
  return {
    keys: new ApiKeyResolver(auth, redis, options.apiKeyCacheSeconds, sessions),
    limiter: new RateLimiter(redis, options.ratePerMinute),
    // A duplicate waits for the first answer as long as the first may take.
    idempotency: new Idempotency(redis, options.idempotencyTtlSeconds, options.orderWaitMs + upstreamTimeoutMs + 1000),
    catalogue: new ResellerCatalogue(catalog, options.catalogueCacheMs),
    prices: new MemberPrices(order),
    order,
    wallet,
    orderWaitMs: options.orderWaitMs,
  };
}
