// Restart from a snapshot: documents are loaded in bulk and indexes built in one pass, so the
// loaded state must answer exactly as the state that was written (types, index order, unique keys).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as BSON from 'bson';
import { afterAll, describe, expect, it } from 'vitest';
import { BSONRegExp, Double, Int32, Long, MongoClient, ObjectId } from 'mongodb';
import type { Db, Document } from 'mongodb';
import { removeTempDirs, startTestServer, tempDir } from './helpers.ts';

afterAll(() => removeTempDirs());

const N = 3000;

async function seed(db: Db): Promise<void> {
  const c = db.collection('people');
  await c.createIndex({ email: 1 }, { unique: true });
  await c.createIndex({ group: 1, score: -1 });
  await c.createIndex({ group: 1, _id: -1 });
  await c.createIndex({ tags: 1 });
  await c.createIndex({ nick: 1 }, { sparse: true, unique: true });
  await c.createIndex({ 'addr.city': 1 }, { partialFilterExpression: { active: true } });
  // Emails inserted out of order, groups and scores mixed, some documents typed, some multikey.
  const docs: Document[] = [];
  for (let i = 0; i < N; i++) {
    const j = (i * 7919) % N;
    const d: Document = { email: `p${j}@example.kr`, group: j % 17, score: (j * 31) % 101, addr: { city: `c${j % 5}` }, active: j % 2 === 0 };
    if (j % 3 === 0) d['tags'] = [`t${j % 4}`, `t${(j + 1) % 4}`];
    if (j % 10 === 0) d['nick'] = `n${j}`;
    if (j % 50 === 0) Object.assign(d, { l: Long.fromNumber(j * 1_000_000_000), dbl: new Double(j), i32: new Int32(j), re: new BSONRegExp('^a', 'i'), nested: { a: [new Double(1), 2] } });
    docs.push(d);
  }
  await c.insertMany(docs);
  await c.deleteMany({ score: 7 });
  await c.updateMany({ group: 3 }, { $inc: { score: 1000 } });
}

/** Answers that depend on index order, unique keys and number types. */
async function answers(db: Db): Promise<unknown> {
  const c = db.collection('people');
  const raw = db.collection('people', { promoteValues: false });
  return {
    count: await c.countDocuments(),
    byEmail: await c.findOne({ email: 'p150@example.kr' }, { projection: { _id: 0 } }),
    groupSorted: (await c.find({ group: 3 }).sort({ score: -1 }).limit(20).toArray()).map((d) => d['score']),
    range: (await c.find({ group: 5, score: { $gte: 40, $lt: 60 } }).toArray()).map((d) => d['email']).sort(),
    tags: await c.countDocuments({ tags: 't2' }),
    nicks: await c.countDocuments({ nick: { $exists: true } }),
    city: await c.countDocuments({ 'addr.city': 'c2', active: true }),
    newestOfGroup: (await c.find({ group: 4 }).sort({ _id: -1 }).limit(5).toArray()).map((d) => String(d['_id'])),
    idOrder: (await c.find({}, { projection: { _id: 1 } }).sort({ _id: -1 }).limit(5).toArray()).map((d) => String(d['_id'])),
    typed: await raw.findOne({ email: 'p50@example.kr' }, { projection: { _id: 0, l: 1, dbl: 1, i32: 1, re: 1, nested: 1 } }),
  };
}

describe('restart from a snapshot', () => {
  it('writes a snapshot at clean shutdown and loads it with the same answers, types and indexes', { timeout: 60_000 }, async () => {
    const dataDir = tempDir();
    let srv = await startTestServer({ dataDir });
    let client = await new MongoClient(srv.uri('app')).connect();
    await seed(client.db('app'));
    const before = await answers(client.db('app'));
    await client.close();
    await srv.close();
    // The clean shutdown left everything in the snapshot: the next start replays no journal.
    expect(fs.statSync(path.join(dataDir, 'journal.log')).size).toBe(0);
    expect(fs.statSync(path.join(dataDir, 'snapshot.bson')).size).toBeGreaterThan(0);

    srv = await startTestServer({ dataDir });
    client = await new MongoClient(srv.uri('app')).connect();
    const db = client.db('app');
    expect(await answers(db)).toEqual(before);
    expect(before).toMatchObject({ typed: { l: Long.fromNumber(50_000_000_000), dbl: new Double(50), i32: new Int32(50), nested: { a: [new Double(1), new Int32(2)] } } });
    const people = db.collection('people');
    // Index order was rebuilt, not just the documents: the sorted group query is an index scan.
    const plan = (await people.find({ group: 3 }).sort({ score: -1 }).explain('executionStats')) as Document;
    expect(JSON.stringify(plan['queryPlanner']['winningPlan'])).toContain('group_1_score_-1');
    // Unique keys survived, also the sparse one, and freed keys are free.
    await expect(people.insertOne({ email: 'p150@example.kr' })).rejects.toMatchObject({ code: 11000 });
    await expect(people.insertOne({ email: 'new@example.kr', nick: 'n20' })).rejects.toMatchObject({ code: 11000 });
    await people.insertOne({ email: 'new@example.kr' });
    const freed = await people.findOneAndDelete({ email: 'p151@example.kr' });
    expect(freed).not.toBeNull();
    await people.insertOne({ email: 'p151@example.kr', _id: new ObjectId() });
    await client.close();
    await srv.close();
  });

  it('after a crash loads the snapshot and replays only the journal written after it', { timeout: 60_000 }, async () => {
    const dataDir = tempDir();
    const srv = await startTestServer({ dataDir });
    const client = await new MongoClient(srv.uri('app')).connect();
    const db = client.db('app');
    await seed(db);
    await srv.compact();
    const c = db.collection('people');
    await c.insertOne({ email: 'tail@example.kr', group: 3, score: 5000, l: Long.fromNumber(7) });
    await c.deleteOne({ email: 'p0@example.kr' });
    await c.updateOne({ email: 'p1@example.kr' }, { $set: { email: 'moved@example.kr' } });
    const before = await answers(db);
    // A copy taken while the server runs is what a crash (SIGKILL) leaves: every acknowledged
    // commit is already fsync'd. The lock names this live process, so the copy goes without it.
    const crashed = tempDir();
    for (const f of ['snapshot.bson', 'journal.log']) fs.copyFileSync(path.join(dataDir, f), path.join(crashed, f));
    expect(fs.statSync(path.join(crashed, 'journal.log')).size).toBeGreaterThan(0);
    await client.close();
    await srv.close();

    const srv2 = await startTestServer({ dataDir: crashed });
    const client2 = await new MongoClient(srv2.uri('app')).connect();
    const db2 = client2.db('app');
    expect(await answers(db2)).toEqual(before);
    const c2 = db2.collection('people');
    expect(await c2.findOne({ email: 'tail@example.kr' }, { promoteValues: false, projection: { _id: 0, l: 1 } })).toEqual({ l: Long.fromNumber(7) });
    expect(await c2.findOne({ email: 'p0@example.kr' })).toBeNull();
    await c2.insertOne({ email: 'p1@example.kr' });
    await expect(c2.insertOne({ email: 'moved@example.kr' })).rejects.toMatchObject({ code: 11000 });
    await client2.close();
    await srv2.close();
  });

  it('keeps snapshot reads exact on loaded documents written after the restart, and compacts them again', { timeout: 60_000 }, async () => {
    const dataDir = tempDir();
    const srv = await startTestServer({ dataDir });
    const client = await new MongoClient(srv.uri('app')).connect();
    const c = client.db('app').collection('loaded');
    await c.createIndex({ k: 1 }, { unique: true });
    const ids = Array.from({ length: 50 }, () => new ObjectId());
    await c.insertMany(ids.map((_id, i) => ({ _id, k: i, v: 'old' })));
    await client.close();
    await srv.close();

    const srv2 = await startTestServer({ dataDir });
    const client2 = await new MongoClient(srv2.uri('app')).connect();
    const c2 = client2.db('app').collection('loaded');
    const s = client2.startSession();
    s.startTransaction({ readConcern: { level: 'snapshot' } });
    expect(await c2.countDocuments({}, { session: s })).toBe(50);
    await c2.updateOne({ _id: ids[3] }, { $set: { v: 'new' } });
    await c2.deleteOne({ _id: ids[4] });
    await c2.insertOne({ _id: ids[4], k: 1004, v: 'again' });
    await c2.deleteOne({ _id: ids[5] });
    await c2.insertOne({ k: 99, v: 'fresh' });
    // The transaction still sees the documents as loaded.
    expect(await c2.findOne({ _id: ids[3] }, { session: s, projection: { _id: 0 } })).toEqual({ k: 3, v: 'old' });
    expect(await c2.findOne({ _id: ids[4] }, { session: s, projection: { _id: 0 } })).toEqual({ k: 4, v: 'old' });
    expect(await c2.findOne({ k: 5 }, { session: s, projection: { _id: 0 } })).toEqual({ k: 5, v: 'old' });
    expect(await c2.findOne({ k: 99 }, { session: s })).toBeNull();
    expect(await c2.countDocuments({}, { session: s })).toBe(50);
    await s.abortTransaction();
    await s.endSession();
    const now = async (coll: typeof c2): Promise<unknown> => (await coll.find({}, { projection: { _id: 0 } }).sort({ k: 1 }).toArray());
    const expected = await now(c2);
    expect(expected).toHaveLength(50);
    expect(await c2.findOne({ _id: ids[4] }, { projection: { _id: 0 } })).toEqual({ k: 1004, v: 'again' });
    expect(await c2.findOne({ k: 5 })).toBeNull();
    await expect(c2.insertOne({ k: 3 })).rejects.toMatchObject({ code: 11000 });
    await srv2.compact();
    await client2.close();
    await srv2.close();

    const srv3 = await startTestServer({ dataDir });
    const client3 = await new MongoClient(srv3.uri('app')).connect();
    const c3 = client3.db('app').collection('loaded');
    expect(await now(c3)).toEqual(expected);
    expect(await c3.findOne({ k: 3 }, { projection: { _id: 0 } })).toEqual({ k: 3, v: 'new' });
    await client3.close();
    await srv3.close();
  });

  it('loads a snapshot written by the earlier format (one record per document)', async () => {
    const dataDir = tempDir();
    const frame = (record: Document): Buffer => {
      const body = Buffer.from(BSON.serialize(record));
      const head = Buffer.alloc(8);
      head.writeUInt32LE(body.length, 0);
      head.writeUInt32LE(zlib.crc32(body), 4);
      return Buffer.concat([head, body]);
    };
    const old = [
      { ts: 5, ops: [{ k: 'createColl', d: 'app', c: 'old', o: {} }, { k: 'createIdx', d: 'app', c: 'old', spec: { v: 2, key: { email: 1 }, name: 'email_1', unique: true } }] },
      { ts: 5, ops: [1, 2, 3].map((i) => ({ k: 'put', d: 'app', c: 'old', doc: { _id: i, email: `o${i}@example.kr`, l: Long.fromNumber(i) } })) },
    ];
    fs.writeFileSync(path.join(dataDir, 'snapshot.bson'), Buffer.concat(old.map(frame)));
    const srv = await startTestServer({ dataDir });
    const client = await new MongoClient(srv.uri('app')).connect();
    const c = client.db('app').collection('old');
    expect(await c.countDocuments()).toBe(3);
    expect(await client.db('app', { promoteValues: false }).collection('old').findOne({ email: 'o2@example.kr' })).toMatchObject({ l: Long.fromNumber(2) });
    await expect(c.insertOne({ email: 'o3@example.kr' })).rejects.toMatchObject({ code: 11000 });
    await client.close();
    await srv.close();
  });
});
