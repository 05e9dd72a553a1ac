import type { Express } from 'express';
import type { Logger } from 'pino';
import { type ReadinessCheck, createHttpApp } from '@smm/platform';
import { adminOnly } from './http/actor.ts';
import { adminCatalogRoutes } from './http/admin-catalog-routes.ts';
import { adminContentRoutes } from './http/admin-content-routes.ts';
import { publicRoutes } from './http/public-routes.ts';
import type { Store } from './store/store.ts';
import type { CatalogDeps } from './use-cases/context.ts';
import { ReadCache } from './use-cases/read-cache.ts';

export type AppDeps = {
  store: Store;
  logger: Logger;
  /** Woken after each commit that recorded events; without it events wait for the relay's next poll. */
  relay?: { kick(): void };
  readiness?: Record<string, ReadinessCheck>;
};

/** The catalog's HTTP app, without listening: main.ts listens, tests run it on port 0. */
export function createApp({ store, logger, relay, readiness }: AppDeps): Express {
  const cache = new ReadCache(store);
  const deps: CatalogDeps = relay ? { store, logger, relay, cache } : { store, logger, cache };
  return createHttpApp({
    logger,
    readiness: readiness ?? {},
    routes: (app) => {
      publicRoutes(app, deps);
      app.use('/admin', adminOnly);
      adminCatalogRoutes(app, deps);
      adminContentRoutes(app, deps);
    },
  });
}
