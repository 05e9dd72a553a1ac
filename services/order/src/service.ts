import { Topics } from '@smm/contracts';
import { type Logger, type RunningService, startService, type KafkaSasl } from '@smm/platform';
import { startConsumers } from './events/consumers.ts';
import { adminDashboardRoutes } from './http/admin-dashboard-routes.ts';
import { adminRoutes } from './http/admin-routes.ts';
import { adminSearchRoutes } from './http/admin-search-routes.ts';
import { rateRoutes } from './http/rate-routes.ts';
import { memberRoutes } from './http/routes.ts';
import { reportRoutes } from './http/report-routes.ts';
import { subscriptionRoutes } from './http/subscription-routes.ts';
import { SubscriptionExpiry } from './use-cases/subscription-expiry.ts';
import { type Store, createStore } from './store/store.ts';
import { orderCollections } from './store/models.ts';
import type { OrderDeps } from './use-cases/context.ts';
import { PaymentWaiter } from './use-cases/payment-waiter.ts';
import { PlacementBatcher } from './use-cases/placement-batcher.ts';

export type OrderSettings = {
  mongoUrl: string;
  kafkaBrokers: readonly string[];
  /** Kafka credentials (null: none); left out, KAFKA_SASL_* of the process's environment. */
  kafkaSasl?: KafkaSasl | null;
  logger: Logger;
  /** SERVICE_AUTH_SECRET: every route but the probes needs a service credential signed with it. */
  serviceAuthSecret: string;
  idBlock?: number;
  replicaCacheMs?: number;
  outboxPollMs?: number;
  /**
   * Longest sleep of the subscription expiry timer (default 1 h): it is set for the soonest expiry,
   * capped by this so a jumped clock or another replica's subscription is caught within it.
   */
  subscriptionExpiryMaxSleepMs?: number;
  /** main listens on PORT/HOST; tests run `app` themselves. */
  listen?: { port: number; host?: string };
};
export type OrderService = RunningService<OrderDeps> & { store: Store; subscriptionExpiry: SubscriptionExpiry };

/** The order service's wiring: its store, use-case collaborators, consumers and routes, started by the platform's startService. */
export async function startOrderService(settings: OrderSettings): Promise<OrderService> {
  const expiry = new SubscriptionExpiry(settings.subscriptionExpiryMaxSleepMs ?? 3_600_000);
  const service = await startService<OrderDeps>({
    name: 'order',
    logger: settings.logger,
    mongoUrl: settings.mongoUrl,
    kafkaBrokers: settings.kafkaBrokers,
    ...(settings.kafkaSasl !== undefined && { kafkaSasl: settings.kafkaSasl }),
    serviceAuthSecret: settings.serviceAuthSecret,
    // Our own topic, and those we read (so a fresh cluster gives them partitions before anyone writes).
    topics: [Topics.order, Topics.wallet, Topics.scheduler, Topics.catalog],
    relay: { intervalMs: settings.outboxPollMs ?? 1000, documents: Object.values(orderCollections) },
    ...(settings.listen ? { listen: settings.listen } : {}),
    async build({ connection, logger, relay }) {
      const store = await createStore(connection, { idBlock: settings.idBlock ?? 20, replicaCacheMs: settings.replicaCacheMs ?? 1000 });
      return { store, logger, relay, waiter: new PaymentWaiter(), placements: new PlacementBatcher(store), expiry };
    },
    jobs: (deps) => {
      // Subscriptions past their expiry day expire with the refund of their unused posts.
      expiry.start(deps);
      return [
        { name: 'payment waiter', stop: () => deps.waiter.stop() },
        { name: 'subscription expiry', stop: () => expiry.stop() },
      ];
    },
    consumers: (deps, { kafka, producer }) => startConsumers(deps, kafka, producer),
    routes(app, deps) {
      memberRoutes(app, deps);
      rateRoutes(app, deps);
      subscriptionRoutes(app, deps);
      adminRoutes(app, deps);
      adminSearchRoutes(app, deps);
      adminDashboardRoutes(app, deps);
      reportRoutes(app, deps);
    },
  });
  return { ...service, store: service.deps.store, subscriptionExpiry: expiry };
}
