// The official driver: cursors (getMore, killCursors), bulk writes, aggregation, number types,
// error shapes, and connection strings with replicaSet or directConnection.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Double, Int32, Long, MongoClient, MongoServerError, ObjectId } from 'mongodb';
import type { Db } from 'mongodb';
import { removeTempDirs, startTestServer } from './helpers.ts';

let srv: Awaited<ReturnType<typeof startTestServer>>;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  srv = await startTestServer();
  client = await new MongoClient(srv.uri('drv'), { monitorCommands: true }).connect();
  db = client.db('drv');
});

afterAll(async () => {
  await client?.close();
  await srv?.close();
  removeTempDirs();
});

describe('mongodb driver', () => {
  it('pages through a cursor with getMore and kills an open one', async () => {
    const coll = db.collection('cur');
    await coll.insertMany(Array.from({ length: 250 }, (_, i) => ({ i })));
    const commands: string[] = [];
    const listener = (e: { commandName: string }): void => void commands.push(e.commandName);
    client.on('commandStarted', listener);
    const all = await coll.find({}, { batchSize: 40 }).sort({ i: 1 }).toArray();
    expect(all.map((d) => d['i'])).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(commands.filter((c) => c === 'getMore').length).toBe(6);

    commands.length = 0;
    const cursor = coll.find({}, { batchSize: 10 });
    expect((await cursor.next())?.['i']).toBe(0);
    await cursor.close();
    expect(commands).toContain('killCursors');
    client.off('commandStarted', listener);

    // A killed cursor id is gone for good.
    const first = (await db.command({ find: 'cur', batchSize: 5 })) as { cursor: { id: Long } };
    expect(first.cursor.id.isZero()).toBe(false);
    const killed = await db.command({ killCursors: 'cur', cursors: [first.cursor.id] });
    expect(killed['cursorsKilled']).toHaveLength(1);
    await expect(db.command({ getMore: first.cursor.id, collection: 'cur' })).rejects.toMatchObject({ code: 43 });
  });

  it('runs ordered and unordered bulk writes with the right counts', async () => {
    const coll = db.collection('bulk');
    await coll.createIndex({ sku: 1 }, { unique: true });
    const r = await coll.bulkWrite([
      { insertOne: { document: { sku: 'a', qty: 1 } } },
      { insertOne: { document: { sku: 'b', qty: 2 } } },
      { updateOne: { filter: { sku: 'a' }, update: { $inc: { qty: 10 } } } },
      { updateMany: { filter: { qty: { $gte: 2 } }, update: { $set: { big: true } } } },
      { replaceOne: { filter: { sku: 'b' }, replacement: { sku: 'b', qty: 20 } } },
      { updateOne: { filter: { sku: 'c' }, update: { $setOnInsert: { qty: 3 } }, upsert: true } },
      { deleteOne: { filter: { sku: 'b' } } },
    ]);
    expect(r.insertedCount).toBe(2);
    expect(r.matchedCount).toBe(4);
    expect(r.modifiedCount).toBe(4);
    expect(r.upsertedCount).toBe(1);
    expect(r.deletedCount).toBe(1);
    expect(await coll.find({}, { projection: { _id: 0 } }).sort({ sku: 1 }).toArray()).toEqual([
      { sku: 'a', qty: 11, big: true },
      { sku: 'c', qty: 3 },
    ]);

    const err = await coll
      .bulkWrite(
        [
          { insertOne: { document: { sku: 'a' } } },
          { insertOne: { document: { sku: 'd' } } },
          { insertOne: { document: { sku: 'c' } } },
        ],
        { ordered: false },
      )
      .catch((e: unknown) => e);
    expect((err as { code?: number }).code).toBe(11000);
    const bulkErr = err as { insertedCount?: number; writeErrors?: Array<{ index: number; code: number }> };
    expect(bulkErr.insertedCount ?? (err as { result?: { insertedCount: number } }).result?.insertedCount).toBe(1);
    expect(await coll.countDocuments({ sku: 'd' })).toBe(1);
  });

  it('aggregates with $match, $group, $sort, $project, $unwind, $count and $lookup', async () => {
    const orders = db.collection('orders');
    const services = db.collection('services');
    await services.insertMany([
      { _id: 'ig' as never, name: 'Instagram followers' },
      { _id: 'yt' as never, name: 'YouTube views' },
    ]);
    await orders.insertMany([
      { svc: 'ig', qty: 100, tags: ['a', 'b'] },
      { svc: 'ig', qty: 50, tags: ['b'] },
      { svc: 'yt', qty: 1000, tags: [] },
      { svc: 'yt', qty: 10, tags: ['a'] },
    ]);
    const grouped = await orders
      .aggregate([{ $match: { qty: { $gte: 20 } } }, { $group: { _id: '$svc', total: { $sum: '$qty' }, n: { $sum: 1 } } }, { $sort: { total: -1 } }])
      .toArray();
    expect(grouped).toEqual([
      { _id: 'yt', total: 1000, n: 1 },
      { _id: 'ig', total: 150, n: 2 },
    ]);
    const tags = await orders.aggregate([{ $unwind: '$tags' }, { $group: { _id: '$tags', c: { $sum: 1 } } }, { $sort: { _id: 1 } }]).toArray();
    expect(tags).toEqual([
      { _id: 'a', c: 2 },
      { _id: 'b', c: 2 },
    ]);
    const joined = await orders
      .aggregate([
        { $match: { qty: 100 } },
        { $lookup: { from: 'services', localField: 'svc', foreignField: '_id', as: 'service' } },
        { $project: { _id: 0, qty: 1, name: { $first: '$service.name' } } },
      ])
      .toArray();
    expect(joined).toEqual([{ qty: 100, name: 'Instagram followers' }]);
    expect(await orders.aggregate([{ $match: { svc: 'ig' } }, { $count: 'n' }]).toArray()).toEqual([{ n: 2 }]);
    expect(await orders.countDocuments({ svc: 'yt' })).toBe(2);
    expect(await orders.estimatedDocumentCount()).toBe(4);
    expect((await orders.distinct('svc')).sort()).toEqual(['ig', 'yt']);
  });

  it('round-trips int32, int64 and double with their types, including through $inc', async () => {
    const coll = db.collection('nums');
    const raw = client.db('drv').collection('nums', { promoteValues: false });
    await coll.insertOne({ _id: 'n' as never, i: new Int32(5), l: Long.fromNumber(5), d: new Double(5), f: 2.5, big: Long.fromString('9007199254740993') });
    const back = await raw.findOne({ _id: 'n' as never });
    expect(back?.['i']).toBeInstanceOf(Int32);
    expect(back?.['l']).toBeInstanceOf(Long);
    expect(back?.['d']).toBeInstanceOf(Double);
    expect(back?.['f']).toBeInstanceOf(Double);
    expect((back?.['big'] as Long).toString()).toBe('9007199254740993');
    await coll.updateOne({ _id: 'n' as never }, { $inc: { i: 1, l: 1, d: 1 }, $set: { s: Long.fromNumber(7) } });
    const after = await raw.findOne({ _id: 'n' as never });
    expect(after?.['i']).toEqual(new Int32(6));
    expect(after?.['l']).toEqual(Long.fromNumber(6));
    expect(after?.['d']).toEqual(new Double(6));
    expect(after?.['s']).toEqual(Long.fromNumber(7));
    await coll.updateOne({ _id: 'n' as never }, { $set: { nested: { l: Long.fromNumber(8), d: new Double(1), arr: [new Double(2), 3] } } });
    const nested = (await raw.findOne({ _id: 'n' as never }))?.['nested'] as Record<string, unknown>;
    expect(nested).toEqual({ l: Long.fromNumber(8), d: new Double(1), arr: [new Double(2), new Int32(3)] });
    // int32 overflow widens to int64 like the server does.
    await coll.updateOne({ _id: 'n' as never }, { $set: { o: new Int32(2147483647) } });
    await coll.updateOne({ _id: 'n' as never }, { $inc: { o: 1 } });
    expect((await raw.findOne({ _id: 'n' as never }))?.['o']).toEqual(Long.fromString('2147483648'));
    // Aggregated integers past int32 come back as int64, like the server's $sum.
    await coll.insertOne({ _id: 'm' as never, big: 2_000_000_000 });
    const [sum] = await raw.aggregate([{ $match: { _id: { $in: ['m', 'm2'] } } }, { $group: { _id: null, s: { $sum: { $add: ['$big', '$big'] } } } }]).toArray();
    expect(sum?.['s']).toEqual(Long.fromNumber(4_000_000_000));
    await coll.deleteOne({ _id: 'm' as never });
    // Numbers compare across types in queries.
    expect(await coll.countDocuments({ l: 6 })).toBe(1);
    expect(await coll.countDocuments({ d: { $gt: new Int32(5) } })).toBe(1);
  });

  it('answers unknown commands and bad input with MongoDB-shaped errors', async () => {
    const unknown = await db.command({ frobnicate: 1 }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(MongoServerError);
    expect((unknown as MongoServerError).code).toBe(59);
    expect((unknown as MongoServerError).codeName).toBe('CommandNotFound');
    await expect(db.command({ find: 'x', filter: { a: { $bogus: 1 } } })).rejects.toMatchObject({ code: 2 });
    await expect(db.createCollection('dup')).resolves.toBeDefined();
    await expect(db.command({ create: 'dup' })).rejects.toMatchObject({ code: 48, codeName: 'NamespaceExists' });
    await expect(db.collection('x').updateOne({}, { $set: { _id: new ObjectId() } }, { upsert: true })).resolves.toBeDefined();
    const id = (await db.collection('x').findOne({}))?._id;
    await expect(db.collection('x').updateOne({ _id: id }, { $set: { _id: new ObjectId() } })).rejects.toMatchObject({ code: 66 });
  });

  it('closes only the connection that sent a malformed message', async () => {
    const bad = net.connect(srv.port, '127.0.0.1');
    await new Promise((r) => bad.once('connect', r));
    const closed = new Promise((r) => bad.once('close', r));
    const junk = Buffer.alloc(40);
    junk.writeInt32LE(40, 0);
    junk.writeInt32LE(2013, 12);
    junk.writeUInt8(7, 20); // unknown section kind
    bad.write(junk);
    await closed;
    const huge = net.connect(srv.port, '127.0.0.1');
    await new Promise((r) => huge.once('connect', r));
    const closed2 = new Promise((r) => huge.once('close', r));
    const h = Buffer.alloc(16);
    h.writeInt32LE(0x7fffffff, 0);
    huge.write(h);
    await closed2;
    expect(await db.command({ ping: 1 })).toMatchObject({ ok: 1 });
  });

  it('works with directConnection=true, multiple databases and dropDatabase', async () => {
    const direct = await new MongoClient(`mongodb://127.0.0.1:${srv.port}/other?directConnection=true`).connect();
    try {
      await direct.db('other').collection('c').insertOne({ a: 1 });
      const s = direct.startSession();
      await s.withTransaction(async () => {
        await direct.db('other').collection('c').insertOne({ a: 2 }, { session: s });
      });
      await s.endSession();
      expect(await direct.db('other').collection('c').countDocuments()).toBe(2);
      const names = (await direct.db('admin').admin().listDatabases()).databases.map((d) => d.name);
      expect(names).toEqual(expect.arrayContaining(['drv', 'other']));
      await direct.db('other').dropDatabase();
      expect(await direct.db('other').collection('c').countDocuments()).toBe(0);
      expect(await db.collection('nums').countDocuments()).toBe(1);
    } finally {
      await direct.close();
    }
  });

  it('applies a retried write once (same txnNumber)', async () => {
    // Own client: the txnNumbers sent by hand below must not collide with the driver's counter
    // on pooled server sessions used by other tests.
    const own = await new MongoClient(srv.uri('drv')).connect();
    try {
      const odb = own.db('drv');
      const coll = odb.collection('retry');
      await coll.insertOne({ _id: 'r' as never, n: 0 });
      const session = own.startSession();
      const cmd = { update: 'retry', updates: [{ q: { _id: 'r' }, u: { $inc: { n: 1 } } }], txnNumber: Long.fromNumber(1000) };
      const r1 = await odb.command(cmd, { session });
      const r2 = await odb.command(cmd, { session });
      expect(r1).toMatchObject({ n: 1, nModified: 1 });
      expect(r2).toMatchObject({ n: 1, nModified: 1 });
      expect((await coll.findOne({ _id: 'r' as never }))?.['n']).toBe(1);
      await odb.command({ ...cmd, txnNumber: Long.fromNumber(1001) }, { session });
      expect((await coll.findOne({ _id: 'r' as never }))?.['n']).toBe(2);
      // An older txnNumber on the same session is refused rather than applied.
      await expect(odb.command({ ...cmd, txnNumber: Long.fromNumber(1000) }, { session })).rejects.toMatchObject({ code: 225 });
    } finally {
      await own.close();
    }
  });
});

describe('aggregation against the manual', () => {
  it('$bucket (the manual artists example): counts per boundary, default bucket, _id first', async () => {
    const c = await new MongoClient(srv.uri('aggman')).connect();
    try {
      const artists = c.db('aggman').collection<{ _id: number; year_born: number }>('artists');
      await artists.insertMany([
        { _id: 1, year_born: 1845 },
        { _id: 2, year_born: 1861 },
        { _id: 3, year_born: 1871 },
        { _id: 4, year_born: 1853 },
        { _id: 5, year_born: 1868 },
        { _id: 6, year_born: 1863 },
        { _id: 7, year_born: 1840 },
        { _id: 8, year_born: 1855 },
        { _id: 9, year_born: 1880 },
      ]);
      const out = await artists
        .aggregate([{ $bucket: { groupBy: '$year_born', boundaries: [1840, 1850, 1860, 1870, 1880], default: 'Other', output: { count: { $sum: 1 } } } }])
        .toArray();
      // Lower bound inclusive, upper exclusive: 1840 is in the first bucket, 1880 falls to default.
      expect(out).toEqual([
        { _id: 1840, count: 2 },
        { _id: 1850, count: 2 },
        { _id: 1860, count: 3 },
        { _id: 1870, count: 1 },
        { _id: 'Other', count: 1 },
      ]);
      expect(out.map((d) => Object.keys(d)[0])).toEqual(['_id', '_id', '_id', '_id', '_id']);
      const auto = await artists.aggregate([{ $match: { _id: { $lte: 8 } } }, { $bucketAuto: { groupBy: '$year_born', buckets: 3 } }]).toArray();
      expect(auto).toEqual([
        { _id: { min: 1840, max: 1855 }, count: 3 },
        { _id: { min: 1855, max: 1868 }, count: 3 },
        { _id: { min: 1868, max: 1871 }, count: 2 },
      ]);
    } finally {
      await c.close();
    }
  });
});
