import { type AppRoot, ConfigError, type ShutdownStep, announceListening, closeRedis, createKafka, createRedis, kafkaSaslFromEnv, listen, parseConfig, startTracing } from '@smm/platform';
import { createApp } from './app.ts';
import { configShape } from './config.ts';
import { LiveHub } from './live/live-hub.ts';
import { startLiveFeed } from './live/live-feed.ts';
import type { LiveDeps } from './live/live-routes.ts';
import { LiveTickets } from './live/live-tickets.ts';
import { SessionEnds } from './live/session-ends.ts';
import { DeadLetterReader } from './ops/dead-letters.ts';

function trustProxy(value: string | undefined): boolean | number | string | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  return /^\d+$/.test(value) ? Number(value) : value;
}

/**
 * The BFF's composition root: configuration from `env` (process.env in its own process, the record
 * the devstack gives it in the shared one), Redis, the live feed, the app and the listener, with the
 * stop order (live, HTTP, Redis). A start that fails part-way stops what it had started; a port
 * that cannot be used is a ConfigError naming it (exit code 2 alone in its process).
 */
export const startBffApp: AppRoot = async (env, logger) => {
  const config = parseConfig(configShape, env);
  const sasl = kafkaSaslFromEnv(env) ?? null;
  // Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; the BFF is where a member's request starts its trace.
  startTracing(config.SERVICE_NAME, { env });
  // Filled as parts start; stopped in this order.
  const live: ShutdownStep[] = [];
  const front: ShutdownStep[] = [];
  const redis = createRedis(config.REDIS_URL, logger, config.SERVICE_NAME);
  const back: ShutdownStep[] = [{ name: 'redis', run: () => closeRedis(redis) }];
  const steps = () => [...live, ...front, ...back];
  try {
    let liveDeps: LiveDeps | undefined;
    let deadLetters: DeadLetterReader | undefined;
    if (config.KAFKA_BROKERS) {
      const reader = new DeadLetterReader(createKafka(config.KAFKA_BROKERS, `${config.SERVICE_NAME}-dead-letters`, logger, sasl));
      deadLetters = reader;
      live.push({ name: 'dead letters', run: () => reader.close() });
      const hub = new LiveHub({ replayPerMember: config.LIVE_REPLAY_PER_MEMBER, replayMs: config.LIVE_REPLAY_SECONDS * 1000 });
      const feed = await startLiveFeed({ kafka: createKafka(config.KAFKA_BROKERS, `${config.SERVICE_NAME}-live`, logger, sasl), hub, logger });
      live.unshift({ name: 'live feed', run: () => feed.stop() });
      const sweep = setInterval(() => hub.sweep(), 60_000);
      const sessionEnds = new SessionEnds(redis);
      await sessionEnds.listen(hub, logger);
      live.unshift({
        name: 'live',
        run: async () => {
          clearInterval(sweep);
          hub.closeAll();
          await sessionEnds.stop();
        },
      });
      liveDeps = { hub, tickets: new LiveTickets(redis, config.LIVE_TICKET_SECONDS), heartbeatMs: 20_000, maxStreamMs: config.LIVE_STREAM_MAX_SECONDS * 1000, sessionEnds };
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
      live: liveDeps,
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
    let server;
    try {
      server = await listen(app, config.PORT, config.HOST);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES') throw new ConfigError(`PORT ${config.PORT} on ${config.HOST} cannot be used (${code})`, { cause: error });
      throw error;
    }
    const http = server;
    front.push({ name: 'http', run: () => http.close() });
    announceListening(logger, config.HOST, http.port);
    return { shutdownSteps: steps(), port: http.port };
  } catch (error) {
    for (const step of steps()) await step.run().catch((stopError: unknown) => logger.warn({ err: stopError, step: step.name }, 'stop step failed'));
    throw error;
  }
};
