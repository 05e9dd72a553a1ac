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
import { startWalletConsumer } from './events/consumers.ts';
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
  /** Kafka consumer group; default `wallet`. A new group reads every topic from the start (a replay). */
  consumerGroup?: string;
};
export type WalletService = { app: Express; accounts: PointAccounts; store: Store; relay: OutboxRelay; stop(): Promise<void> };

/** Wires the wallet: storage, outbox relay, event consumer and HTTP routes. `main.ts` only adds listen and signals. */
export async function startWalletService(settings: WalletSettings): Promise<WalletService> {
  const { mongoUrl, kafkaBrokers, logger } = settings;
  const connection = await connectMongo(mongoUrl, logger, 'wallet');
  const store = await createStore(connection);
  const kafka = createKafka(kafkaBrokers, 'wallet', logger);
  await ensureTopics(kafka, [{ topic: Topics.wallet, numPartitions: 3 }]);
  const producer = new EventProducer(kafka);
  await producer.connect();
  const relay = new OutboxRelay({ connection, producer, logger, ...(settings.relayIntervalMs ? { intervalMs: settings.relayIntervalMs } : {}) });
  relay.start();
  const deps: WalletDeps = { store, logger, relay, topUpExpirySeconds: settings.topUpExpirySeconds ?? 10_800 };
  const consumer = await startWalletConsumer(deps, kafka, producer, logger, settings.consumerGroup ?? 'wallet');
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
