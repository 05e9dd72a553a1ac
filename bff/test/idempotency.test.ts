// The Idempotency-Key store against a real (embedded) Redis: what a caller sees when requests under
// one key meet — and how many Redis round trips a first request costs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { type EmbeddedRedis, startEmbeddedRedis } from '@smm/embedded-redis';
import pino from 'pino';
import { Idempotency } from '../src/reseller/idempotency.ts';

let server: EmbeddedRedis;
let redis: Redis;
let key = 0;
const nextKey = () => `key-${Date.now()}-${key++}`;

beforeAll(async () => {
  server = await startEmbeddedRedis({ port: 0, logger: pino({ level: 'silent' }) });
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  redis?.disconnect();
  await server?.close();
});

const placed = (id: number) => ({ status: 201, body: { order: { id } } });

describe('Idempotency', () => {
  it('runs the work once and replays its answer; another request under the key is refused', async () => {
    const idem = new Idempotency(redis, 60, 2_000);
    const k = nextKey();
    let runs = 0;
    const first = await idem.run('u1', k, 'hash-a', async () => placed(++runs));
    const again = await idem.run('u1', k, 'hash-a', async () => placed(++runs));
    expect([first, again]).toEqual([{ ...placed(1), replayed: false }, { ...placed(1), replayed: true }]);
    await expect(idem.run('u1', k, 'hash-b', async () => placed(++runs))).rejects.toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    // another member's key of the same name is another key
    expect(await idem.run('u2', k, 'hash-b', async () => placed(++runs))).toEqual({ ...placed(2), replayed: false });
    expect(runs).toBe(2);
  });

  it('makes a duplicate wait for the running first and replay its answer; refuses another request at once', async () => {
    const idem = new Idempotency(redis, 60, 5_000);
    const k = nextKey();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let runs = 0;
    const first = idem.run('u1', k, 'hash-a', async () => {
      runs++;
      await held;
      return placed(7);
    });
    await new Promise((r) => setTimeout(r, 50));
    const duplicate = idem.run('u1', k, 'hash-a', async () => placed(++runs));
    const started = Date.now();
    await expect(idem.run('u1', k, 'hash-b', async () => placed(++runs))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(Date.now() - started).toBeLessThan(1_000);
    release();
    expect(await first).toEqual({ ...placed(7), replayed: false });
    expect(await duplicate).toEqual({ ...placed(7), replayed: true });
    expect(runs).toBe(1);
  });

  it('lets the key go when the work fails or answers 5xx, so a retry runs it again', async () => {
    const idem = new Idempotency(redis, 60, 2_000);
    const k = nextKey();
    await expect(idem.run('u1', k, 'h', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await idem.run('u1', k, 'h', async () => ({ status: 503, body: { code: 'PAYMENT_TIMEOUT' } }))).toMatchObject({ status: 503, replayed: false });
    expect(await idem.run('u1', k, 'h', async () => placed(3))).toEqual({ ...placed(3), replayed: false });
    expect(await redis.exists(`bff:idem-lock:u1:${k}`)).toBe(0);
  });

  it('costs a first request two Redis round trips: one before the work, one after', async () => {
    // Auto-pipelined, as the BFF's client is (platform createRedis): one write per round trip.
    const counting = new Redis(server.url, { maxRetriesPerRequest: 1, enableAutoPipelining: true });
    try {
      const idem = new Idempotency(counting, 60, 2_000);
      await counting.ping();
      let writes = 0;
      const stream = (counting as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
      const write = stream.write.bind(stream);
      stream.write = (...args: unknown[]) => {
        writes++;
        return write(...args);
      };
      await idem.run('u1', nextKey(), 'h', async () => placed(1));
      expect(writes).toBe(2);
    } finally {
      counting.disconnect();
    }
  });
});
