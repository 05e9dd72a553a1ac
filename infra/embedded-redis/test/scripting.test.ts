// Lua scripts the way libraries use them, on both servers: ioredis defineCommand (EVALSHA, then
// EVAL on NOSCRIPT), lock release by compare-and-delete, a token-bucket and a sliding-window rate
// limiter, a reliable queue move; SCRIPT LOAD/EXISTS; atomicity against a concurrent reader.
// (Reply conversions and error texts are in test/conformance/cases-scripting.ts.)
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedRedis } from '../src/index.ts';
import type { EmbeddedRedis } from '../src/index.ts';
import { RawClient, plain } from './support/raw-client.ts';
import { REAL_PORT, TEST_DB, realRedisReachable, uniquePrefix } from './support/targets.ts';

const realUp = await realRedisReachable();
let embedded: EmbeddedRedis;
beforeAll(async () => {
  embedded = await startEmbeddedRedis({ port: 0 });
});
afterAll(async () => {
  await embedded?.close();
});

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

const TOKEN_BUCKET = `
local capacity = tonumber(ARGV[1])
local refill_per_ms = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local requested = tonumber(ARGV[4])
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(bucket[1])
local ts = tonumber(bucket[2])
if tokens == nil then
  tokens = capacity
  ts = now
end
local elapsed = math.max(0, now - ts)
tokens = math.min(capacity, tokens + elapsed * refill_per_ms)
local allowed = 0
if tokens >= requested then
  tokens = tokens - requested
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / refill_per_ms) * 2)
return {allowed, tostring(tokens)}
`;

const SLIDING_WINDOW = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, limit - count - 1}
end
return {0, 0}
`;

const MOVE = `local v = redis.call('rpop', KEYS[1]); if v then redis.call('lpush', KEYS[2], v) end; return v`;

type Lib = Redis & {
  releaseLock(key: string, token: string): Promise<number>;
  tokenBucket(key: string, cap: number, rate: number, now: number, n: number): Promise<[number, string]>;
  slidingWindow(key: string, now: number, window: number, limit: number, id: string): Promise<[number, number]>;
  move(from: string, to: string): Promise<string | null>;
};

function client(port: number): Lib {
  const r = new Redis({ host: '127.0.0.1', port, db: TEST_DB, maxRetriesPerRequest: 0, lazyConnect: true });
  r.defineCommand('releaseLock', { numberOfKeys: 1, lua: RELEASE });
  r.defineCommand('tokenBucket', { numberOfKeys: 1, lua: TOKEN_BUCKET });
  r.defineCommand('slidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW });
  r.defineCommand('move', { numberOfKeys: 2, lua: MOVE });
  return r as Lib;
}

async function withClient<T>(port: number, fn: (r: Lib, p: string) => Promise<T>): Promise<T> {
  const r = client(port);
  await r.connect();
  const p = uniquePrefix('lua');
  try {
    return await fn(r, p);
  } finally {
    const keys = await r.keys(p.replace(/[*?[\]\\]/g, '\\$&') + '*');
    if (keys.length > 0) await r.del(...keys);
    r.disconnect();
  }
}

/** Token-bucket decisions for a fixed timeline (capacity 5, 1 token per 100 ms). */
async function bucketRun(r: Lib, key: string): Promise<[number, string][]> {
  const out: [number, string][] = [];
  const t0 = 1_700_000_000_000;
  for (const [dt, n] of [[0, 1], [0, 1], [0, 1], [0, 1], [0, 1], [0, 1], [50, 1], [150, 1], [150, 2], [1000, 3], [1000, 3], [1001, 0.5]] as const) {
    out.push(await r.tokenBucket(key, 5, 0.01, t0 + dt, n));
  }
  return out;
}

async function windowRun(r: Lib, key: string): Promise<[number, number][]> {
  const out: [number, number][] = [];
  const t0 = 1_700_000_000_000;
  for (const [i, dt] of [0, 10, 20, 30, 1005, 1011, 1025].entries()) out.push(await r.slidingWindow(key, t0 + dt, 1000, 3, `req${i}`));
  return out;
}

function suite(label: string, port: () => number): void {
  describe(label, () => {
    it('lock release: compare-and-delete only deletes the holder’s lock', async () => {
      await withClient(port(), async (r, p) => {
        expect(await r.set(`${p}lock`, 'token-a', 'PX', 10000, 'NX')).toBe('OK');
        expect(await r.set(`${p}lock`, 'token-b', 'PX', 10000, 'NX')).toBe(null);
        expect(await r.releaseLock(`${p}lock`, 'token-b')).toBe(0);
        expect(await r.get(`${p}lock`)).toBe('token-a');
        expect(await r.releaseLock(`${p}lock`, 'token-a')).toBe(1);
        expect(await r.exists(`${p}lock`)).toBe(0);
        expect(await r.releaseLock(`${p}lock`, 'token-a')).toBe(0);
      });
    });

    it('token bucket: allows the burst, refills by time, keeps fractional tokens', async () => {
      await withClient(port(), async (r, p) => {
        const run = await bucketRun(r, `${p}bucket`);
        expect(run).toEqual([
          [1, '4'], [1, '3'], [1, '2'], [1, '1'], [1, '0'], [0, '0'],
          [0, '0.5'], [1, '0.5'], [0, '0.5'], [1, '2'], [0, '2'], [1, '1.51'],
        ]);
        // Redis formats a Lua number argument with %.17g (while tostring uses %.14g).
        expect(await r.hget(`${p}bucket`, 'tokens')).toBe('1.5099999999999998');
        const pttl = await r.pttl(`${p}bucket`);
        expect(pttl).toBeGreaterThan(900);
        expect(pttl).toBeLessThanOrEqual(1000);
      });
    });

    it('sliding-window limiter on a sorted set', async () => {
      await withClient(port(), async (r, p) => {
        expect(await windowRun(r, `${p}win`)).toEqual([[1, 2], [1, 1], [1, 0], [0, 0], [1, 0], [1, 0], [1, 0]]);
        expect(await r.zrange(`${p}win`, '0', '-1')).toEqual(['req4', 'req5', 'req6']);
      });
    });

    it('reliable queue move (RPOP + LPUSH in one script), nil when empty', async () => {
      await withClient(port(), async (r, p) => {
        await r.rpush(`${p}q`, 'a', 'b');
        expect(await r.move(`${p}q`, `${p}work`)).toBe('b');
        expect(await r.move(`${p}q`, `${p}work`)).toBe('a');
        expect(await r.move(`${p}q`, `${p}work`)).toBe(null);
        expect(await r.lrange(`${p}work`, 0, -1)).toEqual(['a', 'b']);
      });
    });

    it('SCRIPT LOAD returns the SHA1, EXISTS and EVALSHA (any case) find it', async () => {
      const c = await RawClient.connect(port());
      const body = `return '${uniquePrefix('loaded')}'`;
      const sha = createHash('sha1').update(body).digest('hex');
      expect(plain(await c.call('SCRIPT', 'EXISTS', sha, 'ffffffffffffffffffffffffffffffffffffffff'))).toEqual([0, 0]);
      expect(plain(await c.call('EVALSHA', sha, '0'))).toEqual({ error: 'NOSCRIPT No matching script. Please use EVAL.' });
      expect(plain(await c.call('SCRIPT', 'LOAD', body))).toBe(sha);
      expect(plain(await c.call('SCRIPT', 'EXISTS', sha, 'ffffffffffffffffffffffffffffffffffffffff'))).toEqual([1, 0]);
      expect(plain(await c.call('EVALSHA', sha.toUpperCase(), '0'))).toBe(body.slice(8, -1));
      // EVAL caches too.
      const body2 = `return '${uniquePrefix('evaled')}'`;
      const sha2 = createHash('sha1').update(body2).digest('hex');
      expect(plain(await c.call('EVAL', body2, '0'))).toBe(body2.slice(8, -1));
      expect(plain(await c.call('EVALSHA', sha2, '0'))).toBe(body2.slice(8, -1));
      expect(plain(await c.call('SCRIPT', 'LOAD', 'return +'))).toEqual({
        error: "ERR Error compiling script (new function): user_script:1: unexpected symbol near '+'",
      });
      c.close();
    });

    it('a script is atomic: a concurrent reader sees none or all of its 300 writes', async () => {
      const p = uniquePrefix('atomic');
      const w = await RawClient.connect(port());
      const rd = await RawClient.connect(port());
      await w.call('SELECT', TEST_DB);
      await rd.call('SELECT', TEST_DB);
      const script = 'for i = 1, 300 do redis.call("incr", KEYS[1]) end return redis.call("get", KEYS[1])';
      const seen = new Set<string | null>();
      let done = false;
      const reader = (async () => {
        while (!done) seen.add(plain(await rd.call('GET', `${p}n`)) as string | null);
      })();
      const results: string[] = [];
      for (let i = 0; i < 5; i++) results.push(plain(await w.call('EVAL', script, '1', `${p}n`)) as string);
      done = true;
      await reader;
      expect(results).toEqual(['300', '600', '900', '1200', '1500']);
      for (const v of seen) expect([null, '300', '600', '900', '1200', '1500']).toContain(v);
      await w.call('DEL', `${p}n`);
      w.close();
      rd.close();
    });
  });
}

suite('embedded', () => embedded.port);
if (realUp) suite(`real Redis at 127.0.0.1:${REAL_PORT}`, () => REAL_PORT);
else describe.skip(`real Redis not reachable at 127.0.0.1:${REAL_PORT} — real-Redis comparisons in this file are skipped`, () => undefined);

describe('embedded only', () => {
  it('SCRIPT FLUSH forgets cached scripts (not run on the shared real server)', async () => {
    const c = await RawClient.connect(embedded.port);
    const sha = plain(await c.call('SCRIPT', 'LOAD', 'return 42')) as string;
    expect(plain(await c.call('EVALSHA', sha, '0'))).toBe(42);
    expect(plain(await c.call('SCRIPT', 'FLUSH'))).toBe('OK');
    expect(plain(await c.call('SCRIPT', 'EXISTS', sha))).toEqual([0]);
    expect(plain(await c.call('EVALSHA', sha, '0'))).toEqual({ error: 'NOSCRIPT No matching script. Please use EVAL.' });
    expect(plain(await c.call('EVAL', 'return 43', '0'))).toBe(43);
    c.close();
  });

  it('stops a script that runs past busy-reply-threshold without writing, even through pcall', async () => {
    const c = await RawClient.connect(embedded.port);
    expect(plain(await c.call('CONFIG', 'SET', 'busy-reply-threshold', '200'))).toBe('OK');
    expect(plain(await c.call('CONFIG', 'GET', 'lua-time-limit'))).toEqual(['lua-time-limit', '200']);
    for (const body of ['while true do end', 'while true do pcall(function() while true do end end) end']) {
      const t0 = Date.now();
      const r = plain(await c.call('EVAL', body, '0'));
      expect(r).toMatchObject({ error: expect.stringMatching(/^ERR Script ran longer than 200 ms without writing and was killed/) as unknown });
      expect(Date.now() - t0).toBeLessThan(3000);
    }
    // A short script still runs (10,000 steps: well under 200 ms even on a loaded CI machine, where 100,000 were not).
    expect(plain(await c.call('EVAL', 'local n = 0 for i = 1, 10000 do n = n + i end return n', '0'))).toBe(50005000);
    expect(plain(await c.call('CONFIG', 'SET', 'busy-reply-threshold', 'soon'))).toEqual({
      error: "ERR CONFIG SET failed (possibly related to argument 'busy-reply-threshold') - argument couldn't be parsed into an integer",
    });
    expect(plain(await c.call('CONFIG', 'SET', 'busy-reply-threshold', '5000'))).toBe('OK');
    c.close();
  });

  it('refuses what it does not offer: cjson/cmsgpack/bit/struct libraries and RESP3 scripts', async () => {
    const c = await RawClient.connect(embedded.port);
    expect(plain(await c.call('EVAL', 'return cjson.encode({1})', '0'))).toMatchObject({
      error: expect.stringContaining("Script attempted to access nonexistent global variable 'cjson'") as unknown,
    });
    expect(plain(await c.call('EVAL', 'redis.setresp(3)', '0'))).toMatchObject({
      error: expect.stringContaining('the embedded server runs scripts with RESP2 replies only') as unknown,
    });
    c.close();
  });
});
