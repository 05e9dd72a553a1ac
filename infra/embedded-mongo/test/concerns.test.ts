// readConcern and writeConcern through the official driver. The server runs on an engine whose
// journal writes complete when the test says so (a disk that fsyncs on demand), which makes the
// window between a commit and its fsync observable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { MongoClient, MongoServerError } from 'mongodb';
import type { Collection } from 'mongodb';
import { Engine } from '../src/engine.ts';
import { WireServer } from '../src/server.ts';
import type { Doc } from '../src/values.ts';
import { removeTempDirs, startTestServer } from './helpers.ts';

const held: Array<() => void> = [];
let holding = false;
const engine = new Engine();
engine.journal = {
  append: (_record: Doc) => (holding ? new Promise<void>((resolve) => held.push(resolve)) : Promise.resolve()),
};
const server = new WireServer(engine, { host: '127.0.0.1', port: 0, setName: 'rs0', logger: pino({ level: 'silent' }), ttlIntervalMs: 60_000 });
let client: MongoClient;
let coll: Collection<{ _id: number; v: number }>;

beforeAll(async () => {
  const port = await server.listen();
  client = await new MongoClient(`mongodb://127.0.0.1:${port}/c?replicaSet=rs0`).connect();
  coll = client.db('c').collection('acct');
  await coll.insertOne({ _id: 1, v: 1 });
});

afterAll(async () => {
  holding = false;
  for (const r of held.splice(0)) r();
  await client?.close();
  await server.close();
  removeTempDirs();
});

const until = async (cond: () => boolean): Promise<void> => {
  const deadline = Date.now() + 5000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 2));
  }
};

describe('readConcern majority', () => {
  it('sees a commit only once it is fsynced; local sees it at once', async () => {
    holding = true;
    const write = coll.updateOne({ _id: 1 }, { $set: { v: 2 } });
    const insert = coll.insertOne({ _id: 2, v: 20 });
    await until(() => held.length === 2);
    const majority = client.db('c').collection<{ _id: number; v: number }>('acct', { readConcern: { level: 'majority' } });
    expect(await majority.find({}).sort({ _id: 1 }).toArray()).toEqual([{ _id: 1, v: 1 }]);
    expect(await majority.countDocuments({})).toBe(1);
    expect(await majority.findOne({ v: { $gte: 2 } })).toBeNull();
    expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 2 },
      { _id: 2, v: 20 },
    ]);
    // A transaction reading at majority starts from the durable state too.
    const s = client.startSession();
    try {
      s.startTransaction({ readConcern: { level: 'snapshot' } });
      expect(await coll.findOne({ _id: 1 }, { session: s })).toEqual({ _id: 1, v: 1 });
      await s.abortTransaction();
    } finally {
      await s.endSession();
    }
    holding = false;
    held.shift()!();
    await write;
    // The insert's fsync is still outstanding: the update is durable, the insert not yet.
    expect(await majority.find({}).sort({ _id: 1 }).toArray()).toEqual([{ _id: 1, v: 2 }]);
    held.shift()!();
    await insert;
    expect(await majority.countDocuments({})).toBe(2);
  });

  it('linearizable waits for pending commits to become durable', async () => {
    holding = true;
    const write = coll.updateOne({ _id: 1 }, { $set: { v: 3 } });
    await until(() => held.length === 1);
    const lin = client.db('c').collection<{ _id: number; v: number }>('acct', { readConcern: { level: 'linearizable' } });
    let got: unknown;
    const read = lin.findOne({ _id: 1 }).then((d) => (got = d));
    await new Promise((r) => setTimeout(r, 50));
    expect(got).toBeUndefined();
    holding = false;
    held.shift()!();
    await write;
    await read;
    expect(got).toEqual({ _id: 1, v: 3 });
  });
});

describe('refused concerns', () => {
  it('refuses write concerns a one-member set cannot satisfy, before writing', async () => {
    const err = await coll.insertOne({ _id: 9, v: 9 }, { writeConcern: { w: 2 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect((err as MongoServerError).codeName).toBe('UnsatisfiableWriteConcern');
    const tag = await coll.insertOne({ _id: 9, v: 9 }, { writeConcern: { w: 'dc2' as 'majority' } }).catch((e: unknown) => e);
    expect((tag as MongoServerError).codeName).toBe('UnknownReplWriteConcern');
    expect(await coll.findOne({ _id: 9 })).toBeNull();
    await coll.insertOne({ _id: 9, v: 9 }, { writeConcern: { w: 'majority', j: true } });
    expect(await coll.countDocuments({ _id: 9 })).toBe(1);
  });

  it('refuses unknown read concern levels and cluster times', async () => {
    const bad = await client.db('c').command({ find: 'acct', filter: {}, readConcern: { level: 'eventual' } }).catch((e: unknown) => e);
    expect((bad as MongoServerError).codeName).toBe('FailedToParse');
    const ct = await client
      .db('c')
      .command({ find: 'acct', filter: {}, readConcern: { level: 'majority', afterClusterTime: { t: 1, i: 1 } } })
      .catch((e: unknown) => e);
    expect((ct as MongoServerError).codeName).toBe('InvalidOptions');
  });
});

describe('with the real journal', () => {
  it('majority reads see every acknowledged write', async () => {
    const srv = await startTestServer();
    const c = await new MongoClient(srv.uri('m')).connect();
    try {
      const m = c.db('m').collection('x', { readConcern: { level: 'majority' } });
      await Promise.all(Array.from({ length: 50 }, (_, i) => c.db('m').collection('x').insertOne({ i })));
      expect(await m.countDocuments({ i: { $gte: 0 } })).toBe(50);
    } finally {
      await c.close();
      await srv.close();
    }
  });
});
