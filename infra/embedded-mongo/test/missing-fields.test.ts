// `{field: {$exists: false}}` and `{field: {$ne: null}}` on an indexed field are answered from the
// index, as MongoDB does (bounds [null, null] and everything after null), with answers identical
// to a scan of an unindexed copy — including arrays, nested paths and sparse indexes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import type { Collection, Db, Document } from 'mongodb';
import { removeTempDirs, startTestServer } from './helpers.ts';

let srv: Awaited<ReturnType<typeof startTestServer>>;
let client: MongoClient;
let db: Db;
let indexed: Collection;
let copy: Collection;
const N = 2000;
let docs: Document[];
/** How many documents a JS predicate over the seeded documents accepts. */
const count = (f: (d: Document) => boolean): number => docs.filter(f).length;

beforeAll(async () => {
  srv = await startTestServer();
  client = await new MongoClient(srv.uri('nulls')).connect();
  db = client.db('nulls');
  // paidAt: on almost every order, null or missing on a few. refundedAt: on one order in 200.
  // tags: an array (multikey index). coupon (sparse index): one order in 125.
  docs = Array.from({ length: N }, (_, i) => ({
    _id: i,
    ...(i % 700 === 3 ? { paidAt: null } : i % 160 === 1 ? {} : { paidAt: new Date(Date.UTC(2026, 0, 1) + i * 1000) }),
    ...(i % 200 === 5 ? { refundedAt: new Date(Date.UTC(2026, 1, 1) + i) } : {}),
    ...(i % 250 === 7 ? { tags: i % 500 === 7 ? ['a', null] : [] } : i % 10 === 0 ? { tags: ['x', 'y'] } : {}),
    ...(i % 125 === 9 ? { coupon: `c${i}` } : {}),
    note: { by: i % 400 === 0 ? null : 'staff' },
  }));
  indexed = db.collection('orders');
  copy = db.collection('orders_copy');
  await indexed.createIndex({ paidAt: 1 });
  await indexed.createIndex({ refundedAt: 1 });
  await indexed.createIndex({ tags: 1 });
  await indexed.createIndex({ coupon: 1 }, { sparse: true });
  await indexed.createIndex({ 'note.by': 1, _id: 1 });
  await indexed.insertMany(docs.map((d) => ({ ...d })));
  await copy.insertMany(docs.map((d) => ({ ...d })));
});

afterAll(async () => {
  await client?.close();
  await srv?.close();
  removeTempDirs();
});

async function explain(filter: Document): Promise<{ stage: string; indexName?: string; keys: number; docs: number; n: number }> {
  const ex = await indexed.find(filter).explain('executionStats');
  const plan = ex['queryPlanner'].winningPlan as Document;
  return { stage: plan['inputStage']?.['stage'] ?? plan['stage'], indexName: plan['inputStage']?.['indexName'], keys: ex['executionStats'].totalKeysExamined, docs: ex['executionStats'].totalDocsExamined, n: ex['executionStats'].nReturned };
}

async function same(filter: Document): Promise<number> {
  const [a, b] = await Promise.all([indexed.find(filter).sort({ _id: 1 }).toArray(), copy.find(filter).sort({ _id: 1 }).toArray()]);
  expect(a).toEqual(b);
  return a.length;
}

describe('missing and non-null fields from an index', () => {
  it('$exists: false reads the null keys: the missing and the null, not the collection', async () => {
    const missing = count((d) => !('paidAt' in d));
    const nulls = count((d) => d['paidAt'] === null);
    expect(missing).toBeGreaterThan(10);
    expect(nulls).toBeGreaterThan(1);
    expect(await same({ paidAt: { $exists: false } })).toBe(missing);
    expect(await explain({ paidAt: { $exists: false } })).toEqual({ stage: 'IXSCAN', indexName: 'paidAt_1', keys: missing + nulls, docs: missing + nulls, n: missing });
    expect(await same({ 'note.by': { $exists: false } })).toBe(0);
    expect((await explain({ 'note.by': { $exists: false } })).docs).toBe(count((d) => d['note'].by === null));
  });

  it('$ne: null reads the keys after null: only the documents holding a value', async () => {
    const refunded = count((d) => 'refundedAt' in d);
    expect(await same({ refundedAt: { $ne: null } })).toBe(refunded);
    expect(await explain({ refundedAt: { $ne: null } })).toEqual({ stage: 'IXSCAN', indexName: 'refundedAt_1', keys: refunded, docs: refunded, n: refunded });
    expect(await same({ refundedAt: { $ne: null, $lt: new Date(Date.UTC(2026, 1, 1, 0, 0, 1)) } })).toBe(5);
    expect(await same({ 'note.by': { $ne: null } })).toBe(count((d) => d['note'].by !== null));
    expect((await explain({ 'note.by': { $ne: null } })).stage).toBe('IXSCAN');
  });

  it('answers like a scan where the index cannot bound them (multikey, sparse)', async () => {
    // tags: [] and ['a', null] are arrays ([] matches $ne: null; an array holding null does not).
    expect(await same({ tags: { $ne: null } })).toBe(count((d) => Array.isArray(d['tags']) && !d['tags'].includes(null)));
    expect(await same({ tags: { $exists: false } })).toBe(count((d) => !('tags' in d)));
    expect(await same({ coupon: { $exists: false } })).toBe(count((d) => !('coupon' in d)));
    expect((await explain({ coupon: { $exists: false } })).stage).toBe('COLLSCAN');
    expect(await same({ coupon: { $ne: null } })).toBe(count((d) => 'coupon' in d));
    expect(await same({ paidAt: null })).toBe(count((d) => (d['paidAt'] ?? null) === null));
  });
});
