// Append-only file: replay reproduces time-dependent and random effects, transactions are all or
// nothing, a torn tail is cut off, a damaged file refuses start-up, snapshots compact the log.
// "Crashes" are simulated by copying the data dir of a running server: every acknowledged write
// is already in the file at that point, which is exactly what a SIGKILL leaves behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SnapshotError, startEmbeddedRedis } from '../src/index.ts';
import type { EmbeddedRedis } from '../src/index.ts';
import { RawClient, plain } from './support/raw-client.ts';
import type { Plain } from './support/raw-client.ts';

const dirs: string[] = [];
const open: { close(): unknown }[] = [];
afterAll(async () => {
  for (const o of open) await o.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function tmpDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'embedded-redis-aof-'));
  dirs.push(d);
  return d;
}

/** What a SIGKILL would leave: the files as they are now, minus the lock of the live process. */
function crashCopy(dir: string): string {
  const copy = tmpDir();
  for (const name of fs.readdirSync(dir)) {
    if (name !== 'embedded-redis.lock') fs.copyFileSync(path.join(dir, name), path.join(copy, name));
  }
  return copy;
}

async function start(dir: string, opts: { snapshotIntervalMs?: number } = {}): Promise<{ srv: EmbeddedRedis; q: (...a: (string | number)[]) => Promise<Plain> }> {
  const srv = await startEmbeddedRedis({ port: 0, dataDir: dir, snapshotIntervalMs: opts.snapshotIntervalMs ?? 600000 });
  const c = await RawClient.connect(srv.port);
  open.push({ close: () => c.close() }, srv);
  return { srv, q: async (...a) => plain(await c.call(...a)) };
}

const aofNames = (dir: string): string[] => fs.readdirSync(dir).filter((n) => n.startsWith('appendonly.aof.')).sort();

describe('append-only file', () => {
  it('replays every acknowledged write after a crash, with relative expiries, SPOP and databases as they were', async () => {
    const dir = tmpDir();
    const { q } = await start(dir);
    expect(await q('SET', 'a', '1')).toBe('OK');
    expect(await q('INCRBY', 'a', '41')).toBe(42);
    expect(await q('SET', 'ttl', 'x', 'EX', '100')).toBe('OK');
    expect(await q('SET', 'short', 'x', 'PX', '150')).toBe('OK');
    expect(await q('RPUSH', 'l', 'a', 'b', 'c')).toBe(3);
    expect(await q('LPOP', 'l')).toBe('a');
    expect(await q('SADD', 's', '1', '2', '3', '4', '5')).toBe(5);
    const popped = (await q('SPOP', 's', '2')) as string[];
    expect(await q('SELECT', '5')).toBe('OK');
    expect(await q('HSET', 'h', 'f', 'v')).toBe(1);
    expect(await q('SET', 'nx', 'first', 'NX')).toBe('OK');
    expect(await q('SET', 'nx', 'second', 'NX')).toBe(null);
    const pttl = (await q('PTTL', 'nx')) as number;
    expect(pttl).toBe(-1);
    await sleep(250);
    // The key expired: INCR now starts from 0. Replay must see it expired too (time pinned).
    expect(await q('SELECT', '0')).toBe('OK');
    expect(await q('INCR', 'short')).toBe(1);
    const ttlBefore = (await q('PTTL', 'ttl')) as number;

    const { q: r } = await start(crashCopy(dir));
    expect(await r('GET', 'a')).toBe('42');
    expect(await r('GET', 'short')).toBe('1');
    expect(await r('PTTL', 'short')).toBe(-1);
    const ttlAfter = (await r('PTTL', 'ttl')) as number;
    // Same absolute deadline: only the time between the two reads has passed.
    expect(ttlAfter).toBeLessThanOrEqual(ttlBefore);
    expect(ttlAfter).toBeGreaterThan(ttlBefore - 5000);
    expect(await r('LRANGE', 'l', '0', '-1')).toEqual(['b', 'c']);
    const left = ((await r('SMEMBERS', 's')) as string[]).sort();
    expect(left).toEqual(['1', '2', '3', '4', '5'].filter((m) => !popped.includes(m)));
    expect(await r('SELECT', '5')).toBe('OK');
    expect(await r('HGET', 'h', 'f')).toBe('v');
    expect(await r('GET', 'nx')).toBe('first');
  });

  it('applies a transaction whole or not at all, and cuts off a record torn by the crash', async () => {
    const dir = tmpDir();
    const { q } = await start(dir);
    expect(await q('SET', 'before', '1')).toBe('OK');
    expect(await q('MULTI')).toBe('OK');
    expect(await q('SET', 'tx1', 'a')).toBe('QUEUED');
    expect(await q('INCR', 'tx2')).toBe('QUEUED');
    expect(await q('EXEC')).toEqual(['OK', 1]);
    const copy = crashCopy(dir);
    const [file] = aofNames(copy);
    const full = fs.readFileSync(path.join(copy, file!), 'latin1');
    // The file holds MULTI ... EXEC around the transaction's writes.
    expect(full).toMatch(/MULTI[\s\S]*tx1[\s\S]*tx2[\s\S]*EXEC/);
    // Cut inside the transaction, as a crash in mid-write would: nothing of it may appear.
    const cut = full.indexOf('tx2');
    fs.writeFileSync(path.join(copy, file!), full.slice(0, cut), 'latin1');
    const { q: r } = await start(copy);
    expect(await r('GET', 'before')).toBe('1');
    expect(await r('EXISTS', 'tx1', 'tx2')).toBe(0);
    // The torn tail was truncated away (the file now ends at a record boundary), and appending works.
    expect(await r('SET', 'after', '2')).toBe('OK');
    const { q: r2 } = await start(crashCopy(copy));
    expect(await r2('MGET', 'before', 'after', 'tx1')).toEqual(['1', '2', null]);
  });

  it('logs a script by its effects, as one MULTI/EXEC unit (random choices replay identically)', async () => {
    const dir = tmpDir();
    const { q } = await start(dir);
    expect(await q('SADD', 'pool', 'a', 'b', 'c', 'd')).toBe(4);
    const script = "local m = redis.call('spop', KEYS[1]); redis.call('set', KEYS[2], m, 'EX', 100); return m";
    const picked = (await q('EVAL', script, '2', 'pool', 'picked')) as string;
    const text = fs.readFileSync(path.join(dir, aofNames(dir)[0]!), 'latin1');
    expect(text).toMatch(/MULTI[\s\S]*SREM[\s\S]*picked[\s\S]*EXEC/);
    expect(text).not.toContain('EVAL');
    const { q: r } = await start(crashCopy(dir));
    expect(await r('GET', 'picked')).toBe(picked);
    expect(((await r('SMEMBERS', 'pool')) as string[]).sort()).toEqual(['a', 'b', 'c', 'd'].filter((m) => m !== picked));
    expect(await r('TTL', 'picked')).toBeGreaterThan(90);
  });

  it('logs a pop served to a blocked BLPOP as LPOP, after the push that fed it', async () => {
    const dir = tmpDir();
    const { srv, q } = await start(dir);
    const waiter = await RawClient.connect(srv.port);
    open.push({ close: () => waiter.close() });
    const served = waiter.call('BLPOP', 'jobs', '5');
    await sleep(50);
    expect(await q('RPUSH', 'jobs', 'j1', 'j2')).toBe(2);
    expect(plain(await served)).toEqual(['jobs', 'j1']);
    const text = fs.readFileSync(path.join(dir, aofNames(dir)[0]!), 'latin1');
    expect(text).toMatch(/RPUSH[\s\S]*LPOP/);
    expect(text).not.toContain('BLPOP');
    const { q: r } = await start(crashCopy(dir));
    expect(await r('LRANGE', 'jobs', '0', '-1')).toEqual(['j2']);
  });

  it('logs an XREADGROUP BLOCK as the read it finally did, never as a wait', async () => {
    const dir = tmpDir();
    const { srv, q } = await start(dir);
    expect(await q('XGROUP', 'CREATE', 'ev', 'g', '$', 'MKSTREAM')).toBe('OK');
    const waiter = await RawClient.connect(srv.port);
    open.push({ close: () => waiter.close() });
    const served = waiter.call('XREADGROUP', 'GROUP', 'g', 'w1', 'BLOCK', '0', 'STREAMS', 'ev', '>');
    await sleep(50);
    expect(await q('XADD', 'ev', '1-1', 'k', 'v')).toBe('1-1');
    expect(plain(await served)).toEqual([['ev', [['1-1', ['k', 'v']]]]]);
    const text = fs.readFileSync(path.join(dir, aofNames(dir)[0]!), 'latin1');
    expect(text).not.toContain('BLOCK');
    const { q: r } = await start(crashCopy(dir));
    expect(await r('XPENDING', 'ev', 'g')).toEqual([1, '1-1', '1-1', [['w1', '1']]]);
  });

  it('refuses to start on a file damaged before its end rather than loading half of it', async () => {
    const dir = tmpDir();
    const { q } = await start(dir);
    expect(await q('SET', 'a', '1')).toBe('OK');
    expect(await q('SET', 'b', '2')).toBe('OK');
    const copy = crashCopy(dir);
    const [file] = aofNames(copy);
    const text = fs.readFileSync(path.join(copy, file!), 'latin1');
    fs.writeFileSync(path.join(copy, file!), text.replace('*3\r\n$3\r\nSET\r\n$1\r\na', '!3\r\n$3\r\nSET\r\n$1\r\na'), 'latin1');
    await expect(startEmbeddedRedis({ port: 0, dataDir: copy })).rejects.toBeInstanceOf(SnapshotError);
  });

  it('is compacted by snapshots: older files are deleted once a snapshot holds their effect', async () => {
    const dir = tmpDir();
    const { q } = await start(dir, { snapshotIntervalMs: 50 });
    for (let i = 0; i < 50; i++) expect(await q('INCR', 'counter')).toBe(i + 1);
    // Quiet for a while: the last snapshot holds everything and nothing new is dirty.
    await sleep(400);
    const names = aofNames(dir);
    // One live file, named by the snapshot as the first to replay, and none of the 50 INCRs in it.
    expect(names).toHaveLength(1);
    const head = JSON.parse(fs.readFileSync(path.join(dir, 'dump.ndjson'), 'latin1').split('\n')[0]!) as { aof: number };
    expect(names[0]).toBe(`appendonly.aof.${head.aof}`);
    expect(fs.readFileSync(path.join(dir, names[0]!), 'latin1')).not.toContain('counter');
    expect(await q('INCR', 'counter')).toBe(51);
    const { q: r } = await start(crashCopy(dir));
    expect(await r('GET', 'counter')).toBe('51');
  });

  it('CONFIG reports and changes appendfsync, refuses unknown values and parameters', async () => {
    const { q } = await start(tmpDir());
    expect(await q('CONFIG', 'GET', 'append*')).toEqual(['appendonly', 'yes', 'appendfsync', 'everysec']);
    expect(await q('CONFIG', 'SET', 'appendfsync', 'always')).toBe('OK');
    expect(await q('SET', 'k', 'v')).toBe('OK');
    expect(await q('CONFIG', 'GET', 'appendfsync')).toEqual(['appendfsync', 'always']);
    expect(await q('CONFIG', 'SET', 'appendfsync', 'sometimes')).toEqual({
      error: "ERR CONFIG SET failed (possibly related to argument 'appendfsync') - argument(s) must be one of the following: everysec, always, no",
    });
    expect(await q('CONFIG', 'SET', 'maxmemory', '10')).toEqual({
      error: "ERR CONFIG SET 'maxmemory' is not supported by the embedded server (it reports the value in use)",
    });
    expect(await q('CONFIG', 'SET', 'no-such-thing', '1')).toEqual({
      error: "ERR Unknown option or number of arguments for CONFIG SET - 'no-such-thing'",
    });
    expect(await q('INFO', 'persistence')).toMatch(/aof_enabled:1/);
  });

  it('with appendonly off, leftover files are folded into a snapshot and removed', async () => {
    const dir = tmpDir();
    const { q } = await start(dir);
    expect(await q('SET', 'kept', 'yes')).toBe('OK');
    const copy = crashCopy(dir);
    const srv = await startEmbeddedRedis({ port: 0, dataDir: copy, appendonly: false });
    open.push(srv);
    const c = await RawClient.connect(srv.port);
    open.push({ close: () => c.close() });
    expect(plain(await c.call('GET', 'kept'))).toBe('yes');
    expect(aofNames(copy)).toEqual([]);
    expect(plain(await c.call('CONFIG', 'GET', 'appendonly'))).toEqual(['appendonly', 'no']);
  });
});
