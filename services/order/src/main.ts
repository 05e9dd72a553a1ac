import { createLogger, listen, loadConfig, onShutdown } from '@smm/platform';
import { orderConfigShape } from './config.ts';
import { startOrderService } from './order-service.ts';

// Composition root: configuration, the service, the listener, the shutdown order.
const config = loadConfig(orderConfigShape);
const logger = createLogger({ service: 'order', level: config.LOG_LEVEL });

try {
  const order = await startOrderService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    logger,
    waitPollMs: config.ORDER_WAIT_POLL_MS,
    idBlock: config.ORDER_ID_BLOCK,
    replicaCacheMs: config.REPLICA_CACHE_MS,
    outboxPollMs: config.OUTBOX_POLL_MS,
  });
  const server = await listen(order.app, config.PORT, config.HOST);
  logger.info({ host: config.HOST, port: server.port }, 'listening');
  onShutdown(logger, [
    { name: 'http', run: () => server.close() },
    { name: 'order', run: () => order.stop() },
  ]);
} catch (error) {
  // Unreachable MongoDB or Kafka: one fatal log line and a non-zero exit, for the supervisor.
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
}
