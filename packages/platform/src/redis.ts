import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type { Redis } from 'ioredis';

/**
 * One ioredis client for a service (ioredis 6, RESP3). Connection trouble is logged once per outage
 * rather than once per retry; commands fail fast after two retries instead of queueing forever, so
 * a request answers with an error while Redis is away. Commands issued in one tick travel in one
 * write (auto-pipelining: the BFF's checks of one request — restriction, key rotation, rate limit —
 * are one round trip and one system call, not one each).
 */
export function createRedis(url: string, logger: Logger, name: string): Redis {
  const client = new Redis(url, {
    connectionName: name,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 2,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let down = false;
  client.on('error', (error: Error) => {
    if (!down) logger.warn({ err: error.message }, 'redis unavailable');
    down = true;
  });
  client.on('ready', () => {
    if (down) logger.info('redis available again');
    down = false;
  });
  return client;
}

/** A `/readyz` check: Redis answers PING. */
export function redisReady(client: Redis) {
  return async () => {
    const answer = await client.ping();
    if (answer !== 'PONG') throw new Error(`unexpected PING answer ${answer}`);
  };
}

/** Closes the client, waiting for pending replies; falls back to disconnect if Redis is gone. */
export async function closeRedis(client: Redis): Promise<void> {
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
