import { Topics } from '@smm/contracts';
import { type Logger, type RunningService, startService, type KafkaSasl } from '@smm/platform';
import { adminOnly } from './http/actor.ts';
import { adminCatalogRoutes } from './http/admin-catalog-routes.ts';
import { adminContentRoutes } from './http/admin-content-routes.ts';
import { publicRoutes } from './http/public-routes.ts';
import { defaultSeed } from './seed/seed-data.ts';
import { createStore } from './store/store.ts';
import type { CatalogDeps } from './use-cases/context.ts';
import { ReadCache } from './use-cases/read-cache.ts';
import { seedCatalog } from './use-cases/seed-catalog.ts';

export type CatalogSettings = {
  mongoUrl: string;
  kafkaBrokers: readonly string[];
  /** Kafka credentials (null: none); left out, KAFKA_SASL_* of the process's environment. */
  kafkaSasl?: KafkaSasl | null;
  logger: Logger;
  /** SERVICE_AUTH_SECRET: every route but the probes needs a service credential signed with it. */
  serviceAuthSecret: string;
  /** CATALOG_SEED: fill an empty catalog with the default seed at start. */
  seed: boolean;
  /** Outbox relay poll interval when nothing kicks it; default 1000 ms. */
  relayIntervalMs?: number;
  /** main listens on PORT/HOST; tests pass port 0. */
  listen?: { port: number; host?: string };
};

export type CatalogService = RunningService<CatalogDeps>;

/** The catalog's wiring: its store (seeded when asked), read cache and routes, started by the platform's startService. */
export function startCatalogService(settings: CatalogSettings): Promise<CatalogService> {
  return startService<CatalogDeps>({
    name: 'catalog',
    logger: settings.logger,
    mongoUrl: settings.mongoUrl,
    kafkaBrokers: settings.kafkaBrokers,
    ...(settings.kafkaSasl !== undefined && { kafkaSasl: settings.kafkaSasl }),
    serviceAuthSecret: settings.serviceAuthSecret,
    topics: [Topics.catalog],
    ...(settings.relayIntervalMs ? { relay: { intervalMs: settings.relayIntervalMs } } : {}),
    ...(settings.listen ? { listen: settings.listen } : {}),
    async build({ connection, logger }) {
      const store = await createStore(connection);
      if (settings.seed) await seedCatalog({ store, logger }, defaultSeed);
      return { store, logger, cache: new ReadCache(store) };
    },
    routes(app, deps) {
      publicRoutes(app, deps);
      app.use('/admin', adminOnly);
      adminCatalogRoutes(app, deps);
      adminContentRoutes(app, deps);
    },
  });
}
