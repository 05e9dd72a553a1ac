import express from 'express';
import type { Express, NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { HttpError, type ReadinessCheck, createHttpApp, redisReady } from '@smm/platform';
import { SettingsCache } from './cache/settings-cache.ts';
import { accountRoutes } from './http/account-routes.ts';
import type { DeadLetterReader } from './ops/dead-letters.ts';
import { adminDashboardRoutes } from './http/admin-dashboard-routes.ts';
import { adminAuditRoutes } from './http/admin-audit-routes.ts';
import { adminFulfillmentRoutes } from './http/admin-fulfillment-routes.ts';
import { adminMoneyRoutes } from './http/admin-money-routes.ts';
import { adminMemberRoutes } from './http/admin-member-routes.ts';
import { adminExportRoutes } from './http/admin-export-routes.ts';
import { adminReportRoutes } from './http/admin-report-routes.ts';
import { adminOrderRoutes } from './http/admin-order-routes.ts';
import { adminSubscriptionRoutes } from './http/admin-subscription-routes.ts';
import { adminRoutes } from './http/admin-routes.ts';
import { adminTopUpRoutes } from './http/admin-top-up-routes.ts';
import { apiDocsRoutes } from './http/api-docs.ts';
import { openApiRoutes } from './http/openapi.ts';
import { operatorRoutes } from './http/operator-routes.ts';
import { type DepositWebhook, depositRoutes } from './http/deposit-routes.ts';
import { authRoutes } from './http/auth-routes.ts';
import { catalogRoutes } from './http/catalog-routes.ts';
import { adminRateRoutes } from './http/admin-rate-routes.ts';
import { memberCatalogueRoutes } from './http/member-price-routes.ts';
import { fulfillmentRoutes } from './http/fulfillment-routes.ts';
import { moneyRoutes } from './http/money-routes.ts';
import { massOrderRoutes } from './http/mass-order-routes.ts';
import { referralRoutes } from './http/referral-routes.ts';
import { resellerRoutes } from './http/reseller-routes.ts';
import { supportRoutes } from './http/support-routes.ts';
import { v2Routes } from './http/v2-routes.ts';
import { type LiveDeps, liveRoutes } from './live/live-routes.ts';
import { messages } from './messages.ts';
import { type ResellerOptions, createReseller } from './reseller/reseller.ts';
import { Idempotency } from './reseller/idempotency.ts';
import { compressReads } from './http/compress-reads.ts';
import { browserHeaders } from './security/browser-headers.ts';
import { SessionStates } from './security/session-states.ts';
import { TokenVerifier } from './security/token-verifier.ts';
import { refuseUnsafeText } from './http/text-guard.ts';
import { ServiceClient } from './upstream/service-client.ts';

export type ServiceUrls = { auth: string; catalog: string; wallet: string; order?: string | undefined; scheduler?: string | undefined; fulfillment?: string | undefined; support?: string | undefined };

export type AppDeps = {
  logger: Logger;
  redis: Redis;
  services: ServiceUrls;
  jwtPublicKey: string;
  /** SERVICE_AUTH_SECRET: signs the credential every call to a service carries. */
  serviceAuthSecret: string;
  jwtIssuer?: string;
  upstreamTimeoutMs?: number;
  /** METRICS_TOKEN: opens /metrics and the readiness details on the public port (none without it). */
  opsToken?: string | undefined;
  /** The address members and resellers use (PUBLIC_BASE_URL), for the API documentation's examples. */
  publicBaseUrl?: string | undefined;
  /** How long a member's token version and status are reused before auth is asked again. */
  sessionStateCacheSeconds?: number;
  settingsCache?: { ttlSeconds: number; revalidateSeconds: number };
  /** Express's `trust proxy` value, so the client address is right behind a reverse proxy. */
  trustProxy?: boolean | number | string;
  /** Order placement wait and the public reseller API's limits and caches (defaults in config.ts). */
  reseller?: Partial<ResellerOptions>;
  /** The bank-transfer notification service's shared secret and replay window (deposit-routes.ts). */
  depositWebhook?: DepositWebhook;
  /**
   * The web app (a later issue) is served by the BFF too: it will be mounted here, after the API
   * and the health checks, with its own fallback to index.html. Everything under /api stays JSON.
   */
  web?: (app: Express) => void;
  /** The members' live channel (`/api/live`); while unset (no Kafka configured) it answers 503. */
  live?: LiveDeps;
  /** Counts of dead-lettered events for the dashboard; while unset (no Kafka) that part is null. */
  deadLetters?: DeadLetterReader;
};

/**
 * How long a mass order's Idempotency-Key is held while its lines are placed: a second press waits
 * this long for the first answer. Past it a duplicate may run the batch too — harmless, each line's
 * own key at the order service answers it with the same order (mass-order-routes.ts).
 */
const massOrderLockMs = 60_000;

/** The BFF's HTTP app without listening: main.ts listens, tests run it on port 0. */
export function createApp(deps: AppDeps): Express {
  const timeout = deps.upstreamTimeoutMs ?? 10_000;
  const credentials = { secret: deps.serviceAuthSecret, from: 'bff' };
  const auth = new ServiceClient('auth', deps.services.auth, timeout, credentials);
  const catalog = new ServiceClient('catalog', deps.services.catalog, timeout, credentials);
  const wallet = new ServiceClient('wallet', deps.services.wallet, timeout, credentials);
  // Optional in the configuration: while unset, order routes answer 503 SERVICE_UNAVAILABLE.
  const order = new ServiceClient('order', deps.services.order, timeout, credentials);
  const fulfillment = new ServiceClient('fulfillment', deps.services.fulfillment, timeout, credentials);
  const support = new ServiceClient('support', deps.services.support, timeout, credentials);
  const resellerOptions: ResellerOptions = {
    ratePerMinute: 600,
    idempotencyTtlSeconds: 86_400,
    apiKeyCacheSeconds: 60,
    catalogueCacheMs: 1000,
    orderWaitMs: 5000,
    ...deps.reseller,
  };
  const sessions = new SessionStates(deps.redis, auth, deps.sessionStateCacheSeconds ?? 30);
  const reseller = createReseller(deps.redis, auth, catalog, order, wallet, resellerOptions, timeout, sessions);
  const verifier = new TokenVerifier(deps.jwtPublicKey, deps.jwtIssuer ?? 'smm-auth', sessions);
  const settings = new SettingsCache(deps.redis, catalog, deps.settingsCache ?? { ttlSeconds: 3600, revalidateSeconds: 10 });

  const readiness: Record<string, ReadinessCheck> = {
    redis: redisReady(deps.redis),
    auth: auth.ready(),
    catalog: catalog.ready(),
    wallet: wallet.ready(),
  };
  if (deps.services.order) readiness.order = order.ready();
  if (deps.services.fulfillment) readiness.fulfillment = fulfillment.ready();
  if (deps.services.support) readiness.support = support.ready();
  if (deps.services.scheduler) readiness.scheduler = new ServiceClient('scheduler', deps.services.scheduler, timeout, credentials).ready();

  const app = createHttpApp({
    logger: deps.logger,
    readiness,
    // The public edge: members and API keys are authenticated per route (access(), apiKeyAccess).
    serviceAuth: null,
    ...(deps.opsToken !== undefined && { opsToken: deps.opsToken }),
    routes: (app) => {
      if (deps.trustProxy !== undefined) app.set('trust proxy', deps.trustProxy);
      app.use(browserHeaders(settings));
      app.use('/api', compressReads());
      // API v2 first: its own body parser and its own error shape ({ error }).
      v2Routes(app, reseller, fulfillment);
      const api = express.Router();
      // Signed bank notifications are verified over the bank's own bytes; every other body and query is checked here.
      api.use(refuseUnsafeText(new Set(['/deposits/notify'])));
      authRoutes(api, auth, verifier, catalog);
      accountRoutes(api, verifier, auth, wallet, reseller.keys, deps.live?.sessionEnds);
      referralRoutes(api, verifier, wallet);
      catalogRoutes(api, catalog, settings);
      memberCatalogueRoutes(api, verifier, catalog, reseller.prices);
      apiDocsRoutes(api, { perMinute: resellerOptions.ratePerMinute }, deps.publicBaseUrl);
      openApiRoutes(api, { perMinute: resellerOptions.ratePerMinute }, deps.publicBaseUrl);
      moneyRoutes(api, verifier, order, wallet, { waitMs: resellerOptions.orderWaitMs, idempotency: reseller.idempotency });
      massOrderRoutes(api, verifier, order, new Idempotency(deps.redis, resellerOptions.idempotencyTtlSeconds, massOrderLockMs), resellerOptions.orderWaitMs);
      resellerRoutes(api, reseller);
      fulfillmentRoutes(api, verifier, fulfillment, reseller);
      adminTopUpRoutes(api, verifier, auth, wallet);
      adminMemberRoutes(api, verifier, auth, wallet, order);
      adminRateRoutes(api, verifier, auth, order);
      adminSubscriptionRoutes(api, verifier, auth, order);
      adminOrderRoutes(api, verifier, auth, order, fulfillment);
      depositRoutes(api, verifier, auth, wallet, deps.depositWebhook ?? { secret: undefined, windowSeconds: 300 });
      adminMoneyRoutes(api, verifier, order, wallet);
      adminFulfillmentRoutes(api, verifier, fulfillment);
      adminDashboardRoutes(api, verifier, wallet, order, fulfillment, deps.deadLetters);
      adminAuditRoutes(api, verifier, auth);
      adminExportRoutes(api, verifier, { auth, wallet, order });
      adminReportRoutes(api, verifier, { auth, wallet, order, fulfillment });
      operatorRoutes(api, verifier, auth);
      supportRoutes(api, verifier, { auth, order, support });
      adminRoutes(api, verifier, catalog, settings);
      liveRoutes(api, verifier, deps.live);
      api.use((req: Request, _res: Response, next: NextFunction) => {
        // `/api` is also the web app's API documentation screen: a browser opening it (a reload or
        // a typed address) gets the app; JSON clients and every deeper unknown path get the 404.
        if (req.method === 'GET' && req.originalUrl.split('?')[0] === '/api' && req.accepts(['json', 'html']) === 'html') return next();
        throw new HttpError(404, 'ROUTE_NOT_FOUND', messages.routeNotFound);
      });
      app.use('/api', api);
      deps.web?.(app);
    },
  });
  return app;
}
