import { randomUUID } from 'node:crypto';
import { Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { closeRedis, createLogger, createRedis, redisReady } from '../src/index.ts';

const REAL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.connect(Number(port), hostname);
  });
}

const logger = createLogger({ service: 'test', level: 'silent' });
const up = await reachable(REAL);

describe.skipIf(!up)(`redis factory against ${REAL}${up ? '' : ' — not reachable, skipped'}`, () => {
  const client = createRedis(REAL, logger, 'platform-test');
  afterAll(() => closeRedis(client));

  it('connects, passes the readiness check and expires keys', async () => {
    await expect(redisReady(client)()).resolves.toBeUndefined();
    const key = `platform-test:${randomUUID()}`;
    await client.set(key, 'v', 'PX', 150);
    expect(await client.get(key)).toBe('v');
    await new Promise((r) => setTimeout(r, 250));
    expect(await client.get(key)).toBeNull();
  });
});

describe('redis factory without a server', () => {
  it('fails the readiness check and commands instead of hanging', async () => {
    const client = createRedis('redis://127.0.0.1:1', logger, 'platform-test-down');
    try {
      await expect(redisReady(client)()).rejects.toThrow();
    } finally {
      client.disconnect();
    }
  });
});
