import { createLogger, listen, loadConfig, onShutdown } from '@smm/platform';
import { walletConfigShape } from './config.ts';
import { startWalletService } from './wallet-service.ts';

// Composition root: configuration, the service, the listener, the shutdown order.
const config = loadConfig(walletConfigShape);
const logger = createLogger({ service: 'wallet', level: config.LOG_LEVEL });

try {
  const wallet = await startWalletService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    logger,
    topUpExpirySeconds: config.TOPUP_EXPIRY_SECONDS,
  });
  const server = await listen(wallet.app, config.PORT, config.HOST);
  logger.info({ port: server.port }, 'listening');
  onShutdown(logger, [
    { name: 'http', run: () => server.close() },
    { name: 'wallet', run: () => wallet.stop() },
  ]);
} catch (error) {
  // Unreachable MongoDB or Kafka: one fatal log line and a non-zero exit, for the supervisor.
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
}
