import { createLogger, listen, loadConfig, onShutdown } from '@smm/platform';
import { schedulerConfigShape } from './config.ts';
import { startSchedulerService } from './scheduler-service.ts';

// Composition root: configuration, the service, the listener, the shutdown order.
const config = loadConfig(schedulerConfigShape);
const logger = createLogger({ service: 'scheduler', level: config.LOG_LEVEL });

try {
  const scheduler = await startSchedulerService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    logger,
    minuteMs: config.SCHEDULER_MINUTE_MS,
    pollMs: config.SCHEDULER_POLL_MS,
  });
  const server = await listen(scheduler.app, config.PORT, config.HOST);
  logger.info({ port: server.port }, 'listening');
  onShutdown(logger, [
    { name: 'http', run: () => server.close() },
    { name: 'scheduler', run: () => scheduler.stop() },
  ]);
} catch (error) {
  // Unreachable MongoDB or Kafka: one fatal log line and a non-zero exit, for the supervisor.
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
}
