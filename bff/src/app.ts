import express from 'express';
import type { Express, NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { HttpError, type ReadinessCheck, createHttpApp, redisReady } from '@smm/platform';
import { SettingsCache } from './cache/settings-cache.ts';
import { accountRoutes } from './http/account-routes.ts';
import { adminMoneyRoutes } from './http/admin-money-routes.ts';
import { adminRoutes } from './http/admin-routes.ts';
import { apiDocsRoutes } from './http/api-docs.ts';
import { authRoutes } from './http/auth-routes.ts';
import { catalogRoutes } from './http/catalog-routes.ts';
import { moneyRoutes } from './http/money-routes.ts';
import { resellerRoutes } from './http/reseller-routes.ts';
import { v2Routes } from './http/v2-routes.ts';
import { messages } from './messages.ts';
import { type ResellerOptions, createReseller } from './reseller/reseller.ts';
import { TokenVerifier } from './security/token-verifier.ts';
import { ServiceClient } from './upstream/service-client.ts';

export type ServiceUrls = { auth: string; catalog: string; wallet: string; order?: string | undefined; scheduler?: string | undefined };

export type AppDeps = {
  logger: Logger;
  redis: Redis;
  services: ServiceUrls;
  jwtPublicKey: string;
  jwtIssuer?: string;
  upstreamTimeoutMs?: number;
  settingsCache?: { ttlSeconds: number; revalidateSeconds: number };
  /** Express's `trust proxy` value, so the client address is right behind a reverse proxy. */
  trustProxy?: boolean | number | string;
  /** Order placement wait and the public reseller API's limits and caches (defaults in config.ts). */
  reseller?: Partial<ResellerOptions>;
  /**
   * The web app (a later issue) is served by the BFF too: it will be mounted here, after the API
   * and the health checks, with its own fallback to index.html. Everything under /api stays JSON.
   */
  web?: (app: Express) => void;
};

/** The BFF's HTTP app without listening: main.ts listens, tests run it on port 0. */
export function createApp(deps: AppDeps): Express {
  const timeout = deps.upstreamTimeoutMs ?? 10_000;
  const auth = new ServiceClient('auth', deps.services.auth, timeout);
  const catalog = new ServiceClient('catalog', deps.services.catalog, timeout);
  const wallet = new ServiceClient('wallet', deps.services.wallet, timeout);
  // Optional in the configuration: while unset, order routes answer 503 SERVICE_UNAVAILABLE.
  const order = new ServiceClient('order', deps.services.order, timeout);
  const resellerOptions: ResellerOptions = {
    ratePerMinute: 600,
    idempotencyTtlSeconds: 86_400,
    apiKeyCacheSeconds: 60,
    catalogueCacheMs: 1000,
    orderWaitMs: 5000,
    ...deps.reseller,
  };
  const reseller = createReseller(deps.redis, auth, catalog, order, wallet, resellerOptions, timeout);
  const verifier = new TokenVerifier(deps.jwtPublicKey, deps.jwtIssuer ?? 'smm-auth');
  const settings = new SettingsCache(deps.redis, catalog, deps.settingsCache ?? { ttlSeconds: 3600, revalidateSeconds: 10 });

  const readiness: Record<string, ReadinessCheck> = {
    redis: redisReady(deps.redis),
    auth: auth.ready(),
    catalog: catalog.ready(),
    wallet: wallet.ready(),
  };
  if (deps.services.order) readiness.order = order.ready();
  if (deps.services.scheduler) readiness.scheduler = new ServiceClient('scheduler', deps.services.scheduler, timeout).ready();

  const app = createHttpApp({
    logger: deps.logger,
    readiness,
    routes: (app) => {
      if (deps.trustProxy !== undefined) app.set('trust proxy', deps.trustProxy);
      // API v2 first: its own body parser and its own error shape ({ error }).
      v2Routes(app, reseller);
      const api = express.Router();
      authRoutes(api, auth);
      accountRoutes(api, verifier, auth, wallet, reseller.keys);
      catalogRoutes(api, catalog, settings);
      apiDocsRoutes(api, { perMinute: resellerOptions.ratePerMinute });
      moneyRoutes(api, verifier, order, wallet, { waitMs: resellerOptions.orderWaitMs });
      resellerRoutes(api, reseller);
      adminMoneyRoutes(api, verifier, order, wallet);
      adminRoutes(api, verifier, catalog, settings);
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
