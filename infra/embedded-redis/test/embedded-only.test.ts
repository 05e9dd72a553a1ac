// Behaviour checked on the embedded server alone: things that would need FLUSHALL or a quiet
// keyspace on the shared real Redis, active expiry, SCAN guarantees and snapshot round trips.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SnapshotError, startEmbeddedRedis } from '../src/index.ts';
import type { EmbeddedRedis } from '../src/index.ts';
import { RawClient, plain } from './support/raw-client.ts';
import type { Plain } from './support/raw-client.ts';

let srv: EmbeddedRedis;
let c: RawClient;
const call = async (...a: (string | number)[]): Promise<Plain> => plain(await c.call(...a));
beforeAll(async () => {
  srv = await startEmbeddedRedis({ port: 0 });
  c = await RawClient.connect(srv.port);
});
afterAll(async () => {
  c.close();
  await srv.close();
});

describe('keyspace administration', () => {
  it('DBSIZE, FLUSHDB and FLUSHALL act per database', async () => {
    await call('SELECT', 1);
    await call('MSET', 'a', '1', 'b', '2');
    await call('SELECT', 2);
    await call('SET', 'c', '3');
    expect(await call('DBSIZE')).toBe(1);
    expect(await call('FLUSHDB')).toBe('OK');
    expect(await call('DBSIZE')).toBe(0);
    await call('SELECT', 1);
    expect(await call('DBSIZE')).toBe(2);
    expect(await call('FLUSHDB', 'BOGUS')).toEqual({ error: 'ERR syntax error' });
    expect(await call('FLUSHALL', 'ASYNC')).toBe('OK');
    expect(await call('DBSIZE')).toBe(0);
    await call('SELECT', 0);
  });

  it('active expiry reclaims keys nobody reads again', async () => {
    await call('SELECT', 4);
    const n = 2000;
    let batch: (string | number)[] = [];
    for (let i = 0; i < n; i++) batch.push(`tmp:${i}`, 'x');
    await call('MSET', ...batch);
    batch = [];
    let pipeline = '';
    for (let i = 0; i < n; i++) pipeline += `PEXPIRE tmp:${i} 300\r\n`;
    await c.sendRaw(pipeline, n);
    await call('SET', 'stays', '1');
    expect(await call('DBSIZE')).toBe(n + 1);
    const until = Date.now() + 3000;
    let size = n + 1;
    while (size > 1 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
      size = (await call('DBSIZE')) as number;
    }
    expect(size).toBe(1);
    const info = (await call('INFO', 'stats')) as string;
    expect(Number(/expired_keys:(\d+)/.exec(info)?.[1])).toBeGreaterThanOrEqual(n);
    await call('FLUSHDB');
    await call('SELECT', 0);
  });

  it('SCAN returns every key that exists for the whole iteration, even with deletes in between', async () => {
    await call('SELECT', 5);
    const args: string[] = [];
    for (let i = 0; i < 500; i++) args.push(`k:${i}`, 'v');
    await call('MSET', ...args);
    await call('HSET', 'h:1', 'f', 'v');
    const seen = new Set<string>();
    let cursor = '0';
    let rounds = 0;
    do {
      const [next, keys] = (await call('SCAN', cursor, 'COUNT', 37)) as [string, string[]];
      for (const k of keys) seen.add(k);
      // Delete some keys we have not necessarily visited yet, and add new ones.
      if (rounds < 5) await call('DEL', `k:${rounds * 2}`, `k:${490 - rounds}`);
      await call('SET', `new:${rounds}`, 'v');
      cursor = next;
      rounds++;
    } while (cursor !== '0' && rounds < 1000);
    expect(cursor).toBe('0');
    for (let i = 0; i < 500; i++) {
      const deleted = [0, 2, 4, 6, 8, 490, 489, 488, 487, 486].includes(i);
      if (!deleted) expect(seen.has(`k:${i}`), `k:${i}`).toBe(true);
    }
    const [, hashes] = (await call('SCAN', '0', 'COUNT', 1000, 'TYPE', 'hash')) as [string, string[]];
    expect(hashes).toEqual(['h:1']);
    const [, matched] = (await call('SCAN', '0', 'COUNT', 1000, 'MATCH', 'k:49?')) as [string, string[]];
    expect(matched.sort()).toEqual(['k:491', 'k:492', 'k:493', 'k:494', 'k:495', 'k:496', 'k:497', 'k:498', 'k:499']);
    await call('FLUSHDB');
    await call('SELECT', 0);
  });

  it('answers COMMAND, COMMAND COUNT/INFO/DOCS and CONFIG GET as redis-cli and redis-benchmark expect', async () => {
    const count = (await call('COMMAND', 'COUNT')) as number;
    expect(count).toBeGreaterThan(80);
    expect(((await call('COMMAND')) as Plain[]).length).toBe(count);
    expect(await call('COMMAND', 'INFO', 'get', 'nosuch')).toEqual([
      ['get', 2, ['readonly', 'fast'], 1, 1, 1, ['@read', '@string', '@fast'], [], [], []],
      null,
    ]);
    const docs = (await call('COMMAND', 'DOCS', 'set')) as Plain[];
    expect(docs[0]).toBe('set');
    expect(docs[1]).toEqual(expect.arrayContaining(['summary', 'group', 'string']));
    expect(await call('CONFIG', 'GET', 'save')).toEqual(['save', '']);
    expect(await call('CONFIG', 'GET', 'appendonly')).toEqual(['appendonly', 'no']);
    expect(await call('CONFIG', 'GET', 'max*')).toEqual(expect.arrayContaining(['maxmemory', '0']));
    expect(await call('COMMAND', 'NOPE')).toEqual({ error: "ERR unknown subcommand 'NOPE'. Try COMMAND HELP." });
  });

  it('lists clients with their names and protocol', async () => {
    const other = await RawClient.connect(srv.port);
    await other.call('HELLO', '3', 'SETNAME', 'worker-7');
    const list = (await call('CLIENT', 'LIST')) as string;
    expect(list).toMatch(/id=\d+ addr=127\.0\.0\.1:\d+ .*name=worker-7 .*resp=3/);
    expect(list.trim().split('\n').length).toBeGreaterThanOrEqual(2);
    other.close();
  });

  it('disconnects a subscriber that stops reading once 64 MiB of messages pile up', async () => {
    const stalled = net.connect(srv.port, '127.0.0.1');
    await new Promise<void>((r) => stalled.once('connect', () => r()));
    stalled.write('SUBSCRIBE firehose\r\n');
    await new Promise((r) => setTimeout(r, 50));
    stalled.pause();
    const closed = new Promise<void>((r) => stalled.once('close', () => r()));
    stalled.on('error', () => undefined);
    const payload = 'x'.repeat(1024 * 1024);
    let receivers = 1;
    for (let i = 0; i < 120 && receivers > 0; i++) receivers = (await call('PUBLISH', 'firehose', payload)) as number;
    expect(receivers).toBe(0);
    stalled.resume();
    await closed;
    expect(await call('PING')).toBe('PONG');
  });

  it('keeps binary values byte for byte', async () => {
    const bytes = Buffer.from([0, 1, 2, 0xff, 0xfe, 13, 10, 0x80]);
    const bin = bytes.toString('latin1');
    await call('SET', 'bin', bin);
    expect(await call('GET', 'bin')).toBe(bin);
    expect(await call('STRLEN', 'bin')).toBe(8);
    await call('DEL', 'bin');
  });
});

describe('snapshots through the API', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('round-trips every type, absolute expiry times and binary data; drops keys that expired while down', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-redis-snap-'));
    dirs.push(dir);
    const a = await startEmbeddedRedis({ port: 0, dataDir: dir });
    const ca = await RawClient.connect(a.port);
    const bin = Buffer.from([0, 0xff, 10, 13, 0x7f]).toString('latin1');
    await ca.call('SET', 'str', bin);
    await ca.call('SET', 'short', 'v', 'PX', '300');
    await ca.call('SET', 'long', 'v', 'EX', '500');
    await ca.call('HSET', 'h', 'f1', 'v1', 'f2', bin);
    await ca.call('SADD', 's', 'a', 'b');
    await ca.call('ZADD', 'z', '-inf', 'lo', '1.5', 'mid', 'inf', 'hi');
    await ca.call('RPUSH', 'l', '1', '2', '3');
    await ca.call('SELECT', '15');
    await ca.call('SET', 'db15', 'yes');
    await ca.call('SELECT', '0');
    const pttlBefore = plain(await ca.call('PTTL', 'long')) as number;
    ca.close();
    await a.close();

    await new Promise((r) => setTimeout(r, 400));
    const b = await startEmbeddedRedis({ port: 0, dataDir: dir });
    const cb = await RawClient.connect(b.port);
    const q = async (...x: string[]): Promise<Plain> => plain(await cb.call(...x));
    expect(await q('GET', 'str')).toBe(bin);
    expect(await q('EXISTS', 'short')).toBe(0);
    const pttl = (await q('PTTL', 'long')) as number;
    expect(pttl).toBeLessThanOrEqual(pttlBefore - 400);
    expect(pttl).toBeGreaterThan(pttlBefore - 5000);
    expect(await q('HGETALL', 'h')).toEqual(['f1', 'v1', 'f2', bin]);
    expect(((await q('SMEMBERS', 's')) as string[]).sort()).toEqual(['a', 'b']);
    expect(await q('ZRANGE', 'z', '0', '-1', 'WITHSCORES')).toEqual(['lo', '-inf', 'mid', '1.5', 'hi', 'inf']);
    expect(await q('LRANGE', 'l', '0', '-1')).toEqual(['1', '2', '3']);
    await q('SELECT', '15');
    expect(await q('GET', 'db15')).toBe('yes');
    cb.close();
    await b.close();
  });

  it('survives SAVE storms during background snapshots and cleans temp files a crash left', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-redis-snap-'));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'dump.ndjson.tmp-999-3'), 'half a snapshot');
    const a = await startEmbeddedRedis({ port: 0, dataDir: dir, snapshotIntervalMs: 10 });
    expect(fs.readdirSync(dir).filter((n) => n.includes('.tmp'))).toEqual([]);
    const ca = await RawClient.connect(a.port);
    for (let i = 0; i < 200; i++) {
      await ca.call('SET', `k${i}`, 'x'.repeat(1000));
      if (i % 10 === 0) expect(plain(await ca.call('SAVE'))).toBe('OK');
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, 15));
    }
    expect(plain(await ca.call('SAVE'))).toBe('OK');
    const lines = fs.readFileSync(path.join(dir, 'dump.ndjson'), 'latin1').trim().split('\n');
    expect(lines).toHaveLength(201);
    for (const l of lines) JSON.parse(l);
    ca.close();
    await a.close();
    // The snapshot plus the (empty) append-only file it names; older AOF files were compacted away.
    expect(fs.readdirSync(dir).sort()).toEqual([expect.stringMatching(/^appendonly\.aof\.\d+$/), 'dump.ndjson']);
  });

  it('refuses to start on a corrupt snapshot instead of silently starting empty', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-redis-snap-'));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'dump.ndjson'), 'garbage\n');
    await expect(startEmbeddedRedis({ port: 0, dataDir: dir })).rejects.toBeInstanceOf(SnapshotError);
  });
});
