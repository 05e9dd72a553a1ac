import { type AppRoot, kafkaSaslFromEnv, parseConfig } from '@smm/platform';
import { walletConfigShape } from './config.ts';
import { startWalletService } from './service.ts';

/**
 * The wallet service's composition root: its configuration from `env` (process.env in its own
 * process, the record the devstack gives it in the shared one), then the service started.
 */
export const startWalletApp: AppRoot = (env, logger) => {
  const config = parseConfig(walletConfigShape, env);
  return startWalletService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    kafkaSasl: kafkaSaslFromEnv(env) ?? null,
    logger,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    topUpExpirySeconds: config.TOPUP_EXPIRY_SECONDS,
    listen: { port: config.PORT, host: config.HOST },
  });
};
