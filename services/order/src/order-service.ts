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
import { startConsumers } from './events/consumers.ts';
import { adminRoutes } from './http/admin-routes.ts';
import { memberRoutes } from './http/routes.ts';
import { type Store, createStore } from './store/store.ts';
import type { OrderDeps } from './use-cases/context.ts';
import { PaymentWaiter } from './use-cases/payment-waiter.ts';
import { PlacementBatcher } from './use-cases/placement-batcher.ts';

export type OrderSettings = {
  mongoUrl: string;
  kafkaBrokers: readonly string[];
  logger: Logger;
  waitPollMs?: number;
  idBlock?: number;
  replicaCacheMs?: number;
  outboxPollMs?: number;
};
export type OrderService = { app: Express; store: Store; deps: OrderDeps; stop(): Promise<void> };

/** Wires the order service: storage, outbox relay, consumers and HTTP. `main.ts` adds listen and signals. */
export async function startOrderService({ mongoUrl, kafkaBrokers, logger, waitPollMs, idBlock, replicaCacheMs, outboxPollMs }: OrderSettings): Promise<OrderService> {
  const connection = await connectMongo(mongoUrl, logger, 'order');
  const store = await createStore(connection, { idBlock: idBlock ?? 1, replicaCacheMs: replicaCacheMs ?? 1000 });
  const kafka = createKafka(kafkaBrokers, 'order', logger);
  // Our own topic, and those we read (so a fresh cluster gives them partitions before anyone writes).
  await ensureTopics(kafka, [Topics.order, Topics.wallet, Topics.scheduler, Topics.catalog].map((topic) => ({ topic, numPartitions: 3 })));
  const producer = new EventProducer(kafka);
  await producer.connect();
  const relay = new OutboxRelay({ connection, producer, logger, intervalMs: outboxPollMs ?? 500 });
  relay.start();
  const waiter = new PaymentWaiter(store, logger, waitPollMs ?? 250);
  const deps: OrderDeps = { store, logger, relay, waiter, placements: new PlacementBatcher(store, relay) };
  const consumers = await startConsumers(deps, kafka, producer);
  const app = createHttpApp({
    logger,
    readiness: { mongo: mongoReady(connection), kafka: kafkaReady(kafka) },
    routes: (a) => {
      memberRoutes(a, deps);
      adminRoutes(a, deps);
    },
  });
  return {
    app,
    store,
    deps,
    async stop() {
      waiter.stop();
      await Promise.all(consumers.map((c) => c.stop()));
      await relay.stop();
      await producer.disconnect();
      await connection.close();
    },
  };
}
