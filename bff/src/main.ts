import { closeRedis, createLogger, createRedis, listen, loadConfig, onShutdown } from '@smm/platform';
import { createApp } from './app.ts';
import { configShape } from './config.ts';

// Composition root: configuration, Redis, the app, the listener, the shutdown order.
const config = loadConfig(configShape);
const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });

function trustProxy(value: string | undefined): boolean | number | string | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  return /^\d+$/.test(value) ? Number(value) : value;
}

try {
  const redis = createRedis(config.REDIS_URL, logger, config.SERVICE_NAME);
  const app = createApp({
    logger,
    redis,
    services: {
      auth: config.AUTH_SERVICE_URL,
      catalog: config.CATALOG_SERVICE_URL,
      wallet: config.WALLET_SERVICE_URL,
      order: config.ORDER_SERVICE_URL,
      scheduler: config.SCHEDULER_SERVICE_URL,
    },
    jwtPublicKey: config.JWT_PUBLIC_KEY,
    jwtIssuer: config.JWT_ISSUER,
    upstreamTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    settingsCache: { ttlSeconds: config.SETTINGS_CACHE_SECONDS, revalidateSeconds: config.SETTINGS_REVALIDATE_SECONDS },
    trustProxy: trustProxy(config.TRUST_PROXY),
    web: (await import('./web-mount.ts')).mountWeb({ logger }),
    reseller: {
      orderWaitMs: config.ORDER_WAIT_MS,
      ratePerMinute: config.API_RATE_LIMIT_PER_MINUTE,
      idempotencyTtlSeconds: config.IDEMPOTENCY_TTL_SECONDS,
      apiKeyCacheSeconds: config.API_KEY_CACHE_SECONDS,
      catalogueCacheMs: config.RESELLER_CATALOGUE_CACHE_MS,
    },
  });
  const server = await listen(app, config.PORT, config.HOST);
  logger.info({ host: config.HOST, port: server.port }, 'listening');
  onShutdown(logger, [
    { name: 'http', run: () => server.close() },
    { name: 'redis', run: () => closeRedis(redis) },
  ]);
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    process.stderr.write(`PORT ${config.PORT} on ${config.HOST} cannot be used (${code})\n`);
    process.exit(2);
  }
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
}
