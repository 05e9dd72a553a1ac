import { type AppRoot, kafkaSaslFromEnv, parseConfig } from '@smm/platform';
import { fulfillmentConfigShape } from './config.ts';
import { startFulfillmentService } from './service.ts';

/**
 * The fulfillment service's composition root: its configuration from `env` (process.env in its own
 * process, the record the devstack gives it in the shared one), then the service started.
 */
export const startFulfillmentApp: AppRoot = (env, logger) => {
  const config = parseConfig(fulfillmentConfigShape, env);
  return startFulfillmentService({
    mongoUrl: config.MONGO_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    kafkaSasl: kafkaSaslFromEnv(env) ?? null,
    logger,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    orderServiceUrl: config.ORDER_SERVICE_URL,
    catalogServiceUrl: config.CATALOG_SERVICE_URL,
    keySecret: config.FULFILLMENT_KEY_SECRET,
    providerTimeoutMs: config.FULFILLMENT_PROVIDER_TIMEOUT_MS,
    concurrency: config.FULFILLMENT_PROVIDER_CONCURRENCY,
    pollMs: config.FULFILLMENT_POLL_MS,
    claimStaleMs: config.FULFILLMENT_CLAIM_STALE_MS,
    statusSyncMs: config.FULFILLMENT_STATUS_SYNC_MS,
    balanceSyncMs: config.FULFILLMENT_BALANCE_SYNC_MS,
    priceSyncMs: config.FULFILLMENT_PRICE_SYNC_MS,
    allowPrivateProviders: config.FULFILLMENT_ALLOW_PRIVATE_PROVIDERS,
    listen: { port: config.PORT, host: config.HOST },
  });
};
