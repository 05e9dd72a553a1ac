import type { Express } from 'express';
import { Topics, UserRegistered } from '@smm/contracts';
import {
  EventProducer,
  type Logger,
  connectMongo,
  createHttpApp,
  createKafka,
  kafkaReady,
  mongoReady,
  runEventConsumer,
} from '@smm/platform';
import { onUserRegistered } from './events/on-user-registered.ts';
import { walletRoutes } from './http/routes.ts';
import { PointAccounts } from './store/point-account.model.ts';

export type WalletSettings = { mongoUrl: string; kafkaBrokers: readonly string[]; logger: Logger };
export type WalletService = { app: Express; accounts: PointAccounts; stop(): Promise<void> };

/** Wires the wallet: storage, event consumers and HTTP routes. `main.ts` only adds listen and signals. */
export async function startWalletService({ mongoUrl, kafkaBrokers, logger }: WalletSettings): Promise<WalletService> {
  const connection = await connectMongo(mongoUrl, logger, 'wallet');
  const accounts = new PointAccounts(connection);
  const kafka = createKafka(kafkaBrokers, 'wallet', logger);
  const producer = new EventProducer(kafka);
  await producer.connect();
  const consumer = await runEventConsumer({
    kafka,
    groupId: 'wallet',
    topics: [Topics.auth],
    definitions: [UserRegistered] as const,
    ignore: ['ApiKeyRotated', 'ReferralCodeIssued'],
    producer,
    logger,
    handle: (event, { log }) => onUserRegistered({ connection, accounts }, event, log),
  });
  const app = createHttpApp({
    logger,
    readiness: { mongo: mongoReady(connection), kafka: kafkaReady(kafka) },
    routes: walletRoutes(accounts),
  });
  return {
    app,
    accounts,
    async stop() {
      await consumer.stop();
      await producer.disconnect();
      await connection.close();
    },
  };
}
