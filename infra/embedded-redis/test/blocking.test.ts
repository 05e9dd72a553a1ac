// BLPOP / BRPOP on both servers: immediate pops, argument errors, timeouts, first-come-first-served
// wake-up across clients and keys, no blocking inside MULTI, requests pipelined behind a blocked
// call waiting for it, and a disconnected waiter losing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedRedis } from '../src/index.ts';
import type { EmbeddedRedis } from '../src/index.ts';
import { RawClient, encodeCommand, plain } from './support/raw-client.ts';
import type { Plain } from './support/raw-client.ts';
import { REAL_PORT, TEST_DB, realRedisReachable, uniquePrefix } from './support/targets.ts';

const realUp = await realRedisReachable();
let embedded: EmbeddedRedis;
beforeAll(async () => {
  embedded = await startEmbeddedRedis({ port: 0 });
});
afterAll(async () => {
  await embedded?.close();
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function conn(port: number, proto: 2 | 3 = 2): Promise<{ raw: RawClient; q: (...a: (string | number)[]) => Promise<Plain> }> {
  const raw = await RawClient.connect(port);
  if (proto === 3) await raw.call('HELLO', '3');
  await raw.call('SELECT', TEST_DB);
  return { raw, q: async (...a) => plain(await raw.call(...a)) };
}

/** Starts a blocking call and reports when (and with what) it returns. */
function pending(p: Promise<Plain>): { done: () => boolean; value: Promise<Plain> } {
  let finished = false;
  const value = p.then((v) => {
    finished = true;
    return v;
  });
  return { done: () => finished, value };
}

function suite(label: string, port: () => number): void {
  describe(label, () => {
    it('pops at once when a list has elements (first non-empty key), errors like Redis', async () => {
      const k = uniquePrefix('bpop');
      const { raw, q } = await conn(port());
      expect(await q('RPUSH', `${k}b`, 'x', 'y', 'z')).toBe(3);
      expect(await q('BLPOP', `${k}a`, `${k}b`, '0')).toEqual([`${k}b`, 'x']);
      expect(await q('BRPOP', `${k}a`, `${k}b`, '0')).toEqual([`${k}b`, 'z']);
      expect(await q('BLPOP', `${k}b`, '1')).toEqual([`${k}b`, 'y']);
      expect(await q('EXISTS', `${k}b`)).toBe(0);
      expect(await q('SET', `${k}s`, 'v')).toBe('OK');
      expect(await q('BLPOP', `${k}missing`, `${k}s`, '0')).toEqual({ error: 'WRONGTYPE Operation against a key holding the wrong kind of value' });
      expect(await q('BLPOP', `${k}a`, '-1')).toEqual({ error: 'ERR timeout is negative' });
      expect(await q('BLPOP', `${k}a`, 'soon')).toEqual({ error: 'ERR timeout is not a float or out of range' });
      expect(await q('BLPOP', `${k}a`)).toEqual({ error: "ERR wrong number of arguments for 'blpop' command" });
      // Inside MULTI nothing blocks: an empty result is a null array at once.
      expect(await q('MULTI')).toBe('OK');
      expect(await q('BLPOP', `${k}a`, '0')).toBe('QUEUED');
      expect(await q('EXEC')).toEqual([null]);
      await q('DEL', `${k}s`);
      raw.close();
    });

    it('times out with a null array (RESP2 and RESP3) after about the timeout', async () => {
      const k = uniquePrefix('bpop-t');
      for (const proto of [2, 3] as const) {
        const { raw } = await conn(port(), proto);
        const t0 = Date.now();
        const r = await raw.call('BRPOP', `${k}a`, '0.3');
        const took = Date.now() - t0;
        expect(r).toEqual({ t: 'null', v: null, kind: proto === 2 ? 'array' : 'resp3' });
        expect(took).toBeGreaterThanOrEqual(250);
        expect(took).toBeLessThan(2000);
        raw.close();
      }
    });

    it('wakes waiters first come first served, one element each, head for BLPOP and tail for BRPOP', async () => {
      const k = uniquePrefix('bpop-o');
      const a = await conn(port());
      const b = await conn(port());
      const c = await conn(port());
      const d = await conn(port());
      const pusher = await conn(port());
      const pa = pending(a.q('BLPOP', `${k}q`, '5'));
      await sleep(50);
      const pb = pending(b.q('BLPOP', `${k}other`, `${k}q`, '5'));
      await sleep(50);
      const pc = pending(c.q('BRPOP', `${k}q`, '5'));
      await sleep(50);
      expect(pa.done() || pb.done() || pc.done()).toBe(false);
      // Two elements for three waiters: the first two get one each, in arrival order.
      expect(await pusher.q('RPUSH', `${k}q`, 'one', 'two')).toBe(2);
      expect(await pa.value).toEqual([`${k}q`, 'one']);
      expect(await pb.value).toEqual([`${k}q`, 'two']);
      await sleep(50);
      expect(pc.done()).toBe(false);
      expect(await pusher.q('EXISTS', `${k}q`)).toBe(0);
      // The third waiter pops from the tail of what arrives next.
      expect(await pusher.q('RPUSH', `${k}q`, 'x', 'y')).toBe(2);
      expect(await pc.value).toEqual([`${k}q`, 'y']);
      expect(await pusher.q('LRANGE', `${k}q`, '0', '-1')).toEqual(['x']);
      // A waiter on two keys is woken by either; a push in MULTI is served after EXEC.
      const pd = pending(d.q('BLPOP', `${k}k1`, `${k}k2`, '5'));
      await sleep(50);
      expect(await pusher.q('MULTI')).toBe('OK');
      expect(await pusher.q('LPUSH', `${k}k2`, 'a', 'b')).toBe('QUEUED');
      expect(await pusher.q('LPUSH', `${k}k1`, 'c')).toBe('QUEUED');
      expect(await pusher.q('EXEC')).toEqual([2, 1]);
      expect(await pd.value).toEqual([`${k}k2`, 'b']);
      expect(await pusher.q('LRANGE', `${k}k2`, '0', '-1')).toEqual(['a']);
      expect(await pusher.q('LRANGE', `${k}k1`, '0', '-1')).toEqual(['c']);
      await pusher.q('DEL', `${k}q`, `${k}k1`, `${k}k2`);
      for (const x of [a, b, c, d, pusher]) x.raw.close();
    });

    it('requests pipelined behind a blocked call wait for it; a waiter that disconnects takes nothing', async () => {
      const k = uniquePrefix('bpop-p');
      const a = await conn(port());
      const pusher = await conn(port());
      const replies = a.raw.sendRaw(encodeCommand(['BLPOP', `${k}q`, '5']) + encodeCommand(['LLEN', `${k}q`]) + encodeCommand(['PING']), 3);
      await sleep(100);
      expect(await pusher.q('RPUSH', `${k}q`, 'v1', 'v2')).toBe(2);
      expect((await replies).map(plain)).toEqual([[`${k}q`, 'v1'], 1, 'PONG']);
      const gone = await conn(port());
      void gone.raw.call('BLPOP', `${k}lost`, '5');
      await sleep(50);
      gone.raw.close();
      await sleep(50);
      expect(await pusher.q('RPUSH', `${k}lost`, 'kept')).toBe(1);
      expect(await pusher.q('LRANGE', `${k}lost`, '0', '-1')).toEqual(['kept']);
      await pusher.q('DEL', `${k}q`, `${k}lost`);
      a.raw.close();
      pusher.raw.close();
    });
  });
}

suite('embedded', () => embedded.port);
if (realUp) suite(`real Redis at 127.0.0.1:${REAL_PORT}`, () => REAL_PORT);
else describe.skip(`real Redis not reachable at 127.0.0.1:${REAL_PORT} — real-Redis comparisons in this file are skipped`, () => undefined);

describe('embedded only', () => {
  it('INFO counts blocked clients', async () => {
    const k = uniquePrefix('bpop-i');
    const a = await conn(embedded.port);
    const b = await conn(embedded.port);
    void a.raw.call('BLPOP', `${k}q`, '5');
    await sleep(50);
    expect(await b.q('INFO', 'clients')).toMatch(/blocked_clients:1/);
    await b.q('RPUSH', `${k}q`, 'x');
    await sleep(50);
    expect(await b.q('INFO', 'clients')).toMatch(/blocked_clients:0/);
    a.raw.close();
    b.raw.close();
  });
});
