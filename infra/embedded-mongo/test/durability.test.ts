// Durability through the CLI: SIGKILL under a write load, restart, and check that every
// acknowledged write is there and no transaction is half-applied; journal compaction.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Double, Int32, Long, MongoClient } from 'mongodb';
import { startCli, stopCli } from './cli.ts';
import type { CliServer } from './cli.ts';
import { removeTempDirs, startTestServer, tempDir } from './helpers.ts';

let server: CliServer | undefined;
const clients: MongoClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close(true).catch(() => undefined);
  await stopCli(server, 'SIGKILL');
  server = undefined;
});

function connect(port: number): Promise<MongoClient> {
  const c = new MongoClient(`mongodb://127.0.0.1:${port}/load?directConnection=true`, { serverSelectionTimeoutMS: 3000, connectTimeoutMS: 2000 });
  clients.push(c);
  return c.connect();
}

afterAll(() => removeTempDirs());

describe('durability', () => {
  it('loses no acknowledged write after SIGKILL during a write load', { timeout: 90_000 }, async () => {
    const dataDir = tempDir();
    // A small compaction threshold makes snapshots happen during the load too.
    server = await startCli(['--port', '0', '--host', '127.0.0.1', '--data-dir', dataDir, '--compact-bytes', '20000']);
    const client = await connect(server.port);
    const db = client.db('load');
    await db.collection('items').createIndex({ seq: 1 }, { unique: true });
    await db.collection('counter').insertOne({ _id: 'c' as never, n: 0 });

    const acked = new Set<number>();
    const ackedTxns = new Set<number>();
    let incAcked = 0;
    let incSent = 0;
    let stop = false;
    let seq = 0;
    const worker = async (kind: number): Promise<void> => {
      while (!stop && seq < 1_000_000) {
        const n = seq++;
        try {
          if (kind === 0) {
            await db.collection('items').insertOne({ seq: n, payload: 'x'.repeat(100) });
            acked.add(n);
          } else if (kind === 1) {
            incSent++;
            await db.collection('counter').updateOne({ _id: 'c' as never }, { $inc: { n: 1 } });
            incAcked++;
          } else {
            const s = client.startSession();
            try {
              await s.withTransaction(async () => {
                await db.collection('pairs').insertOne({ t: n, side: 'a' }, { session: s });
                await db.collection('pairs').insertOne({ t: n, side: 'b' }, { session: s });
              });
              ackedTxns.add(n);
            } finally {
              await s.endSession().catch(() => undefined);
            }
          }
        } catch {
          if (stop) return;
        }
      }
    };
    const workers = Array.from({ length: 9 }, (_, i) => worker(i % 3));
    // Run for a while, and on a busy machine long enough to have a meaningful number of writes.
    await new Promise((r) => setTimeout(r, 1500));
    const until = Date.now() + 15_000;
    while ((acked.size < 100 || ackedTxns.size < 20) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    stop = true;
    // A transaction left open at the moment of the crash must not surface after restart.
    const open = client.startSession();
    open.startTransaction();
    await db.collection('pairs').insertOne({ t: -1, side: 'uncommitted' }, { session: open });
    await db.collection('counter').updateOne({ _id: 'c' as never }, { $set: { poisoned: true } }, { session: open });
    server.child.kill('SIGKILL');
    await new Promise((r) => server!.child.once('exit', r));
    const firstRunLog = server.stdout();
    // Nothing can be acknowledged after the kill; closing fails in-flight operations fast.
    await client.close(true).catch(() => undefined);
    await Promise.allSettled(workers);
    expect(acked.size).toBeGreaterThan(20);
    expect(ackedTxns.size).toBeGreaterThan(5);

    server = await startCli(['--port', '0', '--data-dir', dataDir]);
    const after = await connect(server.port);
    const db2 = after.db('load');
    const present = new Set((await db2.collection('items').find({}, { projection: { seq: 1 } }).toArray()).map((d) => d['seq'] as number));
    const missing = [...acked].filter((n) => !present.has(n));
    expect(missing).toEqual([]);
    const counter = await db2.collection('counter').findOne({ _id: 'c' as never });
    expect(counter?.['n']).toBeGreaterThanOrEqual(incAcked);
    expect(counter?.['n']).toBeLessThanOrEqual(incSent);
    expect(await db2.collection('pairs').countDocuments({ t: -1 })).toBe(0);
    expect(counter?.['poisoned']).toBeUndefined();
    const pairs = await db2.collection('pairs').find({}).toArray();
    const byTxn = new Map<number, number>();
    for (const p of pairs) byTxn.set(p['t'] as number, (byTxn.get(p['t'] as number) ?? 0) + 1);
    expect([...byTxn.entries()].filter(([, c]) => c !== 2)).toEqual([]);
    expect([...ackedTxns].filter((t) => byTxn.get(t) !== 2)).toEqual([]);
    // Compaction ran and bounded the journal.
    expect(firstRunLog).toContain('"msg":"journal compacted"');
    expect(fs.existsSync(path.join(dataDir, 'snapshot.bson'))).toBe(true);
    expect(fs.statSync(path.join(dataDir, 'journal.log')).size).toBeLessThan(150_000);
    // The unique index survived the restart.
    await expect(db2.collection('items').insertOne({ seq: [...acked][0] })).rejects.toMatchObject({ code: 11000 });
  });

  it('replays state, indexes and numeric types after a clean restart and compaction', async () => {
    const dataDir = tempDir();
    let srv = await startTestServer({ dataDir });
    let c = await new MongoClient(srv.uri('app')).connect();
    const coll = c.db('app').collection('things');
    await coll.createIndex({ a: 1, b: 1 }, { unique: true, name: 'a_b' });
    await coll.insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: i as never, a: i % 5, b: i })));
    await coll.deleteMany({ b: { $gte: 40 } });
    await coll.updateMany({ a: 0 }, { $set: { zero: true } });
    await coll.insertOne({ _id: 'typed' as never, a: 9, b: 9, i: new Int32(1), l: Long.fromNumber(2), d: new Double(3), f: 0.5 });
    await srv.compact();
    await coll.updateOne({ _id: 1 as never }, { $set: { after: 'compaction' } });
    await c.close();
    await srv.close();
    expect(fs.statSync(path.join(dataDir, 'journal.log')).size).toBeLessThan(1000);

    srv = await startTestServer({ dataDir });
    c = await new MongoClient(srv.uri('app')).connect();
    const coll2 = c.db('app').collection('things');
    expect(await coll2.countDocuments()).toBe(41);
    const typed = await c.db('app').collection('things', { promoteValues: false }).findOne({ _id: 'typed' as never });
    expect(typed).toMatchObject({ i: new Int32(1), l: Long.fromNumber(2), d: new Double(3), f: new Double(0.5) });
    expect(await coll2.countDocuments({ zero: true })).toBe(8);
    expect(await coll2.findOne({ _id: 1 as never })).toMatchObject({ after: 'compaction' });
    expect((await coll2.listIndexes().toArray()).map((i) => i['name'])).toEqual(['_id_', 'a_b']);
    await expect(coll2.insertOne({ a: 1, b: 1 })).rejects.toMatchObject({ code: 11000 });
    await c.close();
    await srv.close();
  });

  it('starts after a torn journal tail, dropping only the incomplete record', async () => {
    const running = tempDir();
    let srv = await startTestServer({ dataDir: running });
    let c = await new MongoClient(srv.uri('app')).connect();
    await c.db('app').collection('t').insertMany([{ _id: 1 as never }, { _id: 2 as never }]);
    // The journal as a crash leaves it (a clean stop would fold it into a snapshot): copied while
    // the server runs, without the lock that names this live process.
    const dataDir = tempDir();
    fs.copyFileSync(path.join(running, 'journal.log'), path.join(dataDir, 'journal.log'));
    await c.close();
    await srv.close();
    const journal = path.join(dataDir, 'journal.log');
    const good = fs.statSync(journal).size;
    expect(good).toBeGreaterThan(0);
    // A crash mid-append leaves a length prefix promising more bytes than exist.
    const torn = Buffer.alloc(12);
    torn.writeUInt32LE(500, 0);
    fs.appendFileSync(journal, torn);
    srv = await startTestServer({ dataDir });
    c = await new MongoClient(srv.uri('app')).connect();
    expect(await c.db('app').collection('t').countDocuments()).toBe(2);
    expect(fs.statSync(journal).size).toBe(good);
    await c.db('app').collection('t').insertOne({ _id: 3 as never });
    await c.close();
    await srv.close();
    srv = await startTestServer({ dataDir });
    c = await new MongoClient(srv.uri('app')).connect();
    expect(await c.db('app').collection('t').countDocuments()).toBe(3);
    await c.close();
    await srv.close();
  });

  it('remembers applied retryable writes across a restart', { timeout: 30_000 }, async () => {
    const dataDir = tempDir();
    let srv = await startTestServer({ dataDir });
    const port = srv.port;
    const c = await new MongoClient(`mongodb://127.0.0.1:${port}/app?directConnection=true`, { heartbeatFrequencyMS: 500, monitorCommands: true }).connect();
    try {
      await c.db('app').collection('r').insertOne({ _id: 'acct' as never, n: 0 });
      const session = c.startSession();
      const seen: unknown[] = [];
      c.on('commandStarted', (e) => e.commandName === 'update' && seen.push(e.command['lsid']));
      const cmd = { update: 'r', updates: [{ q: { _id: 'acct' }, u: { $inc: { n: 5 } } }], txnNumber: Long.fromNumber(7) };
      expect(await c.db('app').command(cmd, { session })).toMatchObject({ n: 1, nModified: 1 });
      await srv.close();
      srv = await startTestServer({ dataDir, port });
      // The driver resends the same lsid + txnNumber after a lost reply; it must not apply twice.
      let reply: unknown;
      for (let i = 0; i < 50 && reply === undefined; i++) {
        reply = await c.db('app').command(cmd, { session }).catch(() => new Promise((r) => setTimeout(r, 100)).then(() => undefined));
      }
      expect(reply).toMatchObject({ n: 1, nModified: 1 });
      expect(seen.length).toBeGreaterThanOrEqual(2);
      for (const l of seen) expect(l).toEqual(seen[0]);
      expect((await c.db('app').collection('r').findOne({ _id: 'acct' as never }))?.['n']).toBe(5);
      await session.endSession();
    } finally {
      await c.close();
      await srv.close();
    }
  });
});
