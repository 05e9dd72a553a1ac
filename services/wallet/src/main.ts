import { createLogger, listen, loadConfig, onShutdown } from '@smm/platform';
import { walletConfigShape } from './config.ts';
import { startWalletService } from './wallet-service.ts';

const config = loadConfig(walletConfigShape);
const logger = createLogger({ service: 'wallet', level: config.LOG_LEVEL });
const wallet = await startWalletService({ mongoUrl: config.MONGO_URL, kafkaBrokers: config.KAFKA_BROKERS, logger });
const server = await listen(wallet.app, config.PORT, config.HOST);
logger.info({ port: server.port }, 'listening');
onShutdown(logger, [
  { name: 'http', run: () => server.close() },
  { name: 'wallet', run: () => wallet.stop() },
]);
