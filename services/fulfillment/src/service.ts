import { Topics } from '@smm/contracts';
import { type Logger, type RunningService, runEventConsumer, startService, type KafkaSasl } from '@smm/platform';
import { catalogClient } from './clients/catalog-client.ts';
import { orderClient } from './clients/order-client.ts';
import { BackgroundConsumer } from './events/background-consumer.ts';
import { type HandlerDeps, handleInputs, ignoredEvents, inputEvents, inputTopics } from './events/inputs.ts';
import { adminOnly } from './http/actor.ts';
import { forwardRoutes } from './http/forward-routes.ts';
import { memberRoutes } from './http/member-routes.ts';
import { orderForwardRoutes } from './http/order-forward-routes.ts';
import { providerRoutes } from './http/provider-routes.ts';
import { reportRoutes } from './http/report-routes.ts';
import { syncRoutes } from './http/sync-routes.ts';
import { providerServices } from './store/catalog.model.ts';
import { forwards } from './store/forward.model.ts';
import { KeyCipher } from './store/key-cipher.ts';
import { mappings } from './store/mapping.model.ts';
import { Providers } from './store/provider.model.ts';
import { refills } from './store/refill.model.ts';
import { requests } from './store/request.model.ts';
import { requestRoutes } from './http/request-routes.ts';
import type { FulfillmentDeps } from './use-cases/context.ts';
import { Forwarder } from './use-cases/forwarder.ts';
import { OrderPatcher } from './use-cases/order-patcher.ts';
import { refreshAllBalances } from './use-cases/balance-refresh.ts';
import { Periodic } from './use-cases/periodic.ts';
import { syncPrices } from './use-cases/price-sync.ts';
import { syncStatuses } from './use-cases/status-sync.ts';

export type FulfillmentSettings = {
  mongoUrl: string;
  kafkaBrokers: readonly string[];
  /** Kafka credentials (null: none); left out, KAFKA_SASL_* of the process's environment. */
  kafkaSasl?: KafkaSasl | null;
  logger: Logger;
  /** SERVICE_AUTH_SECRET: verifies callers of this service and signs its calls to order and catalog. */
  serviceAuthSecret: string;
  orderServiceUrl: string;
  catalogServiceUrl: string;
  keySecret: string;
  providerTimeoutMs: number;
  concurrency: number;
  pollMs: number;
  /** Kafka consumer group; instances of one deployment share it. */
  groupId?: string;
  /**
   * The consumer's session timeout (default 10 s, Kafka's floor is 6 s): after a crash the dead
   * member holds its partitions this long before the restarted process can take them (it was 30 s).
   */
  sessionTimeoutMs?: number;
  relayIntervalMs?: number;
  /** See ForwarderOptions.claimStaleMs. */
  claimStaleMs?: number;
  /** See FulfillmentDeps.retryBaseMs. */
  retryBaseMs?: number;
  statusSyncMs: number;
  /** See FulfillmentDeps.recordWaitMs (default 3 s). */
  recordWaitMs?: number;
  balanceSyncMs: number;
  priceSyncMs: number;
  /** FULFILLMENT_ALLOW_PRIVATE_PROVIDERS: provider URLs may reach loopback and private addresses. */
  allowPrivateProviders?: boolean;
  /** main listens on PORT/HOST; tests run `app` themselves. */
  listen?: { port: number; host?: string };
};

type FulfillmentParts = {
  deps: FulfillmentDeps;
  /** The paid-order consumer, set once `consumers` ran. */
  paidOrders: { current: BackgroundConsumer | null };
  forwarder: Forwarder;
  patcher: OrderPatcher;
  tasks: { statuses: Periodic; balances: Periodic; prices: Periodic };
};

export type FulfillmentService = Omit<RunningService<FulfillmentParts>, 'deps'> & FulfillmentParts;

/** Fulfillment's wiring: storage, the forwarder, the order patcher, periodic syncs, the consumer and routes, started by the platform's startService. */
export async function startFulfillmentService(settings: FulfillmentSettings): Promise<FulfillmentService> {
  const service = await startService<FulfillmentParts>({
    name: 'fulfillment',
    logger: settings.logger,
    mongoUrl: settings.mongoUrl,
    kafkaBrokers: settings.kafkaBrokers,
    ...(settings.kafkaSasl !== undefined && { kafkaSasl: settings.kafkaSasl }),
    serviceAuthSecret: settings.serviceAuthSecret,
    topics: [Topics.fulfillment, Topics.order],
    relay: { intervalMs: settings.relayIntervalMs ?? 500 },
    ...(settings.listen ? { listen: settings.listen } : {}),
    async build({ connection, logger, relay }) {
      const providers = new Providers(connection);
      await Promise.all([providers.model.init(), providerServices(connection).init(), mappings(connection).init(), forwards(connection).init(), refills(connection).init(), requests(connection).init()]);
      const deps: FulfillmentDeps = {
        connection,
        logger,
        relay,
        providers,
        cipher: new KeyCipher(settings.keySecret),
        catalog: catalogClient(settings.catalogServiceUrl, settings.serviceAuthSecret),
        order: orderClient(settings.orderServiceUrl, settings.serviceAuthSecret),
        providerTimeoutMs: settings.providerTimeoutMs,
        retryBaseMs: settings.retryBaseMs ?? 5000,
        recordWaitMs: settings.recordWaitMs ?? 3000,
        allowPrivateProviders: settings.allowPrivateProviders ?? false,
      };
      const patcher = new OrderPatcher(deps, settings.pollMs);
      patcher.start();
      const forwarder = new Forwarder(deps, { concurrency: settings.concurrency, pollMs: settings.pollMs, claimStaleMs: settings.claimStaleMs, onOrderPatch: () => patcher.kick() });
      forwarder.start();
      const tasks = {
        statuses: new Periodic('status sync', settings.statusSyncMs, () => syncStatuses(deps, () => patcher.kick()), logger),
        balances: new Periodic('balance refresh', settings.balanceSyncMs, () => refreshAllBalances(deps), logger),
        prices: new Periodic('price sync', settings.priceSyncMs, () => syncPrices(deps), logger),
      };
      for (const task of Object.values(tasks)) task.start();
      return { deps, forwarder, patcher, tasks, paidOrders: { current: null } };
    },
    jobs: ({ forwarder, patcher, tasks }) => [
      { name: 'periodic syncs', stop: () => Promise.all(Object.values(tasks).map((t) => t.stop())) },
      { name: 'forwarder', stop: () => forwarder.stop() },
      { name: 'order patcher', stop: () => patcher.stop() },
    ],
    consumers: async ({ deps, forwarder, paidOrders }, { kafka, producer, logger }) => {
      const handlerDeps: HandlerDeps = { ...deps, wake: () => forwarder.kick() };
      // Joined in the background: a restart after a crash answers HTTP at once (see BackgroundConsumer).
      paidOrders.current = new BackgroundConsumer(
        () =>
          runEventConsumer({
            kafka,
            groupId: settings.groupId ?? 'fulfillment',
            topics: inputTopics,
            definitions: inputEvents,
            ignore: ignoredEvents,
            producer,
            logger,
            sessionTimeout: settings.sessionTimeoutMs ?? 10_000,
            gatherMs: 250, // forwarding is not on the order's answer path: fetch paid orders in gathered runs
            // A fetch's paid orders of all three partitions enter together: one mapping read, one insert.
            mode: 'batch',
            partitionsConcurrently: 3,
            acrossPartitions: true,
            handleBatch: (events, log) => handleInputs(handlerDeps, events, log),
          }),
        logger,
      );
      return [paidOrders.current];
    },
    readiness: ({ paidOrders }) => ({ consumer: () => paidOrders.current?.ready() ?? Promise.reject(new Error('consumer not started')) }),
    routes(app, { deps, forwarder, patcher }) {
      memberRoutes(app, deps, { canceled: () => patcher.kick() });
      // Operators (admin or staff): the order list's lookups and the review queue.
      orderForwardRoutes(app, deps);
      forwardRoutes(app, deps, { resolved: () => (forwarder.kick(), patcher.kick()) });
      reportRoutes(app, deps);
      requestRoutes(app, deps, { changed: () => patcher.kick() });
      // Admin only: providers, mappings and price rules, notices, sync.
      app.use('/admin', adminOnly);
      providerRoutes(app, deps);
      syncRoutes(app, { statuses: () => syncStatuses(deps, () => patcher.kick()), balances: () => refreshAllBalances(deps), prices: () => syncPrices(deps) });
    },
  });
  settings.logger.info({ concurrency: settings.concurrency, providerTimeoutMs: settings.providerTimeoutMs }, 'fulfillment started');
  return { ...service, ...service.deps };
}
