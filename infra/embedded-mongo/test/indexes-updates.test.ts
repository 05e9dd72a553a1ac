// Update operators, index use (observable through serverStatus scannedObjects) and TTL expiry,
// through the official driver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Double, Int32, Long, MongoClient } from 'mongodb';
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
  it('$set and $unset of top-level fields keep numeric types, count only real changes and stay indexed', async () => {
    const coll = db.collection<{ _id: number; [field: string]: unknown }>('plain_sets');
    await coll.createIndex({ pending: 1, _id: 1 });
    await coll.insertOne({ _id: 1, pending: true, publishedAt: null, big: Long.fromString('9007199254740993'), ratio: new Double(2), event: { data: { amountDeci: 1500, at: new Date(0) } } });
    const mark = await coll.updateOne({ _id: 1 }, { $set: { publishedAt: new Date(1000), count: new Int32(3), total: Long.fromNumber(5), share: new Double(1) }, $unset: { pending: '' } });
    expect({ matched: mark.matchedCount, modified: mark.modifiedCount }).toEqual({ matched: 1, modified: 1 });
    const stored = await coll.findOne({ _id: 1 }, { promoteValues: false });
    expect(Object.keys(stored!)).toEqual(['_id', 'publishedAt', 'big', 'ratio', 'event', 'count', 'total', 'share']);
    expect(stored!.big).toEqual(Long.fromString('9007199254740993'));
    expect(stored!.total).toBeInstanceOf(Long);
    expect(stored!.share).toBeInstanceOf(Double);
    expect(stored!.ratio).toBeInstanceOf(Double);
    expect(stored!.count).toBeInstanceOf(Int32);
    // The index no longer holds the record: a pending lookup finds nothing.
    expect(await coll.find({ pending: true }).toArray()).toEqual([]);
    // The same values again, and unsetting what is already gone: nothing modified.
    const again = await coll.updateOne({ _id: 1 }, { $set: { publishedAt: new Date(1000), total: 5 }, $unset: { pending: '', missing: '' } });
    expect({ matched: again.matchedCount, modified: again.modifiedCount }).toEqual({ matched: 1, modified: 0 });
    expect((await coll.findOne({ _id: 1 }, { promoteValues: false }))!.total).toBeInstanceOf(Long);
    // A field both set and unset is refused, as MongoDB does; the document is unchanged.
    await expect(coll.updateOne({ _id: 1 }, { $set: { count: 4 }, $unset: { count: '' } })).rejects.toThrow();
    expect((await coll.findOne({ _id: 1 }))!.count).toBe(3);
  });

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

describe('command counts', () => {
  it('reports each command run in serverStatus metrics.commands.<name>.total, like MongoDB', async () => {
    type Counts = Record<string, { total: unknown } | undefined>;
    const counts = async (): Promise<Counts> => ((await db.admin().serverStatus()) as { metrics: { commands: Counts } }).metrics.commands;
    const total = (c: Counts, name: string) => Number(c[name]?.total ?? 0);
    const before = await counts();
    const coll = db.collection('counted');
    await coll.insertOne({ a: 1 });
    await coll.insertOne({ a: 2 });
    await coll.findOne({ a: 1 });
    await coll.updateOne({ a: 1 }, { $set: { b: 1 } });
    const after = await counts();
    expect(total(after, 'insert') - total(before, 'insert')).toBe(2);
    expect(total(after, 'find') - total(before, 'find')).toBe(1);
    expect(total(after, 'update') - total(before, 'update')).toBe(1);
  });
});

describe('opcounters', () => {
  it('counts inserted documents, update and delete statements, finds, getMores and other commands in serverStatus().opcounters, as mongod', async () => {
    type Ops = Record<'insert' | 'query' | 'update' | 'delete' | 'getmore' | 'command', Long>;
    const ops = async (): Promise<Ops> => ((await client.db('admin').command({ serverStatus: 1 }, { promoteLongs: false })) as { opcounters: Ops }).opcounters;
    const before = await ops();
    expect(Object.keys(before)).toEqual(['insert', 'query', 'update', 'delete', 'getmore', 'command']);
    for (const v of Object.values(before)) expect(v).toBeInstanceOf(Long);
    const coll = db.collection<{ _id: number; v?: number }>('opcounted');
    await coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    // Ordered: stops at the duplicate, so two documents were attempted.
    await expect(coll.insertMany([{ _id: 4 }, { _id: 1 }, { _id: 5 }])).rejects.toThrow(/E11000/);
    expect(await coll.find({}, { batchSize: 3 }).toArray()).toHaveLength(4);
    await coll.bulkWrite([{ updateOne: { filter: { _id: 1 }, update: { $set: { v: 1 } } } }, { updateMany: { filter: {}, update: { $inc: { v: 1 } } } }]);
    await coll.deleteMany({ _id: { $gt: 3 } });
    expect(await coll.countDocuments()).toBe(3);
    const after = await ops();
    const delta = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v.toNumber() - before[k as keyof Ops].toNumber()]));
    // countDocuments (an aggregate) and this serverStatus are commands; driver heartbeats may add a hello or two.
    expect({ ...delta, command: undefined }).toEqual({ insert: 5, query: 1, update: 2, delete: 1, getmore: 1, command: undefined });
    expect(delta['command']).toBeGreaterThanOrEqual(2);
    expect(delta['command']).toBeLessThanOrEqual(4);
  });
});

describe('null equality from an index', () => {
  const scanned = async (): Promise<number> => Number(((await db.admin().serverStatus()) as { metrics: { queryExecutor: { scannedObjects: unknown } } }).metrics.queryExecutor.scannedObjects);

  it("serves the outbox relay's { publishedAt: null } sorted by _id from { publishedAt: 1, _id: 1 }, examining only the matches", async () => {
    const coll = db.collection('outbox');
    await coll.createIndex({ publishedAt: 1, _id: 1 });
    const at = new Date('2026-01-01T00:00:00Z');
    await coll.insertMany(Array.from({ length: 3000 }, (_, i) => ({ _id: `e${String(i).padStart(5, '0')}` as never, n: i, publishedAt: i % 1000 === 7 ? null : at })));
    // A record whose field is missing matches null too, as on the server.
    await coll.insertOne({ _id: 'e99999' as never, n: -1 });
    const before = await scanned();
    const rows = await coll.find({ publishedAt: null }).sort({ _id: 1 }).limit(100).toArray();
    expect(rows.map((r) => r['n'])).toEqual([7, 1007, 2007, -1]);
    expect((await scanned()) - before).toBe(4);
    const b2 = await scanned();
    expect(await coll.countDocuments({ publishedAt: { $in: [null, at] } })).toBe(3001);
    expect((await scanned()) - b2).toBe(3001);
  });

  it('indexes dotted paths through arrays the way the server does', async () => {
    // Same documents with and without the index: the index must not change any answer.
    const coll = db.collection('dotted');
    const plain = db.collection('dotted_noindex');
    await coll.createIndex({ 'items.sku': 1 });
    const docs = [
      { k: 1, items: [{ sku: 'a' }, { sku: 'b' }] },
      { k: 2, items: [{ sku: 'c' }, { other: 1 }] },
      { k: 3, items: [] },
      { k: 4 },
      { k: 5, items: [{ sku: null }] },
      { k: 6, items: [{ sku: ['b', 'd'] }] },
    ];
    await coll.insertMany(docs.map((d) => ({ ...d })));
    await plain.insertMany(docs.map((d) => ({ ...d })));
    const before = await scanned();
    expect((await coll.find({ 'items.sku': 'b' }).sort({ k: 1 }).toArray()).map((d) => d['k'])).toEqual([1, 6]);
    expect((await scanned()) - before).toBe(2);
    for (const filter of [{ 'items.sku': null }, { items: null }, { 'items.sku': { $in: [null, 'c'] } }, { 'items.sku': 'd' }]) {
      const ks = async (c: typeof coll): Promise<unknown[]> => (await c.find(filter).sort({ k: 1 }).toArray()).map((d) => d['k']);
      expect(await ks(coll)).toEqual(await ks(plain));
    }
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

  it('reads the index as the server does: descending indexes, arrays of dates, and only the documents a partial index holds', { timeout: 20_000 }, async () => {
    const ttlSrv = await startTestServer({ ttlIntervalMs: 100 });
    const c = await new MongoClient(ttlSrv.uri('ttl')).connect();
    try {
      const db = c.db('ttl');
      const old = new Date(Date.now() - 120_000);
      const recent = new Date();
      const keys = async (name: string): Promise<unknown[]> => (await db.collection(name).find({}).sort({ k: 1 }).toArray()).map((d) => d['k']);
      const settled = async (name: string, left: number): Promise<void> => {
        const deadline = Date.now() + 10_000;
        while ((await db.collection(name).countDocuments()) > left && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      };

      await db.collection('desc').createIndex({ at: -1 }, { expireAfterSeconds: 60 });
      await db.collection('desc').insertMany([
        { k: 'a-old', at: old },
        { k: 'b-new', at: recent },
        { k: 'c-null', at: null },
        { k: 'd-string', at: 'x' },
        { k: 'e-old', at: new Date(old.getTime() - 1000) },
      ]);
      // The earliest date of an array decides.
      await db.collection('arrays').createIndex({ at: 1 }, { expireAfterSeconds: 60 });
      await db.collection('arrays').insertMany([
        { k: 'a-one-old', at: [recent, old] },
        { k: 'b-all-new', at: [recent, new Date(recent.getTime() + 1000)] },
        { k: 'c-empty', at: [] },
      ]);
      // Only documents the partial index holds expire.
      await db.collection('partial').createIndex({ at: 1 }, { expireAfterSeconds: 60, partialFilterExpression: { done: true } });
      await db.collection('partial').insertMany([
        { k: 'a-done-old', at: old, done: true },
        { k: 'b-open-old', at: old, done: false },
        { k: 'c-done-new', at: recent, done: true },
      ]);
      await settled('desc', 3);
      await settled('arrays', 2);
      await settled('partial', 2);
      // One more pass changes nothing.
      await new Promise((r) => setTimeout(r, 300));
      expect(await keys('desc')).toEqual(['b-new', 'c-null', 'd-string']);
      expect(await keys('arrays')).toEqual(['b-all-new', 'c-empty']);
      expect(await keys('partial')).toEqual(['b-open-old', 'c-done-new']);
    } finally {
      await c.close();
      await ttlSrv.close();
    }
  });
});
