// mongoose against the embedded server: unique/compound indexes, duplicate keys, sort and
// pagination, guarded $inc under concurrency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mongoose from 'mongoose';
import type { Connection } from 'mongoose';
import { removeTempDirs, startTestServer } from './helpers.ts';

let srv: Awaited<ReturnType<typeof startTestServer>>;
let conn: Connection;

beforeAll(async () => {
  srv = await startTestServer();
  conn = await mongoose.createConnection(srv.uri('crud')).asPromise();
});

afterAll(async () => {
  await conn?.close();
  await srv?.close();
  removeTempDirs();
});

const userSchema = new mongoose.Schema({
  email: { type: String, required: true, unique: true },
  name: String,
  age: Number,
});

const orderSchema = new mongoose.Schema({
  userId: { type: String, required: true },
  externalRef: { type: String, required: true },
  amount: Number,
  createdAt: Date,
});
orderSchema.index({ userId: 1, externalRef: 1 }, { unique: true });
orderSchema.index({ createdAt: -1 });

const walletSchema = new mongoose.Schema({ owner: { type: String, unique: true }, balance: Number });

describe('mongoose', () => {
  it('creates the declared indexes', async () => {
    const User = conn.model('User', userSchema);
    const Order = conn.model('Order', orderSchema);
    await User.init();
    await Order.init();
    const userIdx = await User.listIndexes();
    expect(userIdx.map((i) => i.name).sort()).toEqual(['_id_', 'email_1']);
    expect(userIdx.find((i) => i.name === 'email_1')?.unique).toBe(true);
    const orderIdx = await Order.listIndexes();
    expect(orderIdx.map((i) => i.name).sort()).toEqual(['_id_', 'createdAt_-1', 'userId_1_externalRef_1']);
  });

  it('rejects a duplicate unique key with the real E11000 shape', async () => {
    const User = conn.model('User', userSchema);
    await User.create({ email: 'kim@example.kr', name: 'Kim' });
    const err = await User.create({ email: 'kim@example.kr', name: 'Other' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(mongoose.mongo.MongoServerError);
    const e = err as mongoose.mongo.MongoServerError;
    expect(e.code).toBe(11000);
    expect(e.message).toBe('E11000 duplicate key error collection: crud.users index: email_1 dup key: { email: "kim@example.kr" }');
    expect(e['keyPattern']).toEqual({ email: 1 });
    expect(e['keyValue']).toEqual({ email: 'kim@example.kr' });
    expect(await User.countDocuments({ email: 'kim@example.kr' })).toBe(1);
  });

  it('enforces a compound unique index on insert, update, upsert and findOneAndUpdate', async () => {
    const Order = conn.model('Order', orderSchema);
    await Order.create({ userId: 'u1', externalRef: 'r1', amount: 100 });
    await Order.create({ userId: 'u2', externalRef: 'r1', amount: 100 });
    await Order.create({ userId: 'u1', externalRef: 'r2', amount: 100 });
    await expect(Order.create({ userId: 'u1', externalRef: 'r1' })).rejects.toMatchObject({ code: 11000 });
    await expect(Order.updateOne({ userId: 'u1', externalRef: 'r2' }, { $set: { externalRef: 'r1' } })).rejects.toMatchObject({
      code: 11000,
    });
    await expect(
      Order.updateOne({ userId: 'u9', externalRef: 'zz' }, { $set: { userId: 'u2', externalRef: 'r1' } }, { upsert: true }),
    ).rejects.toMatchObject({ code: 11000 });
    await expect(Order.findOneAndUpdate({ userId: 'u2' }, { $set: { userId: 'u1' } })).rejects.toMatchObject({ code: 11000 });
    await expect(Order.insertMany([{ userId: 'u3', externalRef: 'a' }, { userId: 'u3', externalRef: 'a' }])).rejects.toMatchObject({
      code: 11000,
    });
    expect(await Order.countDocuments({ userId: 'u3' })).toBe(1);
    expect(await Order.countDocuments({ userId: 'u1' })).toBe(2);
  });

  it('sorts and paginates', async () => {
    const Post = conn.model('Post', new mongoose.Schema({ n: Number, group: String }));
    const docs = Array.from({ length: 57 }, (_, i) => ({ n: (i * 37) % 57, group: i % 2 ? 'odd' : 'even' }));
    await Post.insertMany(docs);
    const seen: number[] = [];
    for (let page = 0; page < 6; page++) {
      const rows = await Post.find({}).sort({ n: -1 }).skip(page * 10).limit(10).lean();
      seen.push(...rows.map((r) => r.n as number));
    }
    expect(seen).toEqual(Array.from({ length: 57 }, (_, i) => 56 - i));
    const odd = await Post.find({ group: 'odd', n: { $gte: 50 } }, { n: 1, _id: 0 }).sort({ n: 1 }).lean();
    expect(odd.every((r) => Object.keys(r).join() === 'n')).toBe(true);
    expect(odd.map((r) => r.n)).toEqual([...odd.map((r) => r.n)].sort((a, b) => (a as number) - (b as number)));
    expect(await Post.countDocuments({ group: 'even' })).toBe(29);
    expect((await Post.distinct('group')).sort()).toEqual(['even', 'odd']);
  });

  it('never loses or overdraws with concurrent guarded $inc', async () => {
    const Wallet = conn.model('Wallet', walletSchema);
    await Wallet.create({ owner: 'w1', balance: 1000 });
    // 300 debits of 7 against 1000: exactly 142 can succeed.
    const attempts = Array.from({ length: 300 }, () =>
      Wallet.findOneAndUpdate({ owner: 'w1', balance: { $gte: 7 } }, { $inc: { balance: -7 } }, { returnDocument: 'after' }).lean(),
    );
    const results = await Promise.all(attempts);
    const ok = results.filter((r) => r !== null);
    expect(ok.length).toBe(142);
    const final = await Wallet.findOne({ owner: 'w1' }).lean();
    expect(final?.balance).toBe(1000 - 142 * 7);
    expect(ok.every((r) => (r?.balance as number) >= 0)).toBe(true);
  });

  it('supports upsert with $setOnInsert', async () => {
    const Counter = conn.model('Counter', new mongoose.Schema({ key: { type: String, unique: true }, seq: Number, createdBy: String }));
    await Counter.init();
    for (let i = 0; i < 3; i++) {
      await Counter.updateOne({ key: 'orders' }, { $inc: { seq: 1 }, $setOnInsert: { createdBy: `call-${i}` } }, { upsert: true });
    }
    const c = await Counter.findOne({ key: 'orders' }).lean();
    expect(c).toMatchObject({ key: 'orders', seq: 3, createdBy: 'call-0' });
  });
});

describe('mongoose queries', () => {
  it('handles regex, dates, ObjectId refs with populate, $expr and syncIndexes', async () => {
    const Author = conn.model('Author', new mongoose.Schema({ name: String, joined: Date }));
    const Book = conn.model(
      'Book',
      new mongoose.Schema({ title: { type: String, index: true }, author: { type: mongoose.Schema.Types.ObjectId, ref: 'Author' }, pages: Number, min: Number }),
    );
    const [a1, a2] = await Author.create([
      { name: '김민수', joined: new Date('2024-01-01') },
      { name: '이서연', joined: new Date('2025-06-01') },
    ]);
    await Book.create([
      { title: '파이썬 입문', author: a1!._id, pages: 300, min: 100 },
      { title: 'Rust in Action', author: a2!._id, pages: 80, min: 100 },
      { title: 'rust for kids', author: a2!._id, pages: 120, min: 100 },
    ]);
    expect(await Book.countDocuments({ title: /^rust/i })).toBe(2);
    expect((await Author.find({ joined: { $gte: new Date('2025-01-01') } }).lean()).map((a) => a.name)).toEqual(['이서연']);
    const withAuthor = await Book.find({ author: a2!._id }).sort({ pages: 1 }).populate('author').lean();
    expect(withAuthor.map((b) => (b.author as unknown as { name: string }).name)).toEqual(['이서연', '이서연']);
    expect(await Book.countDocuments({ $expr: { $lt: ['$pages', '$min'] } })).toBe(1);
    expect(await Book.exists({ title: '파이썬 입문' })).not.toBeNull();
    await Book.syncIndexes();
    expect((await Book.listIndexes()).map((i) => i.name).sort()).toEqual(['_id_', 'title_1']);
    const deleted = await Book.deleteMany({ author: a2!._id });
    expect(deleted.deletedCount).toBe(2);
    expect(await Book.estimatedDocumentCount()).toBe(1);
  });
});
