// The compact in-memory layout must answer exactly as the plain one: index blocks kept column by
// column behave as a sorted array of tuples through inserts, deletes and scans that resume after
// changes, and documents loaded from a snapshot (whose repeated indexed strings are shared) read
// back equal to what was written, every BSON type included, with the same index answers.
import v8 from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { Binary, BSONRegExp, Decimal128, Double, Int32, Long, MaxKey, MinKey, MongoClient, ObjectId, Timestamp } from 'mongodb';
import type { Document } from 'mongodb';
import { collectGarbage } from '../src/memory.ts';
import { SortedBlocks } from '../src/sorted.ts';
import type { Tuple } from '../src/sorted.ts';
import { startCli } from './cli.ts';
import { removeTempDirs, startTestServer, tempDir } from './helpers.ts';

afterAll(() => removeTempDirs());

/** Deterministic pseudo-random numbers (the test repeats exactly). */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

/** (string key, number key, id) ascending on the first two, then the id. */
const cmp = (a: Tuple, b: Tuple): number => {
  for (let i = 0; i < 3; i++) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
};

describe('index blocks', () => {
  it('behave as a sorted array through inserts, deletes, bulk loads and scans that resume after changes', () => {
    for (const seed of [1, 2, 3]) {
      const rand = rng(seed);
      const tuple = (): Tuple => [`k${Math.floor(rand() * 40)}`, Math.floor(rand() * 50), `id${Math.floor(rand() * 3000)}`];
      const blocks = new SortedBlocks(3, cmp);
      let model: Tuple[] = Array.from({ length: 1500 }, tuple).sort(cmp);
      blocks.load(model.map((t) => [...t]));
      for (let step = 0; step < 4000; step++) {
        const r = rand();
        if (r < 0.5) {
          const t = tuple();
          blocks.insert(t);
          model.push(t);
          model.sort(cmp);
        } else if (r < 0.85) {
          const t = rand() < 0.7 && model.length ? model[Math.floor(rand() * model.length)]! : tuple();
          const at = model.findIndex((m) => cmp(m, t) === 0);
          expect(blocks.delete([...t])).toBe(at >= 0);
          if (at >= 0) model.splice(at, 1);
        } else {
          // A scan from a bound, forwards or backwards, with changes between its steps.
          const bound = tuple();
          const reverse = rand() < 0.5;
          const start = reverse ? (x: Tuple): boolean => cmp(x, bound) <= 0 : (x: Tuple): boolean => cmp(x, bound) >= 0;
          const got: Tuple[] = [];
          for (const t of blocks.scan(start, reverse)) {
            got.push(t);
            if (got.length === 5) {
              // Changes on both sides of the scan's position: it must continue right after its last entry.
              const extra = tuple();
              blocks.insert(extra);
              model.push(extra);
              model.sort(cmp);
            }
            if (got.length >= 12) break;
          }
          // Entries handed out are copies: later changes leave them as they were.
          const last = got.at(-1);
          const copy = last ? [...last] : undefined;
          blocks.insert(tuple());
          model = [];
          for (const t of blocks.all()) model.push(t);
          if (last) expect(last).toEqual(copy);
          // Each step is the next entry after the previous one in the set as it was at that step.
          for (let k = 1; k < got.length; k++) expect(reverse ? cmp(got[k]!, got[k - 1]!) : cmp(got[k - 1]!, got[k]!)).toBeLessThanOrEqual(0);
        }
        expect(blocks.size).toBe(model.length);
      }
      const all = [...blocks.all()];
      expect(all).toEqual([...model].sort(cmp));
      expect(blocks.copyIds().flat()).toEqual(all.map((t) => t[2]));
    }
  });
});

const STATUSES = ['pending', 'processing', 'completed', 'canceled'];

/** Order-like documents: repeated strings in indexed fields, unique ones, other types in the same fields, every BSON type. */
function orders(n: number): Document[] {
  const out: Document[] = [];
  for (let i = 0; i < n; i++) {
    const d: Document = {
      _id: new ObjectId(i.toString(16).padStart(24, '0')),
      status: STATUSES[i % 4],
      userId: i % 9 === 0 ? i % 7 : `u${i % 300}`,
      email: `m${i}@example.kr`,
      charge: 1500 * (i % 5),
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
    };
    if (i % 97 === 0) {
      Object.assign(d, {
        status: new Long(i, 1),
        l: Long.fromNumber(i * 1_000_000_007),
        dbl: new Double(i),
        i32: new Int32(i),
        dec: Decimal128.fromString(`${i}.25`),
        bin: new Binary(Buffer.from([1, 2, i & 255]), 0),
        ts: new Timestamp({ t: i, i: 1 }),
        re: new BSONRegExp('^o', 'i'),
        min: new MinKey(),
        max: new MaxKey(),
        nul: null,
        bool: i % 2 === 0,
        arr: [new Double(1.5), 'pending', { status: 'pending' }],
        sub: { status: 'completed', n: new Int32(3) },
      });
    }
    out.push(d);
  }
  return out;
}

describe('documents loaded from a snapshot', () => {
  it('read back equal to what was written, every type included, and indexes answer the same', { timeout: 60_000 }, async () => {
    // More documents than the sample that decides whether a field's strings repeat enough to share.
    const N = 14_000;
    const dataDir = tempDir();
    let srv = await startTestServer({ dataDir });
    let client = await new MongoClient(srv.uri('app')).connect();
    let c = client.db('app').collection('orders', { promoteValues: false, promoteLongs: false });
    await c.createIndex({ status: 1, createdAt: -1 });
    await c.createIndex({ userId: 1 });
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertMany(orders(N));
    // Some documents changed after being written, so the load sees more than one version history.
    await c.updateMany({ charge: 3000 }, { $set: { status: 'partial' } });
    const queries = async (): Promise<unknown> => ({
      all: await c.find({}).sort({ _id: 1 }).toArray(),
      byStatus: await c.find({ status: 'pending' }).sort({ createdAt: -1 }).limit(50).toArray(),
      partial: await c.countDocuments({ status: 'partial' }),
      userNumber: await c.countDocuments({ userId: 3 }),
      userString: (await c.find({ userId: 'u17' }).toArray()).length,
      email: await c.findOne({ email: 'm4321@example.kr' }),
      range: await c.countDocuments({ status: 'completed', createdAt: { $gte: new Date(Date.UTC(2026, 0, 3)) } }),
    });
    const before = await queries();
    await client.close();
    await srv.close();

    srv = await startTestServer({ dataDir });
    client = await new MongoClient(srv.uri('app')).connect();
    c = client.db('app').collection('orders', { promoteValues: false, promoteLongs: false });
    const after = await queries();
    expect(after).toEqual(before);
    expect((before as { all: Document[] }).all).toHaveLength(N);
    // A change to one document's shared string leaves the others alone, and unique keys still hold.
    await c.updateOne({ email: 'm8@example.kr' }, { $set: { status: 'refunded' } });
    expect(Number(await c.countDocuments({ status: 'refunded' }))).toBe(1);
    expect(Number(await c.countDocuments({ status: 'pending' }))).toBe((before as { all: Document[] }).all.filter((d) => d['status'] === 'pending').length - 1);
    await expect(c.insertOne({ email: 'm5@example.kr' })).rejects.toThrow(/E11000 duplicate key error collection: app.orders index: email_1/);
    await client.close();
    await srv.close();
  });
});

describe('documents written', () => {
  /** Heap bytes per document that `write` leaves live in this process (server and driver share it). */
  async function heapPerDocument(n: number, write: () => Promise<unknown>): Promise<number> {
    collectGarbage();
    const before = v8.getHeapStatistics().used_heap_size;
    await write();
    collectGarbage();
    return (v8.getHeapStatistics().used_heap_size - before) / n;
  }

  const record = (i: number, pending: boolean): Document => ({
    eventId: `0b8f2d6e-4c1a-4e7b-9a2f-${String(i).padStart(12, '0')}`,
    topic: 'order.events.v1',
    event: { type: 'OrderPlaced', eventId: `e-${i}`, data: { orderId: `o-${i}`, amount: 1500 + i } },
    createdAt: new Date(BASE + i),
    ...(pending ? { pending: true, publishedAt: null } : { publishedAt: new Date(BASE + i) }),
    attempts: 0,
  });
  const BASE = Date.UTC(2026, 0, 1);

  it('an outbox record marked published ($set and $unset) costs what one written in that shape does', { timeout: 60_000 }, async () => {
    const srv = await startTestServer();
    const client = await new MongoClient(srv.uri('layout')).connect();
    try {
      const db = client.db('layout');
      await db.collection('warm').insertMany(Array.from({ length: 500 }, (_, i) => record(i, true)));
      await db.collection('warm').updateMany({}, { $set: { publishedAt: new Date(BASE) }, $unset: { pending: '' } });
      const n = 4000;
      const direct = await heapPerDocument(n, () => db.collection('direct').insertMany(Array.from({ length: n }, (_, i) => record(i, false))));
      const marked = await heapPerDocument(n, async () => {
        await db.collection('marked').insertMany(Array.from({ length: n }, (_, i) => record(i, true)));
        await db.collection('marked').updateMany({ pending: true }, { $set: { publishedAt: new Date(BASE) }, $unset: { pending: '' } });
      });
      expect(await db.collection('marked').findOne({ eventId: record(7, true)['eventId'] }, { projection: { _id: 0 } })).toEqual({
        ...record(7, false),
        publishedAt: new Date(BASE),
      });
      // A field removed in place left each document a hash table of its properties: ~1.25× here
      // (1,510 against 1,210 bytes), more for a record with more fields.
      expect(marked / direct).toBeLessThan(1.1);
    } finally {
      await client.close();
      await srv.close();
    }
  });

  /** 25 numbers at the top level, or the same 25 split between two objects of 12 and 13 fields. */
  const flat = (i: number): Document => Object.fromEntries(Array.from({ length: 25 }, (_, k) => [`f${k}`, i * 100 + k]));
  const split = (i: number): Document => {
    const f = Object.entries(flat(i));
    return { a: Object.fromEntries(f.slice(0, 12)), b: Object.fromEntries(f.slice(12)) };
  };

  it('of many fields cost what the same fields split in two objects do, written and loaded again', { timeout: 60_000 }, async () => {
    const n = 20_000;
    const written: Record<string, number> = {};
    const dirs: Record<string, string> = {};
    for (const [name, shape] of [
      ['flat', flat],
      ['split', split],
    ] as const) {
      const srv = await startTestServer();
      const client = await new MongoClient(srv.uri('layout')).connect();
      await client.db().collection('warm').insertMany(Array.from({ length: 500 }, (_, i) => shape(i)));
      written[name] = await heapPerDocument(n, async () => {
        await client.db().collection('docs').insertMany(Array.from({ length: n }, (_, i) => shape(i)));
        await client.db().collection('docs').updateMany({}, { $set: { seen: true } });
      });
      await client.close();
      await srv.close();
      dirs[name] = srv.dataDir;
    }
    // Loaded from the snapshot a clean stop wrote, each by a server process of its own (whose
    // heap after loading is the data's, a full collection included).
    const loaded: Record<string, number> = {};
    for (const [name, shape] of [
      ['flat', flat],
      ['split', split],
    ] as const) {
      const cli = await startCli(['--port', '0', '--data-dir', dirs[name]!, '--log-level', 'warn']);
      const client = await new MongoClient(`mongodb://127.0.0.1:${cli.port}/layout?directConnection=true`).connect();
      try {
        expect(await client.db().collection('docs').findOne({}, { sort: { _id: 1 }, projection: { _id: 0 } })).toEqual({ ...shape(0), seen: true });
        const { mem } = await client.db('admin').command({ serverStatus: 1 });
        loaded[name] = ((mem as { heapUsedMb: number }).heapUsedMb * 1048576) / n;
      } finally {
        await client.close();
        cli.child.kill('SIGKILL');
      }
    }
    // At its 20th field an object built one field at a time (BSON's decoder) became a hash table
    // of its properties, ~1 KB more a document.
    expect(written['flat']! - written['split']!).toBeLessThan(150);
    expect(loaded['flat']! - loaded['split']!).toBeLessThan(150);
  });

  it('hold one copy of a string that repeats at the same path', { timeout: 60_000 }, async () => {
    const srv = await startTestServer();
    const client = await new MongoClient(srv.uri('layout')).connect();
    try {
      const db = client.db('layout');
      const n = 4000;
      const shape = (i: number, v: (k: number) => unknown): Document => ({ n: i, topic: v(1), type: v(2), userId: v(3), items: [{ kind: v(4) }] });
      await db.collection('warm').insertMany(Array.from({ length: 500 }, (_, i) => shape(i, (k) => k)));
      const numbers = await heapPerDocument(n, () => db.collection('numbers').insertMany(Array.from({ length: n }, (_, i) => shape(i, (k) => k))));
      const text = (k: number): string => `${['order.events.v1', 'OrderPlaced', '65767606-12c6-44a5-83c6-13f0962d3c5e', 'likes'][k - 1]}`;
      const strings = await heapPerDocument(n, () => db.collection('strings').insertMany(Array.from({ length: n }, (_, i) => shape(i, text))));
      expect(await db.collection('strings').findOne({ n: 9 }, { projection: { _id: 0 } })).toEqual(shape(9, text));
      // Each decoded document held its own four copies (~140 bytes); shared, a string costs what a number does.
      expect(strings - numbers).toBeLessThan(40);
    } finally {
      await client.close();
      await srv.close();
    }
  });
});
