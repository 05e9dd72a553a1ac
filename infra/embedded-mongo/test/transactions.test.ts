// Multi-document transactions as mongoose and the driver use them: isolation, abort, write
// conflicts with TransientTransactionError, and exact totals under many concurrent transactions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import type { Connection } from 'mongoose';
import { MongoClient, MongoServerError } from 'mongodb';
import { removeTempDirs, startTestServer } from './helpers.ts';

let srv: Awaited<ReturnType<typeof startTestServer>>;
let conn: Connection;
let client: MongoClient;

beforeAll(async () => {
  srv = await startTestServer();
  conn = await mongoose.createConnection(srv.uri('wallet')).asPromise();
  client = await new MongoClient(srv.uri('wallet')).connect();
});

afterAll(async () => {
  await conn?.close();
  await client?.close();
  await srv?.close();
  removeTempDirs();
});

const accountSchema = new mongoose.Schema({ owner: { type: String, unique: true }, balance: Number });
const ledgerSchema = new mongoose.Schema({ key: { type: String, unique: true }, from: String, to: String, amount: Number });

describe('transactions', () => {
  it('hides uncommitted writes and publishes them on commit', async () => {
    const coll = client.db('wallet').collection('iso');
    const session = client.startSession();
    session.startTransaction();
    await coll.insertOne({ _id: 'a' as never, v: 1 }, { session });
    expect(await coll.findOne({ _id: 'a' as never }, { session })).toMatchObject({ v: 1 });
    expect(await coll.findOne({ _id: 'a' as never })).toBeNull();
    expect(await coll.countDocuments({})).toBe(0);
    await session.commitTransaction();
    await session.endSession();
    expect(await coll.findOne({ _id: 'a' as never })).toMatchObject({ v: 1 });
  });

  it('leaves no trace after abort', async () => {
    const coll = client.db('wallet').collection('abort');
    await coll.insertOne({ _id: 'keep' as never, v: 1 });
    const session = client.startSession();
    session.startTransaction();
    await coll.insertOne({ _id: 'gone' as never, v: 2 }, { session });
    await coll.updateOne({ _id: 'keep' as never }, { $set: { v: 99 } }, { session });
    await coll.deleteOne({ _id: 'keep' as never }, { session });
    await session.abortTransaction();
    await session.endSession();
    expect(await coll.find({}).toArray()).toEqual([{ _id: 'keep', v: 1 }]);
  });

  it('reads from its snapshot and gets WriteConflict (TransientTransactionError) on a stale write', async () => {
    const coll = client.db('wallet').collection('snap');
    await coll.insertOne({ _id: 'x' as never, v: 1 });
    const session = client.startSession();
    session.startTransaction();
    expect(await coll.findOne({ _id: 'x' as never }, { session })).toMatchObject({ v: 1 });
    await coll.updateOne({ _id: 'x' as never }, { $set: { v: 2 } }); // committed outside
    expect(await coll.findOne({ _id: 'x' as never }, { session })).toMatchObject({ v: 1 });
    expect(await coll.findOne({ v: 1 }, { session })).toMatchObject({ _id: 'x' });
    const err = await coll.updateOne({ _id: 'x' as never }, { $set: { v: 3 } }, { session }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect((err as MongoServerError).code).toBe(112);
    expect((err as MongoServerError).hasErrorLabel('TransientTransactionError')).toBe(true);
    await session.abortTransaction();
    await session.endSession();
    expect(await coll.findOne({ _id: 'x' as never })).toMatchObject({ v: 2 });
  });

  it('gives the later of two writers a WriteConflict while the first is open', async () => {
    const coll = client.db('wallet').collection('ww');
    await coll.insertOne({ _id: 'd' as never, v: 0 });
    const s1 = client.startSession();
    const s2 = client.startSession();
    s1.startTransaction();
    s2.startTransaction();
    await coll.updateOne({ _id: 'd' as never }, { $inc: { v: 1 } }, { session: s1 });
    const err = await coll.updateOne({ _id: 'd' as never }, { $inc: { v: 10 } }, { session: s2 }).catch((e: unknown) => e);
    expect((err as MongoServerError).code).toBe(112);
    expect((err as MongoServerError).errorLabels).toContain('TransientTransactionError');
    await s1.commitTransaction();
    await s2.abortTransaction().catch(() => undefined);
    await s1.endSession();
    await s2.endSession();
    expect(await coll.findOne({ _id: 'd' as never })).toMatchObject({ v: 1 });
  });

  it('blocks a plain write behind an open transaction instead of losing either update', async () => {
    const coll = client.db('wallet').collection('block');
    await coll.insertOne({ _id: 'b' as never, v: 0 });
    const s = client.startSession();
    s.startTransaction();
    await coll.updateOne({ _id: 'b' as never }, { $inc: { v: 1 } }, { session: s });
    const plain = coll.updateOne({ _id: 'b' as never }, { $inc: { v: 10 } });
    await new Promise((r) => setTimeout(r, 50));
    await s.commitTransaction();
    await plain;
    await s.endSession();
    expect(await coll.findOne({ _id: 'b' as never })).toMatchObject({ v: 11 });
  });

  it('enforces unique indexes inside transactions', async () => {
    const Account = conn.model('Account', accountSchema);
    await Account.init();
    await Account.create({ owner: 'dup', balance: 0 });
    const err = await conn
      .transaction(async (session) => {
        await Account.create([{ owner: 'fresh', balance: 1 }], { session });
        await Account.create([{ owner: 'dup', balance: 1 }], { session });
      })
      .catch((e: unknown) => e);
    expect((err as { code?: number }).code).toBe(11000);
    expect(await Account.countDocuments({ owner: 'fresh' })).toBe(0);
    // As on the server, the duplicate key aborted the transaction: carrying on is refused.
    const session = await conn.startSession();
    session.startTransaction();
    await expect(Account.create([{ owner: 'dup', balance: 2 }], { session })).rejects.toMatchObject({ code: 11000 });
    await expect(Account.create([{ owner: 'later', balance: 2 }], { session })).rejects.toMatchObject({ code: 251 });
    await session.abortTransaction().catch(() => undefined);
    await session.endSession();
    expect(await Account.countDocuments({ owner: 'later' })).toBe(0);
  });

  it('keeps totals exact across many concurrent conflicting transfers (connection.transaction)', { timeout: 60_000 }, async () => {
    const Account = conn.model('Account', accountSchema);
    const Ledger = conn.model('Ledger', ledgerSchema);
    await Ledger.init();
    const owners = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank'];
    await Account.create(owners.map((owner) => ({ owner, balance: 500 })));
    // 36 transfers around a ring of 6 accounts, all started at once: neighbours keep colliding.
    const transfers = Array.from({ length: 36 }, (_, i) => ({ from: owners[i % 6]!, to: owners[(i + 1) % 6]!, amount: 10 + (i % 7), key: `t${i}` }));
    let attempts = 0;
    const outcomes = await Promise.all(
      transfers.map((t) =>
        conn.transaction(async (session) => {
          attempts++;
          const from = await Account.findOne({ owner: t.from }).session(session);
          if (!from || (from.balance as number) < t.amount) throw new Error('insufficient');
          await Account.updateOne({ owner: t.from }, { $inc: { balance: -t.amount } }, { session });
          await Account.updateOne({ owner: t.to }, { $inc: { balance: t.amount } }, { session });
          await Ledger.create([{ key: t.key, from: t.from, to: t.to, amount: t.amount }], { session });
        }).then(
          () => 'ok',
          (e: Error) => e.message,
        ),
      ),
    );
    expect(outcomes.every((o) => o === 'ok')).toBe(true);
    // Conflicts really happened and were retried.
    expect(attempts).toBeGreaterThan(transfers.length);
    const accounts = await Account.find({ owner: { $in: owners } }).lean();
    const total = accounts.reduce((a, x) => a + (x.balance as number), 0);
    expect(total).toBe(3000);
    const ledger = await Ledger.find().lean();
    expect(ledger.length).toBe(36);
    for (const o of owners) {
      const expected = 500 - ledger.filter((l) => l.from === o).reduce((a, l) => a + (l.amount as number), 0) + ledger.filter((l) => l.to === o).reduce((a, l) => a + (l.amount as number), 0);
      expect(accounts.find((a) => a.owner === o)?.balance).toBe(expected);
    }
  });

  it('counts exactly with session.withTransaction on one hot document', { timeout: 60_000 }, async () => {
    const Counter = conn.model('HotCounter', new mongoose.Schema({ _id: String, n: Number }));
    const Entry = conn.model('HotEntry', new mongoose.Schema({ i: Number }));
    await Counter.create({ _id: 'hot', n: 0 });
    await Entry.createCollection();
    const N = 40;
    await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const session = await conn.startSession();
        try {
          await session.withTransaction(async () => {
            await Counter.updateOne({ _id: 'hot' }, { $inc: { n: 1 } }, { session });
            await Entry.create([{ i }], { session });
          });
        } finally {
          await session.endSession();
        }
      }),
    );
    expect((await Counter.findById('hot').lean())?.n).toBe(N);
    expect(await Entry.countDocuments()).toBe(N);
  });

  it('keeps index lookups consistent with the snapshot when indexed fields change outside', async () => {
    const coll = client.db('wallet').collection('ixsnap');
    await coll.createIndex({ status: 1 });
    await coll.insertMany([
      { _id: 1 as never, status: 'pending' },
      { _id: 2 as never, status: 'pending' },
    ]);
    const session = client.startSession();
    session.startTransaction();
    expect(await coll.countDocuments({ status: 'pending' }, { session })).toBe(2);
    await coll.updateOne({ _id: 1 as never }, { $set: { status: 'sent' } });
    await coll.insertOne({ _id: 3 as never, status: 'pending' });
    await coll.deleteOne({ _id: 2 as never });
    // Still the snapshot: both original pending documents, not the new one.
    expect((await coll.find({ status: 'pending' }, { session }).toArray()).map((d) => d._id).sort()).toEqual([1, 2]);
    expect(await coll.countDocuments({ status: 'sent' }, { session })).toBe(0);
    await coll.insertOne({ _id: 4 as never, status: 'pending' }, { session });
    expect((await coll.find({ status: 'pending' }, { session }).toArray()).map((d) => d._id).sort()).toEqual([1, 2, 4]);
    await session.commitTransaction();
    await session.endSession();
    expect((await coll.find({ status: 'pending' }).toArray()).map((d) => d._id).sort()).toEqual([3, 4]);
  });
});
