import { announceListening, closeRedis, createKafka, createLogger, createRedis, listen, loadConfig, onShutdown, startTracing, stopTracing } from '@smm/platform';
import { createApp } from './app.ts';
import { configShape } from './config.ts';
import { LiveHub } from './live/live-hub.ts';
import { type RunningFeed, startLiveFeed } from './live/live-feed.ts';
import type { LiveDeps } from './live/live-routes.ts';
import { LiveTickets } from './live/live-tickets.ts';
import { SessionEnds } from './live/session-ends.ts';
import { DeadLetterReader } from './ops/dead-letters.ts';

// Composition root: configuration, Redis, the app, the listener, the shutdown order.
const config = loadConfig(configShape);
const logger = createLogger({ service: config.SERVICE_NAME, level: config.LOG_LEVEL });

function trustProxy(value: string | undefined): boolean | number | string | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  return /^\d+$/.test(value) ? Number(value) : value;
}

// Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; the BFF is where a member's request starts its trace.
startTracing(config.SERVICE_NAME);

try {
  const redis = createRedis(config.REDIS_URL, logger, config.SERVICE_NAME);
  let live: LiveDeps | undefined;
  let feed: RunningFeed | undefined;
  let sweep: NodeJS.Timeout | undefined;
  let deadLetters: DeadLetterReader | undefined;
  if (config.KAFKA_BROKERS) {
    deadLetters = new DeadLetterReader(createKafka(config.KAFKA_BROKERS, `${config.SERVICE_NAME}-dead-letters`, logger));
    const hub = new LiveHub({ replayPerMember: config.LIVE_REPLAY_PER_MEMBER, replayMs: config.LIVE_REPLAY_SECONDS * 1000 });
    feed = await startLiveFeed({ kafka: createKafka(config.KAFKA_BROKERS, `${config.SERVICE_NAME}-live`, logger), hub, logger });
    sweep = setInterval(() => hub.sweep(), 60_000);
    const sessionEnds = new SessionEnds(redis);
    await sessionEnds.listen(hub, logger);
    live = { hub, tickets: new LiveTickets(redis, config.LIVE_TICKET_SECONDS), heartbeatMs: 20_000, maxStreamMs: config.LIVE_STREAM_MAX_SECONDS * 1000, sessionEnds };
  } else {
    logger.warn('KAFKA_BROKERS unset: the live channel (/api/live) answers 503');
  }
  const app = createApp({
    logger,
    redis,
    services: {
      auth: config.AUTH_SERVICE_URL,
      catalog: config.CATALOG_SERVICE_URL,
      wallet: config.WALLET_SERVICE_URL,
      order: config.ORDER_SERVICE_URL,
      scheduler: config.SCHEDULER_SERVICE_URL,
      fulfillment: config.FULFILLMENT_SERVICE_URL,
      support: config.SUPPORT_SERVICE_URL,
    },
    jwtPublicKey: config.JWT_PUBLIC_KEY,
    live,
    deadLetters,
    serviceAuthSecret: config.SERVICE_AUTH_SECRET,
    jwtIssuer: config.JWT_ISSUER,
    upstreamTimeoutMs: config.UPSTREAM_TIMEOUT_MS,
    sessionStateCacheSeconds: config.SESSION_STATE_CACHE_SECONDS,
    settingsCache: { ttlSeconds: config.SETTINGS_CACHE_SECONDS, revalidateSeconds: config.SETTINGS_REVALIDATE_SECONDS },
    trustProxy: trustProxy(config.TRUST_PROXY),
    depositWebhook: { secret: config.DEPOSIT_WEBHOOK_SECRET, windowSeconds: config.DEPOSIT_WEBHOOK_WINDOW_SECONDS },
    publicBaseUrl: config.PUBLIC_BASE_URL,
    opsToken: config.METRICS_TOKEN,
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
  announceListening(logger, config.HOST, server.port);
  onShutdown(logger, [
    {
      name: 'live',
      run: async () => {
        clearInterval(sweep);
        live?.hub.closeAll();
        await live?.sessionEnds?.stop();
        await feed?.stop();
        await deadLetters?.close();
      },
    },
    { name: 'http', run: () => server.close() },
    { name: 'redis', run: () => closeRedis(redis) },
    { name: 'tracing', run: () => stopTracing() },
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
