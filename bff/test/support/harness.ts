import { pino } from 'pino';
import { Redis } from 'ioredis';
import { type EmbeddedRedis, startEmbeddedRedis } from '@smm/embedded-redis';
import { type RunningServer, listen } from '@smm/platform';
import { testServiceSecret } from '@smm/testkit';
import { type AppDeps, createApp } from '../../src/app.ts';
import { sessionStateBody } from './service-bodies.ts';
import { FakeService } from './fake-service.ts';
import { testKeys } from './keys.ts';

export type Harness = {
  url: string;
  keys: ReturnType<typeof testKeys>;
  auth: FakeService;
  catalog: FakeService;
  wallet: FakeService;
  order: FakeService;
  fulfillment: FakeService;
  redis: Redis;
  embeddedRedis: EmbeddedRedis;
  /** Another BFF process's worth (its own memory) over the same Redis and services: its base URL. */
  replica(): Promise<string>;
  stop(): Promise<void>;
};

/**
 * The BFF alone over real HTTP: real Redis (embedded, in process) and local fakes of auth, catalog
 * and wallet, so a test can make a service fail, hang or answer oddly.
 */
export async function startHarness(
  options: { upstreamTimeoutMs?: number; revalidateSeconds?: number; walletUrl?: string; fulfillmentUrl?: string; withoutOrder?: boolean; reseller?: AppDeps['reseller']; web?: AppDeps['web']; live?: (redis: Redis) => AppDeps['live']; sessionStateCacheSeconds?: number; trustProxy?: AppDeps['trustProxy']; logger?: AppDeps['logger']; publicBaseUrl?: string; deadLetters?: AppDeps['deadLetters'] } = {},
): Promise<Harness> {
  const silent = pino({ level: 'silent' });
  const embeddedRedis = await startEmbeddedRedis({ port: 0, logger: silent });
  const redis = new Redis(embeddedRedis.url, { maxRetriesPerRequest: 1, retryStrategy: () => 200, lazyConnect: false });
  redis.on('error', () => undefined);
  const keys = testKeys();
  const [auth, catalog, wallet, order, fulfillment] = await Promise.all([new FakeService('auth').start(), new FakeService('catalog').start(), new FakeService('wallet').start(), new FakeService('order').start(), new FakeService('fulfillment').start()]);
  auth.fallback = (req) => {
    const userId = /^\/members\/([^/]+)\/session-state$/.exec(req.path)?.[1];
    return req.method === 'GET' && userId !== undefined ? { body: sessionStateBody({ userId }) } : undefined;
  };
  // A real order service answers every member's rates (issue 40); these members have none.
  order.fallback = (req) => (req.method === 'GET' && req.path === '/rates' ? { body: { userId: req.caller?.userId ?? '', items: [] } } : undefined);
  const app = () => createApp({
    logger: options.logger ?? silent,
    redis,
    services: { auth: auth.url, catalog: catalog.url, wallet: options.walletUrl ?? wallet.url, order: options.withoutOrder ? undefined : order.url, fulfillment: options.fulfillmentUrl ?? fulfillment.url },
    reseller: options.reseller,
    web: options.web,
    live: options.live?.(redis),
    trustProxy: options.trustProxy,
    publicBaseUrl: options.publicBaseUrl,
    deadLetters: options.deadLetters,
    jwtPublicKey: keys.publicPem,
    serviceAuthSecret: testServiceSecret,
    opsToken,
    upstreamTimeoutMs: options.upstreamTimeoutMs ?? 3000,
    sessionStateCacheSeconds: options.sessionStateCacheSeconds ?? 1,
    settingsCache: { ttlSeconds: 3600, revalidateSeconds: options.revalidateSeconds ?? 1 },
  });
  const server: RunningServer = await listen(app(), 0);
  const replicas: RunningServer[] = [];
  return {
    url: `http://127.0.0.1:${server.port}`,
    keys,
    auth,
    catalog,
    wallet,
    order,
    fulfillment,
    redis,
    embeddedRedis,
    async replica() {
      const copy = await listen(app(), 0);
      replicas.push(copy);
      return `http://127.0.0.1:${copy.port}`;
    },
    async stop() {
      await Promise.all([server, ...replicas].map((s) => s.close()));
      redis.disconnect();
      await embeddedRedis.close();
      await Promise.all([auth.close(), catalog.close(), wallet.close(), order.close(), fulfillment.close()]);
    },
  };
}

/** fetch with JSON in and out. */
/** The harness BFF's METRICS_TOKEN: opens /metrics and /readyz's checks. */
export const opsToken = 'harness-ops-token-0123456789';

export async function call<T = Record<string, unknown>>(url: string, method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text === '' ? null : JSON.parse(text)) as T };
}
