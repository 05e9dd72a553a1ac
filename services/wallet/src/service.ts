import { Topics } from '@smm/contracts';
import { type Logger, type OutboxRelay, type RunningService, startService, type KafkaSasl } from '@smm/platform';
import { startWalletConsumers } from './events/consumers.ts';
import { adjustmentRoutes } from './http/adjustment-routes.ts';
import { dashboardRoutes } from './http/dashboard-routes.ts';
import { reconcileRoutes } from './http/reconcile-routes.ts';
import { reportRoutes } from './http/report-routes.ts';
import { depositRoutes } from './http/deposit-routes.ts';
import { walletRoutes } from './http/routes.ts';
import type { PointAccounts } from './store/point-account.model.ts';
import { type Store, createStore } from './store/store.ts';
import type { WalletDeps } from './use-cases/context.ts';

export type WalletSettings = {
  mongoUrl: string;
  kafkaBrokers: readonly string[];
  /** Kafka credentials (null: none); left out, KAFKA_SASL_* of the process's environment. */
  kafkaSasl?: KafkaSasl | null;
  logger: Logger;
  /** SERVICE_AUTH_SECRET: every route but the probes needs a service credential signed with it. */
  serviceAuthSecret: string;
  /** Default 10,800 (3 hours). */
  topUpExpirySeconds?: number;
  /** How often the outbox relay polls when nothing kicks it; default 1000 ms. */
  relayIntervalMs?: number;
  /** Kafka consumer groups; default `wallet` and `wallet-payments`. New groups read every topic from the start (a replay). */
  consumerGroups?: { main: string; payments: string };
  /** main listens on PORT/HOST; tests run `app` themselves. */
  listen?: { port: number; host?: string };
};
export type WalletService = RunningService<WalletDeps> & { accounts: PointAccounts; store: Store; relay: OutboxRelay };

/** The wallet's wiring: its store, consumers and routes, started by the platform's startService. */
export async function startWalletService(settings: WalletSettings): Promise<WalletService> {
  const service = await startService<WalletDeps>({
    name: 'wallet',
    logger: settings.logger,
    mongoUrl: settings.mongoUrl,
    kafkaBrokers: settings.kafkaBrokers,
    ...(settings.kafkaSasl !== undefined && { kafkaSasl: settings.kafkaSasl }),
    serviceAuthSecret: settings.serviceAuthSecret,
    // Its own topic and the ones it reads: a topic first created by a consumer's subscription would get one partition.
    topics: [Topics.wallet, Topics.auth, Topics.catalog, Topics.order, Topics.scheduler],
    // Runs of up to 500 payment outcomes are committed at once; publish them in as few sends.
    relay: { batchSize: 500, ...(settings.relayIntervalMs ? { intervalMs: settings.relayIntervalMs } : {}) },
    ...(settings.listen ? { listen: settings.listen } : {}),
    async build({ connection, logger, relay }) {
      return { store: await createStore(connection), logger, relay, topUpExpirySeconds: settings.topUpExpirySeconds ?? 10_800 };
    },
    consumers: async (deps, { kafka, producer, logger }) => [await startWalletConsumers(deps, kafka, producer, logger, settings.consumerGroups)],
    routes(app, deps) {
      walletRoutes(deps)(app);
      depositRoutes(deps)(app);
      adjustmentRoutes(deps)(app);
      dashboardRoutes(deps)(app);
      reconcileRoutes(deps)(app);
      reportRoutes(deps)(app);
    },
  });
  return { ...service, accounts: service.deps.store.accounts, store: service.deps.store };
}
