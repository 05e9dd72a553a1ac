// Update operators, index use (observable through serverStatus scannedObjects) and TTL expiry,
// through the official driver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import type { Db } from 'mongodb';
import { removeTempDirs, startTestServer } from './helpers.ts';

let srv: Awaited<ReturnType<typeof startTestServer>>;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  srv = await startTestServer();
  client = await new MongoClient(srv.uri('feat')).connect();
  db = client.db('feat');
});

afterAll(async () => {
  await client?.close();
  await srv?.close();
  removeTempDirs();
});

describe('update operators', () => {
  it('supports positional, arrayFilters, pipelines, $push/$pull/$addToSet, $unset, $rename, $min/$max', async () => {
    interface OpsDoc {
      _id: number;
      items: Array<{ sku: string; qty: number; flag?: boolean }>;
      tags: string[];
      n: number;
      old?: number;
      renamed?: number;
      total?: number;
    }
    const coll = db.collection<OpsDoc>('ops');
    await coll.insertOne({ _id: 1, items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 2 }], tags: ['x'], n: 5, old: 1 });
    await coll.updateOne({ _id: 1, 'items.sku': 'b' }, { $inc: { 'items.$.qty': 10 } });
    await coll.updateOne({ _id: 1 }, { $set: { 'items.$[it].flag': true } }, { arrayFilters: [{ 'it.qty': { $gte: 10 } }] });
    await coll.updateOne({ _id: 1 }, { $push: { tags: 'y' }, $rename: { old: 'renamed' }, $max: { n: 9 } });
    const same = await coll.updateOne({ _id: 1 }, { $addToSet: { tags: 'x' } });
    expect(same.modifiedCount).toBe(0);
    await coll.updateOne({ _id: 1 }, { $pull: { tags: 'x' }, $min: { n: 7 }, $unset: { renamed: '' } });
    await coll.updateOne({ _id: 1 }, [{ $set: { total: { $sum: '$items.qty' } } }]);
    expect((await coll.distinct('items.sku')).sort()).toEqual(['a', 'b']);
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      items: [
        { sku: 'a', qty: 1 },
        { sku: 'b', qty: 12, flag: true },
      ],
      tags: ['y'],
      n: 7,
      total: 13,
    });
  });
});

describe('index use', () => {
  it('answers equality on an indexed field without scanning the collection', async () => {
    const coll = db.collection('scan');
    await coll.createIndex({ email: 1 }, { unique: true });
    await coll.createIndex({ tenant: 1, status: 1 });
    await coll.insertMany(Array.from({ length: 5000 }, (_, i) => ({ email: `u${i}@x.kr`, tenant: `t${i % 50}`, status: i % 2 ? 'on' : 'off', n: i })));
    const scanned = async (): Promise<number> => Number(((await db.admin().serverStatus()) as { metrics: { queryExecutor: { scannedObjects: unknown } } }).metrics.queryExecutor.scannedObjects);
    let before = await scanned();
    expect(await coll.findOne({ email: 'u4321@x.kr' })).toMatchObject({ n: 4321 });
    expect((await scanned()) - before).toBe(1);
    before = await scanned();
    expect(await coll.countDocuments({ tenant: 't7', status: 'on' })).toBe(100);
    expect((await scanned()) - before).toBe(100);
    before = await scanned();
    expect(await coll.countDocuments({ email: { $in: ['u1@x.kr', 'u2@x.kr', 'nobody'] } })).toBe(2);
    expect((await scanned()) - before).toBe(2);
    // $or is served by a union of index lookups when every branch can use one.
    before = await scanned();
    expect(await coll.countDocuments({ $or: [{ email: 'u7@x.kr' }, { tenant: 't3', status: 'on' }] })).toBe(1 + 100);
    expect((await scanned()) - before).toBe(1 + 100);
    // A range query has no equality to use and examines every document.
    before = await scanned();
    expect(await coll.countDocuments({ n: { $lt: 10 } })).toBe(10);
    expect((await scanned()) - before).toBe(5000);
  });
});

describe('ttl indexes', () => {
  it('deletes documents past expireAfterSeconds', { timeout: 20_000 }, async () => {
    const ttlSrv = await startTestServer({ ttlIntervalMs: 100 });
    const c = await new MongoClient(ttlSrv.uri('ttl')).connect();
    try {
      const coll = c.db('ttl').collection('processed');
      await coll.createIndex({ at: 1 }, { expireAfterSeconds: 60 });
      await coll.insertMany([
        { k: 'old', at: new Date(Date.now() - 120_000) },
        { k: 'new', at: new Date() },
        { k: 'no-date', at: 'not a date' },
      ]);
      const deadline = Date.now() + 10_000;
      while ((await coll.countDocuments()) > 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect((await coll.find({}).sort({ k: 1 }).toArray()).map((d) => d['k'])).toEqual(['new', 'no-date']);
    } finally {
      await c.close();
      await ttlSrv.close();
    }
  });
});
