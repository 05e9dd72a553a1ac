// Aggregation keeps the server's number types: int32, int64 (Long) and double (Double) through
// stages and accumulators, with the server's widening; what cannot be done exactly is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Double, Int32, Long, MongoClient } from 'mongodb';
import type { Collection, Db, Document } from 'mongodb';
import { removeTempDirs, startTestServer } from './helpers.ts';

let srv: Awaited<ReturnType<typeof startTestServer>>;
let client: MongoClient;
let db: Db;
let raw: Db;

beforeAll(async () => {
  srv = await startTestServer();
  client = await new MongoClient(srv.uri('agg')).connect();
  db = client.db('agg');
  // promoteValues: false shows the BSON type of every number the server sent.
  raw = client.db('agg', { promoteValues: false });
});

afterAll(async () => {
  await client.close();
  await srv.close();
  removeTempDirs();
});

function agg(coll: Collection, pipeline: Document[]): Promise<Document[]> {
  return raw.collection(coll.collectionName).aggregate(pipeline).toArray();
}

describe('aggregation number types', () => {
  it("matches the manual's $avg example, averages as doubles", async () => {
    // https://www.mongodb.com/docs/manual/reference/operator/aggregation/avg/ (the $group example)
    const sales = db.collection('sales');
    await sales.insertMany([
      { _id: 1 as never, item: 'abc', price: 10, quantity: 2 },
      { _id: 2 as never, item: 'jkl', price: 20, quantity: 1 },
      { _id: 3 as never, item: 'xyz', price: 5, quantity: 10 },
      { _id: 4 as never, item: 'xyz', price: 5, quantity: 20 },
      { _id: 5 as never, item: 'abc', price: 10, quantity: 10 },
    ]);
    const out = await agg(sales, [
      { $group: { _id: '$item', avgAmount: { $avg: { $multiply: ['$price', '$quantity'] } }, avgQuantity: { $avg: '$quantity' } } },
      { $sort: { _id: 1 } },
    ]);
    // The manual's answer: xyz 75 / 15, jkl 20 / 1, abc 60 / 6, all doubles though integral.
    expect(out).toEqual([
      { _id: 'abc', avgAmount: new Double(60), avgQuantity: new Double(6) },
      { _id: 'jkl', avgAmount: new Double(20), avgQuantity: new Double(1) },
      { _id: 'xyz', avgAmount: new Double(75), avgQuantity: new Double(15) },
    ]);
    const [divided] = await agg(sales, [{ $match: { _id: 3 } }, { $project: { _id: 0, half: { $divide: ['$quantity', 10] }, n: { $multiply: ['$price', 2] } } }]);
    expect(divided).toEqual({ half: new Double(1), n: new Int32(10) });
  });

  it('$sum keeps int64, widens int32 overflow to int64 and int64 overflow to double', async () => {
    const c = db.collection('sums');
    await c.insertMany([
      { g: 'long', v: Long.fromNumber(1) },
      { g: 'long', v: Long.fromNumber(2) },
      { g: 'int', v: new Int32(2147483647) },
      { g: 'int', v: new Int32(1) },
      { g: 'over', v: Long.MAX_VALUE },
      { g: 'over', v: Long.fromNumber(1) },
      { g: 'mixed', v: new Int32(1) },
      { g: 'mixed', v: new Double(2) },
      { g: 'mixed', v: 'not a number' },
      { g: 'halves', v: 0.5 },
      { g: 'halves', v: 0.5 },
    ]);
    const out = await agg(c, [{ $group: { _id: '$g', s: { $sum: '$v' }, n: { $sum: 1 }, first: { $first: '$v' }, max: { $max: '$v' } } }, { $sort: { _id: 1 } }]);
    const by = Object.fromEntries(out.map((d) => [d['_id'], d]));
    expect(by['long']).toMatchObject({ s: Long.fromNumber(3), n: new Int32(2), first: Long.fromNumber(1), max: Long.fromNumber(2) });
    expect(by['int']).toMatchObject({ s: Long.fromNumber(2147483648), first: new Int32(2147483647) });
    expect(by['over']!['s']).toEqual(new Double(9223372036854775808));
    expect(by['mixed']).toMatchObject({ s: new Double(3), max: 'not a number' });
    expect(by['halves']!['s']).toEqual(new Double(1));
    const [count] = await agg(c, [{ $count: 'n' }]);
    expect(count).toEqual({ n: new Int32(11) });
  });

  it('keeps types through $project, $addFields, $unwind, $facet and $lookup', async () => {
    const acc = db.collection('accounts');
    const rates = db.collection('rates');
    await rates.insertOne({ _id: 'krw' as never, rate: new Double(1), big: Long.fromNumber(5) });
    await acc.insertOne({ _id: 'a' as never, cur: 'krw', bal: Long.fromNumber(100), fee: new Double(3), list: [Long.fromNumber(7), new Double(8)] });
    const [noId] = await agg(acc, [{ $project: { _id: 0 } }]);
    expect(noId).toEqual({ cur: 'krw', bal: Long.fromNumber(100), fee: new Double(3), list: [Long.fromNumber(7), new Double(8)] });
    const [p] = await agg(acc, [{ $project: { bal: 1, fee: 1, next: { $add: ['$bal', 1] }, dbl: { $add: ['$fee', 1] } } }]);
    expect(p).toEqual({ _id: 'a', bal: Long.fromNumber(100), fee: new Double(3), next: Long.fromNumber(101), dbl: new Double(4) });
    const [a] = await agg(acc, [{ $addFields: { total: { $sum: '$list' }, top: { $max: '$list' }, n: { $size: '$list' }, s: { $concat: ['$cur', '!'] } } }]);
    expect(a).toMatchObject({ total: new Double(15), top: new Double(8), n: new Int32(2), s: 'krw!' });
    const [conv] = await agg(acc, [{ $project: { _id: 0, d: { $toDouble: '1' }, l: { $toLong: '$fee' }, day: { $dateToString: { format: '%Y', date: new Date(0) } } } }]);
    expect(conv).toEqual({ d: new Double(1), l: Long.fromNumber(3), day: '1970' });
    await expect(acc.aggregate([{ $project: { r: { $round: ['$fee', 0] } } }]).toArray()).rejects.toMatchObject({ code: 115, message: expect.stringContaining('$round') });
    const un = await agg(acc, [{ $unwind: { path: '$list', includeArrayIndex: 'i' } }, { $project: { _id: 0, list: 1, i: 1 } }]);
    expect(un).toEqual([
      { list: Long.fromNumber(7), i: Long.fromNumber(0) },
      { list: new Double(8), i: Long.fromNumber(1) },
    ]);
    const [f] = await agg(acc, [{ $facet: { s: [{ $group: { _id: null, s: { $sum: '$bal' } } }] } }]);
    expect(f).toEqual({ s: [{ _id: null, s: Long.fromNumber(100) }] });
    const [l] = await agg(acc, [{ $lookup: { from: 'rates', localField: 'cur', foreignField: '_id', as: 'r' } }, { $project: { _id: 0, r: 1 } }]);
    expect(l).toEqual({ r: [{ _id: 'krw', rate: new Double(1), big: Long.fromNumber(5) }] });
  });

  it('refuses what it cannot do exactly, naming it', async () => {
    const c = db.collection('refused');
    await c.insertMany([
      { year: 1850, v: Long.fromNumber(1) },
      { year: 1860, v: new Int32(2) },
    ]);
    await expect(
      c.aggregate([{ $setWindowFields: { sortBy: { year: 1 }, output: { s: { $sum: '$v', window: { documents: ['unbounded', 'current'] } } } } }]).toArray(),
    ).rejects.toMatchObject({ code: 115, message: expect.stringContaining('$setWindowFields') });
    // $bucketAuto runs on plain numbers: over an int64 field it cannot say what type its sums have.
    await expect(c.aggregate([{ $bucketAuto: { groupBy: '$year', buckets: 2, output: { s: { $sum: '$v' } } } }]).toArray()).rejects.toMatchObject({
      code: 115,
      message: expect.stringContaining('int64 or double'),
    });
    // $bucket is exact: typed sums, empty buckets left out, as the manual says.
    const buckets = await agg(c, [{ $bucket: { groupBy: '$year', boundaries: [1800, 1840, 1855, 1870], output: { s: { $sum: '$v' } } } }]);
    expect(buckets).toEqual([
      { _id: new Int32(1840), s: Long.fromNumber(1) },
      { _id: new Int32(1855), s: new Int32(2) },
    ]);
    await expect(c.aggregate([{ $bucketAuto: { groupBy: '$year', buckets: 2, output: { a: { $avg: '$year' } } } }]).toArray()).rejects.toMatchObject({
      code: 115,
      message: expect.stringContaining('$avg'),
    });
    await expect(c.aggregate([{ $group: { _id: null, s: { $stdDevPop: '$year' } } }]).toArray()).rejects.toMatchObject({
      code: 115,
      message: expect.stringContaining('$stdDevPop'),
    });
    // A dotted $unwind runs in mingo: fine over int32 values, refused over int64 ones.
    const nested = db.collection('nested');
    await nested.insertOne({ a: { b: [1, 2] } });
    expect(await nested.aggregate([{ $unwind: '$a.b' }, { $project: { _id: 0 } }]).toArray()).toEqual([{ a: { b: 1 } }, { a: { b: 2 } }]);
    await nested.insertOne({ a: { b: [Long.fromNumber(3)] } });
    await expect(nested.aggregate([{ $unwind: '$a.b' }]).toArray()).rejects.toMatchObject({ code: 115, message: expect.stringContaining('$unwind') });
    // A mistake in a stage is the client's: a parse error, not a server fault.
    await expect(c.aggregate([{ $project: { x: 1 } }, { $match: { year: { $bogus: 1 } } }]).toArray()).rejects.toMatchObject({ code: 9 });
    await expect(c.aggregate([{ $project: { x: 1 } }, { $nope: {} }]).toArray()).rejects.toMatchObject({ code: 9 });
    // Over int32 values only, $bucketAuto is exact and runs.
    await c.deleteMany({ v: Long.fromNumber(1) });
    const ok = await c.aggregate([{ $project: { year: 1 } }, { $bucketAuto: { groupBy: '$year', buckets: 1 } }]).toArray();
    expect(ok).toEqual([{ _id: { min: 1860, max: 1860 }, count: 1 }]);
  });
});
