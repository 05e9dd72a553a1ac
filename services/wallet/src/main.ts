import { createLogger, loadConfig, runService } from '@smm/platform';
import { walletConfigShape } from './config.ts';
import { startWalletService } from './service.ts';

// Composition root: configuration, then the service started (and stopped on signals) by the platform.
const config = loadConfig(walletConfigShape);
const logger = createLogger({ service: 'wallet', level: config.LOG_LEVEL });

await runService(logger, () =>
  startWalletService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    logger,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    topUpExpirySeconds: config.TOPUP_EXPIRY_SECONDS,
    listen: { port: config.PORT, host: config.HOST },
  }),
);
