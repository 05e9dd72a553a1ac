// Ordered indexes through the official driver: ranges, sorts and compound prefixes served from an
// index (observable as keys/documents examined and in explain), with answers identical to a scan.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Int32, Long, MongoClient, ObjectId } from 'mongodb';
import type { Collection, CreateIndexesOptions, Db, Document } from 'mongodb';
import { removeTempDirs, startTestServer } from './helpers.ts';

let srv: Awaited<ReturnType<typeof startTestServer>>;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  srv = await startTestServer();
  client = await new MongoClient(srv.uri('plan')).connect();
  db = client.db('plan');
});

afterAll(async () => {
  await client?.close();
  await srv?.close();
  removeTempDirs();
});

interface Stats {
  stage: string;
  keys: number;
  docs: number;
  n: number;
  indexName?: string;
  direction?: string;
}

async function explainFind(coll: Collection<Row>, filter: Document, sort?: Document, limit?: number): Promise<Stats> {
  let cursor = coll.find(filter);
  if (sort) cursor = cursor.sort(sort);
  if (limit) cursor = cursor.limit(limit);
  const ex = await cursor.explain('executionStats');
  const plan = ex['queryPlanner'].winningPlan as Document;
  const ixscan = plan['stage'] === 'FETCH' ? plan['inputStage'] : plan['inputStage']?.['inputStage'];
  return {
    stage: plan['stage'] === 'SORT' ? `SORT>${plan['inputStage']['stage']}` : plan['stage'],
    keys: ex['executionStats'].totalKeysExamined,
    docs: ex['executionStats'].totalDocsExamined,
    n: ex['executionStats'].nReturned,
    indexName: ixscan?.['indexName'],
    direction: ixscan?.['direction'],
  };
}

const N = 3000;
interface Row extends Document {
  _id: number;
}
let orders: Collection<Row>;
let plain: Collection<Row>;

describe('ordered indexes', () => {
  beforeAll(async () => {
    orders = db.collection<Row>('orders');
    plain = db.collection<Row>('orders_noindex');
    await orders.createIndex({ userId: 1, _id: -1 });
    await orders.createIndex({ amount: 1 });
    await orders.createIndex({ createdAt: -1 });
    const docs = Array.from({ length: N }, (_, i) => ({
      _id: i,
      userId: `u${i % 30}`,
      amount: i % 7 === 0 ? Long.fromNumber(i * 10) : (i * 10) % 20_000,
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      ...(i % 500 === 0 ? { note: null } : {}),
    }));
    docs.push({ _id: N, userId: 'u0', amount: 'not a number' as never, createdAt: new Date(0) });
    await orders.insertMany(docs.map((d) => ({ ...d })));
    await plain.insertMany(docs.map((d) => ({ ...d })));
  });

  const same = async (filter: Document, sort?: Document, limit?: number): Promise<Document[]> => {
    const q = (c: Collection<Row>): Promise<Document[]> => {
      let cur = c.find(filter);
      if (sort) cur = cur.sort(sort);
      if (limit) cur = cur.limit(limit);
      return cur.toArray();
    };
    const [a, b] = await Promise.all([q(orders), q(plain)]);
    expect(a).toEqual(b);
    return a;
  };

  it("serves a member's newest orders from { userId: 1, _id: -1 } without sorting", async () => {
    const rows = await same({ userId: 'u7' }, { _id: -1 }, 5);
    expect(rows.map((r) => r['_id'])).toEqual([2977, 2947, 2917, 2887, 2857]);
    const s = await explainFind(orders, { userId: 'u7' }, { _id: -1 }, 5);
    expect(s).toMatchObject({ stage: 'FETCH', indexName: 'userId_1__id_-1', direction: 'forward', keys: 5, docs: 5, n: 5 });
    // The opposite order walks the same index backwards.
    expect((await same({ userId: 'u7' }, { _id: 1 }, 3)).map((r) => r['_id'])).toEqual([7, 37, 67]);
    expect(await explainFind(orders, { userId: 'u7' }, { _id: 1 }, 3)).toMatchObject({ direction: 'backward', keys: 3, docs: 3 });
  });

  it('serves a range on the second field of a compound index after an equality', async () => {
    const rows = await same({ userId: 'u3', _id: { $gte: 1000, $lt: 1100 } }, { _id: -1 });
    expect(rows.map((r) => r['_id'])).toEqual([1083, 1053, 1023]);
    expect(await explainFind(orders, { userId: 'u3', _id: { $gte: 1000, $lt: 1100 } }, { _id: -1 })).toMatchObject({ stage: 'FETCH', keys: 3, docs: 3 });
  });

  it('serves $gt/$gte/$lt/$lte ranges with exact boundaries, numbers of every type and type bracketing', async () => {
    for (const filter of [
      { amount: { $gt: 100, $lte: 200 } },
      { amount: { $gte: 100, $lt: 200 } },
      { amount: { $gte: 19_990 } },
      { amount: { $lt: 30 } },
      { amount: { $lte: Long.fromNumber(70) } },
      { amount: { $gt: 20_000 } },
    ]) {
      const count = (await same(filter, { amount: 1, _id: 1 })).length;
      expect(count).toBeGreaterThan(0);
      // Only the matching keys and documents are examined: the bounds are exact.
      expect(await explainFind(orders, filter)).toMatchObject({ indexName: 'amount_1', docs: count, keys: count, n: count });
    }
    // A string bound only matches strings: the number range of the index is not touched.
    expect((await same({ amount: { $gte: 'a' } })).map((r) => r['_id'])).toEqual([N]);
    expect((await explainFind(orders, { amount: { $gte: 'a' } })).docs).toBe(1);
    // Int64 and double keep their types through the index.
    const rs = await db.collection('orders', { promoteValues: false }).find({ amount: { $gte: 70, $lte: 70 } }).sort({ _id: 1 }).toArray();
    expect(rs.map((r) => r['amount'])).toEqual([Long.fromNumber(70), new Int32(70)]);
  });

  it('serves sorts from an index, including _id and a descending index, and stops at the limit', async () => {
    const newest = await same({}, { createdAt: -1 }, 3);
    expect(newest.map((r) => r['_id'])).toEqual([2999, 2998, 2997]);
    expect(await explainFind(orders, {}, { createdAt: -1 }, 3)).toMatchObject({ stage: 'FETCH', indexName: 'createdAt_-1', direction: 'forward', docs: 3 });
    expect(await explainFind(orders, {}, { createdAt: 1 }, 3)).toMatchObject({ direction: 'backward', docs: 3 });
    expect((await same({}, { _id: -1 }, 2)).map((r) => r['_id'])).toEqual([N, N - 1]);
    expect(await explainFind(orders, {}, { _id: -1 }, 2)).toMatchObject({ indexName: '_id_', docs: 2 });
    expect(await explainFind(orders, { _id: { $gt: 2990 } })).toMatchObject({ indexName: '_id_', docs: 10 });
    const dates = await same({ createdAt: { $gte: new Date(Date.UTC(2026, 0, 1, 1)), $lt: new Date(Date.UTC(2026, 0, 1, 2)) } }, { createdAt: 1 });
    expect(dates.map((d) => d['_id'])).toEqual(Array.from({ length: 60 }, (_, i) => 60 + i));
  });

  it('explains a collection scan and an in-memory sort, and keeps answers exact with skip', async () => {
    expect(await explainFind(orders, { note: { $exists: true } })).toMatchObject({ stage: 'COLLSCAN', docs: N + 1, n: 6 });
    expect((await explainFind(orders, { userId: 'u1' }, { amount: 1 })).stage).toBe('SORT>FETCH');
    const page = await orders.find({ userId: 'u2' }).sort({ _id: -1 }).skip(10).limit(5).toArray();
    expect(page.map((d) => d['_id'])).toEqual([2672, 2642, 2612, 2582, 2552]);
    expect(await orders.countDocuments({ amount: { $gt: 19_000 } })).toBe(await plain.countDocuments({ amount: { $gt: 19_000 } }));
  });

  it('sees a consistent snapshot when documents move in the index during a transaction', async () => {
    const session = client.startSession();
    try {
      session.startTransaction();
      const before = await orders.find({ userId: 'u5' }, { session }).sort({ _id: -1 }).limit(3).toArray();
      // Moved out of u5 by someone else after the snapshot: the transaction still sees it there.
      await orders.updateOne({ _id: 2975 }, { $set: { userId: 'moved' } });
      await orders.insertOne({ _id: 5000, userId: 'u5', amount: 1, createdAt: new Date() });
      const again = await orders.find({ userId: 'u5' }, { session }).sort({ _id: -1 }).limit(3).toArray();
      expect(again).toEqual(before);
      await orders.updateOne({ _id: 2945 }, { $set: { userId: 'u6' } }, { session });
      const own = await orders.find({ userId: 'u5' }, { session }).sort({ _id: -1 }).limit(3).toArray();
      expect(own.map((d) => d['_id'])).toEqual([2975, 2915, 2885]);
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
    expect((await orders.find({ userId: 'u5' }).sort({ _id: -1 }).limit(2).toArray()).map((d) => d['_id'])).toEqual([5000, 2945]);
    await orders.deleteOne({ _id: 5000 });
    await orders.updateOne({ _id: 2975 }, { $set: { userId: 'u5' } });
  });

  it('uses ObjectId order for _id ranges', async () => {
    const c = db.collection('oids');
    const ids = Array.from({ length: 50 }, (_, i) => new ObjectId(`${(0x60000000 + i).toString(16)}0000000000000000`));
    await c.insertMany(ids.map((_id, i) => ({ _id, i })));
    const rows = await c.find({ _id: { $gt: ids[40] } }).sort({ _id: -1 }).toArray();
    expect(rows.map((r) => r['i'])).toEqual([49, 48, 47, 46, 45, 44, 43, 42, 41]);
  });
});

/**
 * A collection with the given indexes and an unindexed copy of the same documents; `same(filter)`
 * answers from the indexed one after checking that a scan of the copy answers the same.
 */
async function withUnindexedCopy(name: string, indexes: Array<[Document, CreateIndexesOptions?]>, docs: Document[]) {
  const indexed = db.collection<Row>(name);
  const copy = db.collection<Row>(`${name}_noindex`);
  for (const [key, options] of indexes) await indexed.createIndex(key, options);
  await indexed.insertMany(docs.map((d) => ({ ...d })) as Row[]);
  await copy.insertMany(docs.map((d) => ({ ...d })) as Row[]);
  const same = async (filter: Document): Promise<Document[]> => {
    const [a, b] = await Promise.all([indexed.find(filter).sort({ _id: 1 }).toArray(), copy.find(filter).sort({ _id: 1 }).toArray()]);
    expect(a).toEqual(b);
    return a;
  };
  return { indexed, same };
}

describe('partial indexes', () => {
  let keyed: Collection<Row>;
  let both: (filter: Document) => Promise<Document[]>;
  beforeAll(async () => {
    // One member with 3,000 orders, one in ten placed under a key; every fifth a run of an auto order.
    const docs = Array.from({ length: 3000 }, (_, i) => ({
      _id: i,
      userId: 'u0',
      amount: i,
      ...(i % 10 === 0 ? { request: { key: `k${i}`, hash: 'h' } } : {}),
      ...(i % 5 === 0 ? { autoOrderId: Math.floor(i / 50), run: (i / 5) % 10 } : {}),
      ...(i % 2 === 0 ? { state: 'paid' } : {}),
    }));
    ({ indexed: keyed, same: both } = await withUnindexedCopy(
      'keyed',
      [
        [{ userId: 1, _id: -1 }],
        [{ userId: 1, 'request.key': 1 }, { unique: true, partialFilterExpression: { 'request.key': { $type: 'string' } } }],
        [{ autoOrderId: 1, run: 1 }, { unique: true, partialFilterExpression: { autoOrderId: { $type: 'number' } } }],
        [{ amount: 1 }, { partialFilterExpression: { amount: { $gt: 100 }, state: { $exists: true } } }],
      ],
      docs,
    ));
  });

  it('serves an equality the partial filter expression admits from the partial index (as MongoDB does): one key, one document', async () => {
    expect(await both({ userId: 'u0', 'request.key': 'k120' })).toHaveLength(1);
    expect(await explainFind(keyed, { userId: 'u0', 'request.key': 'k120' })).toMatchObject({ stage: 'FETCH', keys: 1, docs: 1, n: 1, indexName: 'userId_1_request.key_1' });
    expect(await explainFind(keyed, { userId: 'u0', 'request.key': 'none' })).toMatchObject({ keys: 0, docs: 0, n: 0, indexName: 'userId_1_request.key_1' });
    expect(await both({ autoOrderId: 7, run: 2 })).toHaveLength(1);
    expect(await explainFind(keyed, { autoOrderId: 7, run: 2 })).toMatchObject({ keys: 1, docs: 1, indexName: 'autoOrderId_1_run_1' });
    expect(await explainFind(keyed, { amount: { $in: [400, 402] }, state: 'paid' })).toMatchObject({ keys: 2, docs: 2, n: 2, indexName: 'amount_1' });
  });

  it('does not use it for a filter whose matches may lie outside it, and answers like a scan', async () => {
    // null also matches documents without the field, which the partial index leaves out
    expect(await both({ userId: 'u0', 'request.key': null })).toHaveLength(2700);
    expect((await explainFind(keyed, { userId: 'u0', 'request.key': null })).indexName).toBe('userId_1__id_-1');
    // one point of the $in is not a string
    expect(await both({ userId: 'u0', 'request.key': { $in: ['k10', 20] } })).toHaveLength(1);
    expect((await explainFind(keyed, { userId: 'u0', 'request.key': { $in: ['k10', 20] } })).indexName).toBe('userId_1__id_-1');
    // a range does not fix the field to points; a point below the partial bound; a field left open
    expect((await explainFind(keyed, { 'request.key': { $gt: 'k' } })).stage).toBe('COLLSCAN');
    expect(await both({ amount: 50, state: 'paid' })).toHaveLength(1);
    expect((await explainFind(keyed, { amount: 50, state: 'paid' })).stage).toBe('COLLSCAN');
    expect(await both({ amount: 400 })).toHaveLength(1);
    expect((await explainFind(keyed, { amount: 400 })).stage).toBe('COLLSCAN');
  });
});

describe('sparse indexes', () => {
  let members: Collection<Row>;
  let both: (filter: Document) => Promise<Document[]>;
  beforeAll(async () => {
    // 3,000 members, one in three with an API key, some with a login of another site, one with a null one.
    const docs = Array.from({ length: 3000 }, (_, i) => ({
      _id: i,
      ...(i % 3 === 0 ? { apiKeyHash: `h${i}` } : {}),
      ...(i % 100 === 0 ? { kakaoId: `k${i}` } : {}),
      ...(i === 7 ? { naverId: null } : {}),
    }));
    ({ indexed: members, same: both } = await withUnindexedCopy(
      'members',
      [
        [{ apiKeyHash: 1 }, { unique: true, sparse: true }],
        [{ naverId: 1, kakaoId: 1 }, { sparse: true }],
      ],
      docs,
    ));
  });

  it('serves a non-null equality on one of its fields (an API key, a login) from the index: one key, one document', async () => {
    expect(await both({ apiKeyHash: 'h300' })).toHaveLength(1);
    expect(await explainFind(members, { apiKeyHash: 'h300' })).toMatchObject({ keys: 1, docs: 1, n: 1, indexName: 'apiKeyHash_1' });
    expect(await explainFind(members, { apiKeyHash: { $in: ['h3', 'h6', 'none'] } })).toMatchObject({ keys: 2, docs: 2, n: 2 });
    expect(await both({ kakaoId: 'k200' })).toHaveLength(1);
  });

  it('does not use it where a match may miss the fields, and answers like a scan', async () => {
    expect(await both({ apiKeyHash: null })).toHaveLength(2000);
    expect((await explainFind(members, { apiKeyHash: null })).stage).toBe('COLLSCAN');
    expect(await both({ apiKeyHash: { $in: ['h3', null] } })).toHaveLength(2001);
    expect((await explainFind(members, { apiKeyHash: { $in: ['h3', null] } })).stage).toBe('COLLSCAN');
    expect(await both({ naverId: null, kakaoId: null })).toHaveLength(2970);
    expect((await explainFind(members, { naverId: null, kakaoId: null })).stage).toBe('COLLSCAN');
  });
});

describe('reads by _id among writes of the same command or transaction', () => {
  const scanned = async () => Number((await client.db('admin').command({ serverStatus: 1 })).metrics.queryExecutor.scannedObjects);

  it('a bulk of N guarded updates by _id examines N documents, not 1 + 2 + … + N', async () => {
    const c = db.collection<{ _id: number; payment: string; kept?: number[] }>('bulk_by_id');
    await c.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: i, payment: 'awaiting' })));
    const before = await scanned();
    const result = await c.bulkWrite(
      Array.from({ length: 40 }, (_, i) => ({ updateOne: { filter: { _id: i, payment: 'awaiting' }, update: { $set: { payment: 'paid' }, $push: { kept: i } } } })),
      { ordered: false },
    );
    expect(await scanned()).toBe(before + 40); // 820 before
    expect(result.modifiedCount).toBe(40);
    // a second pass finds every guard beaten
    expect((await c.bulkWrite([0, 1].map((i) => ({ updateOne: { filter: { _id: i, payment: 'awaiting' }, update: { $set: { payment: 'x' } } } })))).matchedCount).toBe(0);
  });

  it('a transaction reads its own writes and its snapshot by _id', async () => {
    const c = db.collection<Row>('txn_by_id');
    await c.insertMany([{ _id: 1, v: 'a' }, { _id: 2, v: 'a' }]);
    const session = client.startSession();
    try {
      session.startTransaction();
      expect(await c.findOne({ _id: 2 }, { session })).toEqual({ _id: 2, v: 'a' }); // the snapshot starts
      await c.updateOne({ _id: 1 }, { $set: { v: 'mine' } }, { session });
      await c.insertOne({ _id: 3, v: 'new' }, { session });
      await c.updateOne({ _id: 2 }, { $set: { v: 'theirs' } }); // committed by someone else meanwhile
      expect(await c.find({ _id: { $in: [1, 2, 3] } }, { session }).sort({ _id: 1 }).toArray()).toEqual([
        { _id: 1, v: 'mine' },
        { _id: 2, v: 'a' },
        { _id: 3, v: 'new' },
      ]);
      expect(await c.findOne({ _id: 3, v: 'new' }, { session })).toEqual({ _id: 3, v: 'new' });
      expect(await c.findOne({ _id: 1, v: 'a' }, { session })).toBeNull();
      await session.abortTransaction();
    } finally {
      await session.endSession();
    }
  });
});
