// Streams beyond the fixed-ID conformance cases: generated IDs, XPENDING's extended form with
// idle times and delivery counts (both servers); refusals, snapshot and AOF round trips (embedded).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedRedis } from '../src/index.ts';
import type { EmbeddedRedis } from '../src/index.ts';
import { RawClient, plain } from './support/raw-client.ts';
import type { Plain } from './support/raw-client.ts';
import { REAL_PORT, TEST_DB, realRedisReachable, uniquePrefix } from './support/targets.ts';

const realUp = await realRedisReachable();
let embedded: EmbeddedRedis;
const dirs: string[] = [];
beforeAll(async () => {
  embedded = await startEmbeddedRedis({ port: 0 });
});
afterAll(async () => {
  await embedded?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function conn(port: number): Promise<{ raw: RawClient; q: (...a: (string | number)[]) => Promise<Plain> }> {
  const raw = await RawClient.connect(port);
  await raw.call('SELECT', TEST_DB);
  return { raw, q: async (...a) => plain(await raw.call(...a)) };
}

function suite(label: string, port: () => number): void {
  describe(label, () => {
    it('XADD * makes IDs from the clock, increasing within one millisecond', async () => {
      const k = uniquePrefix('xs');
      const { raw, q } = await conn(port());
      const before = Date.now();
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) ids.push((await q('XADD', `${k}s`, '*', 'i', String(i))) as string);
      const after = Date.now();
      for (let i = 0; i < ids.length; i++) {
        const [ms, seq] = ids[i]!.split('-').map(BigInt) as [bigint, bigint];
        expect(Number(ms)).toBeGreaterThanOrEqual(before - 5);
        expect(Number(ms)).toBeLessThanOrEqual(after + 5);
        if (i > 0) {
          const [pms, pseq] = ids[i - 1]!.split('-').map(BigInt) as [bigint, bigint];
          expect(ms > pms || (ms === pms && seq === pseq + 1n)).toBe(true);
          if (ms > pms) expect(seq).toBe(0n);
        }
      }
      // A later explicit ms-* after a generated one continues the sequence.
      const top = ids[ids.length - 1]!;
      const [tms, tseq] = top.split('-');
      expect(await q('XADD', `${k}s`, `${tms}-*`, 'x', '1')).toBe(`${tms}-${Number(tseq) + 1}`);
      await q('DEL', `${k}s`);
      raw.close();
    });

    it('XPENDING extended: idle time since delivery, delivery counts, consumer filter, IDLE', async () => {
      const k = uniquePrefix('xp');
      const { raw, q } = await conn(port());
      await q('XADD', `${k}s`, '1-1', 'a', '1');
      await q('XADD', `${k}s`, '1-2', 'b', '2');
      await q('XGROUP', 'CREATE', `${k}s`, 'g', '0');
      await q('XREADGROUP', 'GROUP', 'g', 'c1', 'COUNT', '1', 'STREAMS', `${k}s`, '>');
      await q('XREADGROUP', 'GROUP', 'g', 'c2', 'STREAMS', `${k}s`, '>');
      await sleep(200);
      // Re-reading c1's history counts a delivery and resets its idle time.
      await q('XREADGROUP', 'GROUP', 'g', 'c1', 'STREAMS', `${k}s`, '0');
      const rows = (await q('XPENDING', `${k}s`, 'g', '-', '+', '10')) as [string, string, number, number][];
      expect(rows.map((r) => [r[0], r[1], r[3]])).toEqual([['1-1', 'c1', 2], ['1-2', 'c2', 1]]);
      expect(rows[0]![2]).toBeLessThan(150);
      expect(rows[1]![2]).toBeGreaterThanOrEqual(180);
      expect(rows[1]![2]).toBeLessThan(5000);
      expect(((await q('XPENDING', `${k}s`, 'g', 'IDLE', '150', '-', '+', '10')) as string[][]).map((r) => r[0])).toEqual(['1-2']);
      expect(((await q('XPENDING', `${k}s`, 'g', '-', '+', '10', 'c2')) as string[][]).map((r) => r[0])).toEqual(['1-2']);
      expect(await q('XPENDING', `${k}s`, 'g', '(1-1', '+', '10', 'c1')).toEqual([]);
      expect(await q('XPENDING', `${k}s`, 'g', '-', '+')).toEqual({ error: 'ERR syntax error' });
      await q('DEL', `${k}s`);
      raw.close();
    });

    it('XAUTOCLAIM counts a delivery and resets the idle time, JUSTID does not count', async () => {
      const k = uniquePrefix('xc');
      const { raw, q } = await conn(port());
      await q('XADD', `${k}s`, '1-1', 'a', '1');
      await q('XADD', `${k}s`, '1-2', 'b', '2');
      await q('XGROUP', 'CREATE', `${k}s`, 'g', '0');
      await q('XREADGROUP', 'GROUP', 'g', 'c1', 'STREAMS', `${k}s`, '>');
      await sleep(200);
      expect(await q('XAUTOCLAIM', `${k}s`, 'g', 'c2', '150', '-', 'COUNT', '1')).toEqual(['1-2', [['1-1', ['a', '1']]], []]);
      expect(await q('XAUTOCLAIM', `${k}s`, 'g', 'c3', '150', '1-2', 'JUSTID')).toEqual(['0-0', ['1-2'], []]);
      // Both were just claimed: too fresh for a second claim.
      expect(await q('XAUTOCLAIM', `${k}s`, 'g', 'c4', '150', '-')).toEqual(['0-0', [], []]);
      const rows = (await q('XPENDING', `${k}s`, 'g', '-', '+', '10')) as [string, string, number, number][];
      expect(rows.map((r) => [r[0], r[1], r[3]])).toEqual([['1-1', 'c2', 2], ['1-2', 'c3', 1]]);
      for (const r of rows) expect(r[2]).toBeLessThan(150);
      await q('DEL', `${k}s`);
      raw.close();
    });

    it('XREADGROUP BLOCK: waits for XADD, one waiter per entry within a group, times out with null', async () => {
      const k = uniquePrefix('xb');
      const a = await conn(port());
      const b = await conn(port());
      const w = await conn(port());
      await w.q('XGROUP', 'CREATE', `${k}s`, 'g', '$', 'MKSTREAM');
      const ra = a.q('XREADGROUP', 'GROUP', 'g', 'c1', 'BLOCK', '3000', 'STREAMS', `${k}s`, '>');
      await sleep(50);
      const rb = b.q('XREADGROUP', 'GROUP', 'g', 'c2', 'COUNT', '5', 'BLOCK', '3000', 'STREAMS', `${k}s`, '>');
      await sleep(50);
      expect(await w.q('XADD', `${k}s`, '1-1', 'job', 'one')).toBe('1-1');
      expect(await ra).toEqual([[`${k}s`, [['1-1', ['job', 'one']]]]]);
      let bDone = false;
      void rb.then(() => (bDone = true));
      await sleep(100);
      expect(bDone).toBe(false);
      expect(await w.q('XADD', `${k}s`, '2-1', 'job', 'two')).toBe('2-1');
      expect(await rb).toEqual([[`${k}s`, [['2-1', ['job', 'two']]]]]);
      expect(await w.q('XPENDING', `${k}s`, 'g')).toEqual([2, '1-1', '2-1', [['c1', '1'], ['c2', '1']]]);
      const t0 = Date.now();
      expect(await a.q('XREADGROUP', 'GROUP', 'g', 'c1', 'BLOCK', '200', 'STREAMS', `${k}s`, '>')).toBe(null);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
      // History reads and MULTI never block.
      expect(await a.q('XREADGROUP', 'GROUP', 'g', 'c9', 'BLOCK', '0', 'STREAMS', `${k}s`, '0')).toEqual([[`${k}s`, []]]);
      expect(await a.q('MULTI')).toBe('OK');
      expect(await a.q('XREADGROUP', 'GROUP', 'g', 'c1', 'BLOCK', '0', 'STREAMS', `${k}s`, '>')).toBe('QUEUED');
      expect(await a.q('EXEC')).toEqual([null]);
      expect(await a.q('XREADGROUP', 'GROUP', 'g', 'c1', 'BLOCK', '-1', 'STREAMS', `${k}s`, '>')).toEqual({ error: 'ERR timeout is negative' });
      await w.q('DEL', `${k}s`);
      for (const x of [a, b, w]) x.raw.close();
    });
  });
}

suite('embedded', () => embedded.port);
if (realUp) suite(`real Redis at 127.0.0.1:${REAL_PORT}`, () => REAL_PORT);
else describe.skip(`real Redis not reachable at 127.0.0.1:${REAL_PORT} — real-Redis comparisons in this file are skipped`, () => undefined);

describe('embedded only', () => {
  it('refuses the stream features it does not implement, by name', async () => {
    const { raw, q } = await conn(embedded.port);
    const k = uniquePrefix('xr');
    await q('XADD', `${k}s`, '1-1', 'a', '1');
    await q('XGROUP', 'CREATE', `${k}s`, 'g', '0');
    expect(await q('XADD', `${k}s`, 'MAXLEN', '~', '10', '*', 'a', '1')).toEqual({ error: 'ERR approximate trimming (MAXLEN ~) is not implemented by the embedded server' });
    expect(await q('XADD', `${k}s`, 'MINID', '5', '*', 'a', '1')).toEqual({ error: 'ERR XADD MINID is not implemented by the embedded server' });
    expect(await q('XGROUP', 'DESTROY', `${k}s`, 'g')).toEqual({ error: 'ERR XGROUP DESTROY is not implemented by the embedded server' });
    expect(await q('XDEL', `${k}s`, '1-1')).toMatchObject({ error: expect.stringMatching(/^ERR unknown command 'XDEL'/) as unknown });
    expect(await q('XREAD', 'STREAMS', `${k}s`, '0')).toMatchObject({ error: expect.stringMatching(/^ERR unknown command 'XREAD'/) as unknown });
    raw.close();
  });

  it('streams and their groups survive a snapshot restart and an AOF replay', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-redis-streams-'));
    dirs.push(dir);
    const a = await startEmbeddedRedis({ port: 0, dataDir: dir, snapshotIntervalMs: 600000 });
    const ca = await RawClient.connect(a.port);
    const q = async (...x: string[]): Promise<Plain> => plain(await ca.call(...x));
    await q('XADD', 's', '1-1', 'a', '1');
    await q('XGROUP', 'CREATE', 's', 'g', '0');
    await q('XADD', 's', '2-1', 'b', '2');
    await q('XREADGROUP', 'GROUP', 'g', 'c1', 'COUNT', '1', 'STREAMS', 's', '>');
    expect(await q('XAUTOCLAIM', 's', 'g', 'c9', '0', '0', 'JUSTID')).toEqual(['0-0', ['1-1'], []]);
    // AOF only (no snapshot yet): a crash copy of the data dir replays to the same state.
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-redis-streams-'));
    dirs.push(copy);
    for (const n of fs.readdirSync(dir)) if (n !== 'embedded-redis.lock') fs.copyFileSync(path.join(dir, n), path.join(copy, n));
    ca.close();
    await a.close();
    for (const d of [dir, copy]) {
      const b = await startEmbeddedRedis({ port: 0, dataDir: d });
      const cb = await RawClient.connect(b.port);
      const r = async (...x: string[]): Promise<Plain> => plain(await cb.call(...x));
      expect(await r('XRANGE', 's', '-', '+')).toEqual([['1-1', ['a', '1']], ['2-1', ['b', '2']]]);
      expect(await r('XPENDING', 's', 'g')).toEqual([1, '1-1', '1-1', [['c9', '1']]]);
      expect(await r('XREADGROUP', 'GROUP', 'g', 'c2', 'STREAMS', 's', '>')).toEqual([['s', [['2-1', ['b', '2']]]]]);
      expect(await r('XADD', 's', '2-1', 'x', 'y')).toEqual({ error: 'ERR The ID specified in XADD is equal or smaller than the target stream top item' });
      cb.close();
      await b.close();
    }
  });
});
