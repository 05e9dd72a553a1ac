import { Topics } from '@smm/contracts';
import {
  EventProducer,
  OutboxRelay,
  connectMongo,
  createKafka,
  createLogger,
  ensureTopics,
  kafkaReady,
  listen,
  loadConfig,
  mongoReady,
  onShutdown,
} from '@smm/platform';
import { createApp } from './app.ts';
import { configShape } from './config.ts';
import { defaultSeed } from './seed/seed-data.ts';
import { createStore } from './store/store.ts';
import { seedCatalog } from './use-cases/seed-catalog.ts';

const config = loadConfig(configShape);
const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });

try {
  const connection = await connectMongo(config.MONGO_URL, logger, config.SERVICE_NAME);
  const kafka = createKafka(config.KAFKA_BROKERS, config.SERVICE_NAME, logger);
  await ensureTopics(kafka, [{ topic: Topics.catalog, numPartitions: 3 }]);
  const producer = new EventProducer(kafka);
  await producer.connect();
  const relay = new OutboxRelay({ connection, producer, logger });
  relay.start();

  const store = await createStore(connection);
  if (config.CATALOG_SEED) await seedCatalog({ store, logger, relay }, defaultSeed);

  const app = createApp({ store, logger, relay, readiness: { mongo: mongoReady(connection), kafka: kafkaReady(kafka) } });
  const server = await listen(app, config.PORT, config.HOST);
  logger.info({ host: config.HOST, port: server.port }, 'listening');

  onShutdown(logger, [
    { name: 'http', run: () => server.close() },
    { name: 'outbox relay', run: () => relay.stop() },
    { name: 'kafka producer', run: () => producer.disconnect() },
    { name: 'mongodb', run: () => connection.close() },
  ]);
} catch (error) {
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
}
