import type { Express } from 'express';
import { Topics } from '@smm/contracts';
import {
  EventProducer,
  type Logger,
  OutboxRelay,
  connectMongo,
  createHttpApp,
  createKafka,
  ensureTopics,
  kafkaReady,
  mongoReady,
} from '@smm/platform';
import { startWalletConsumers } from './events/consumers.ts';
import { walletRoutes } from './http/routes.ts';
import type { PointAccounts } from './store/point-account.model.ts';
import { type Store, createStore } from './store/store.ts';
import type { WalletDeps } from './use-cases/context.ts';

export type WalletSettings = {
  mongoUrl: string;
  kafkaBrokers: readonly string[];
  logger: Logger;
  /** Default 10,800 (3 hours). */
  topUpExpirySeconds?: number;
  /** How often the outbox relay polls when nothing kicks it; default 500 ms. */
  relayIntervalMs?: number;
  /** Kafka consumer groups; default `wallet` and `wallet-payments`. New groups read every topic from the start (a replay). */
  consumerGroups?: { main: string; payments: string };
};
export type WalletService = { app: Express; accounts: PointAccounts; store: Store; relay: OutboxRelay; stop(): Promise<void> };

/** Wires the wallet: storage, outbox relay, event consumer and HTTP routes. `main.ts` only adds listen and signals. */
export async function startWalletService(settings: WalletSettings): Promise<WalletService> {
  const { mongoUrl, kafkaBrokers, logger } = settings;
  const connection = await connectMongo(mongoUrl, logger, 'wallet');
  const store = await createStore(connection);
  const kafka = createKafka(kafkaBrokers, 'wallet', logger);
  // Its own topic and the ones it reads: a topic first created by a consumer's subscription would get one partition.
  await ensureTopics(kafka, [Topics.wallet, Topics.auth, Topics.catalog, Topics.order, Topics.scheduler].map((topic) => ({ topic, numPartitions: 3 })));
  const producer = new EventProducer(kafka);
  await producer.connect();
  // Runs of up to 500 payment outcomes are committed at once; publish them in as few sends.
  const relay = new OutboxRelay({ connection, producer, logger, batchSize: 500, ...(settings.relayIntervalMs ? { intervalMs: settings.relayIntervalMs } : {}) });
  relay.start();
  const deps: WalletDeps = { store, logger, relay, topUpExpirySeconds: settings.topUpExpirySeconds ?? 10_800 };
  const consumer = await startWalletConsumers(deps, kafka, producer, logger, settings.consumerGroups);
  const app = createHttpApp({
    logger,
    readiness: { mongo: mongoReady(connection), kafka: kafkaReady(kafka) },
    routes: walletRoutes(deps),
  });
  return {
    app,
    accounts: store.accounts,
    store,
    relay,
    async stop() {
      await consumer.stop();
      await relay.stop();
      await producer.disconnect();
      await connection.close();
    },
  };
}
