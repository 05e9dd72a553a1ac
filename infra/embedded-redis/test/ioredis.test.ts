// What the platform's ioredis factory does: default RESP3 handshake (HELLO 3, SELECT,
// CLIENT SETNAME/SETINFO, INFO ready check), pipelines, MULTI, and the RESP3 reply types.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedRedis } from '../src/index.ts';
import type { EmbeddedRedis } from '../src/index.ts';
import { RawClient } from './support/raw-client.ts';
import type { Resp } from './support/raw-client.ts';
import { REAL_PORT, realRedisReachable, uniquePrefix } from './support/targets.ts';

const realUp = await realRedisReachable();
let embedded: EmbeddedRedis;
beforeAll(async () => {
  embedded = await startEmbeddedRedis({ port: 0 });
});
afterAll(async () => {
  await embedded.close();
});

describe('ioredis 6 against the embedded server', () => {
  it('connects with the default RESP3 handshake, db and connectionName, and reports ready', async () => {
    const r = new Redis(embedded.url, { db: 3, connectionName: 'order-svc', lazyConnect: true });
    await r.connect();
    expect(r.status).toBe('ready');
    expect(await r.client('GETNAME')).toBe('order-svc');
    const list = await r.client('LIST');
    expect(list).toMatch(/name=order-svc .*db=3 .*resp=3/);
    const p = uniquePrefix('io');
    expect(await r.set(`${p}code`, '123456', 'EX', 180, 'NX')).toBe('OK');
    expect(await r.set(`${p}code`, '654321', 'EX', 180, 'NX')).toBeNull();
    expect(await r.ttl(`${p}code`)).toBeGreaterThan(170);
    expect(await r.hgetall(`${p}none`)).toEqual({});
    await r.hset(`${p}h`, { a: '1', b: '2' });
    expect(await r.hgetall(`${p}h`)).toEqual({ a: '1', b: '2' });
    expect(await r.zadd(`${p}z`, 1.5, 'm')).toBe(1);
    expect(await r.zscore(`${p}z`, 'm')).toBe('1.5');
    expect(await r.smembers(`${p}none`)).toEqual([]);
    const info = await r.info('server');
    expect(info).toMatch(/redis_version:7\./);
    r.disconnect();
  });

  it('runs pipelines and MULTI/EXEC (idempotency-key pattern)', async () => {
    const r = new Redis(embedded.url, { lazyConnect: true });
    await r.connect();
    const p = uniquePrefix('tx');
    const res = await r.multi().set(`${p}idem`, 'req-1', 'PX', 60000, 'NX').incr(`${p}count`).exec();
    expect(res).toEqual([
      [null, 'OK'],
      [null, 1],
    ]);
    const pipe = await r.pipeline().get(`${p}idem`).pttl(`${p}idem`).incr(`${p}idem`).exec();
    expect(pipe?.[0]).toEqual([null, 'req-1']);
    expect(pipe?.[1]?.[1]).toBeGreaterThan(59000);
    expect((pipe?.[2]?.[0] as Error).message).toBe('ERR value is not an integer or out of range');
    r.disconnect();
  });

  it('scanStream walks every matching key; replyMapping "resp3" gets real maps and doubles', async () => {
    const r = new Redis(embedded.url, { db: 6, lazyConnect: true, replyMapping: 'resp3' });
    await r.connect();
    const p = uniquePrefix('scan');
    const pipe = r.pipeline();
    for (let i = 0; i < 300; i++) pipe.set(`${p}${i}`, 'v', 'EX', 600);
    pipe.set('other-key', 'v');
    await pipe.exec();
    const found = new Set<string>();
    for await (const keys of r.scanStream({ match: `${p}*`, count: 25 })) for (const k of keys as string[]) found.add(k);
    expect(found.size).toBe(300);
    await r.hset(`${p}h`, 'a', '1');
    expect(await r.call('HGETALL', `${p}h`)).toEqual({ a: '1' });
    await r.zadd(`${p}z`, 2.5, 'm');
    expect(await r.call('ZSCORE', `${p}z`, 'm')).toBe(2.5);
    r.disconnect();
  });

  it('RESP2 clients (protocol: 2) work too', async () => {
    const r = new Redis(embedded.url, { protocol: 2, lazyConnect: true });
    await r.connect();
    expect(await r.ping()).toBe('PONG');
    expect(await r.hgetall('nothing-here')).toEqual({});
    r.disconnect();
  });

  it('CLIENT SETINFO is accepted (ioredis sends it; Redis >= 7.2 supports it)', async () => {
    const c = await RawClient.connect(embedded.port);
    expect(await c.call('CLIENT', 'SETINFO', 'LIB-NAME', 'ioredis')).toEqual({ t: 'simple', v: 'OK' });
    expect(await c.call('CLIENT', 'SETINFO', 'LIB-VER', '6.0.0')).toEqual({ t: 'simple', v: 'OK' });
    const info = await c.call('CLIENT', 'INFO');
    expect(info.t).toBe('bulk');
    c.close();
  });
});

/** HELLO's reply, with the fields that legitimately differ between two servers masked. */
function helloShape(r: Resp): unknown {
  if (r.t !== 'map' && r.t !== 'array') return r;
  const items = r.t === 'map' ? r.v.flat() : r.v;
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i += 2) {
    const k = items[i]!;
    const v = items[i + 1]!;
    const key = k.t === 'bulk' ? k.v : '?';
    out.push([k, key === 'id' || key === 'version' ? { t: v.t } : v]);
  }
  return { t: r.t, pairs: out };
}

describe('HELLO and RESP3 reply types', () => {
  const ports = (): [string, number][] => [
    ['embedded', embedded.port],
    ...(realUp ? ([['real', REAL_PORT]] as [string, number][]) : []),
  ];

  it('HELLO 3 is a map, HELLO 2 a flat array, HELLO alone reports the current protocol', async () => {
    const shapes: unknown[][] = [];
    for (const [, port] of ports()) {
      const c = await RawClient.connect(port);
      const h3 = await c.call('HELLO', '3');
      expect(h3.t).toBe('map');
      const again = await c.call('HELLO');
      const h2 = await c.call('HELLO', '2');
      expect(h2.t).toBe('array');
      shapes.push([helloShape(h3), helloShape(again), helloShape(h2)]);
      c.close();
    }
    expect(helloShape({ t: 'array', v: [] })).toEqual({ t: 'array', pairs: [] });
    if (shapes.length === 2) expect(shapes[0]).toEqual(shapes[1]);
    const proto = (shapes[0]![0] as { pairs: [Resp, Resp][] }).pairs.find(([k]) => k.t === 'bulk' && k.v === 'proto');
    expect(proto?.[1]).toEqual({ t: 'int', v: 3 });
  });

  it('INFO is a verbatim string in RESP3 and a bulk string in RESP2, with the fields ioredis reads', async () => {
    for (const [, port] of ports()) {
      const c = await RawClient.connect(port);
      const i2 = await c.call('INFO');
      expect(i2.t).toBe('bulk');
      await c.call('HELLO', '3');
      const i3 = await c.call('INFO', 'persistence');
      expect(i3.t).toBe('verbatim');
      expect(i3.v).toMatch(/^# Persistence\r\n/);
      expect(i3.v).toMatch(/\r\nloading:0\r\n/);
      expect(i2.v).toMatch(/^# Server\r\nredis_version:7\.0\.\d+\r\n/);
      c.close();
    }
  });
});

if (!realUp) {
  describe.skip(`real Redis not reachable at 127.0.0.1:${REAL_PORT} — skipped (HELLO/INFO compared on the embedded side only)`, () => {
    it('HELLO/INFO comparison with real Redis', () => undefined);
  });
}
