// Long reads yield to other clients, and still read one consistent snapshot while writes land
// between their slices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import type { Collection } from 'mongodb';
import { removeTempDirs, startTestServer } from './helpers.ts';

let srv: Awaited<ReturnType<typeof startTestServer>>;
let scanner: MongoClient;
let other: MongoClient;
interface Acct {
  _id: number;
  v: number;
  pad: string;
}
let big: Collection<Acct>;
const N = 60_000;

beforeAll(async () => {
  srv = await startTestServer();
  scanner = await new MongoClient(srv.uri('y')).connect();
  other = await new MongoClient(srv.uri('y')).connect();
  big = scanner.db('y').collection<Acct>('big');
  for (let i = 0; i < N; i += 10_000) {
    await big.insertMany(Array.from({ length: 10_000 }, (_, j) => ({ _id: i + j, v: 10, pad: `p${(i + j) % 13}`.padEnd(40, 'x') })));
  }
}, 60_000);

afterAll(async () => {
  await scanner?.close();
  await other?.close();
  await srv?.close();
  removeTempDirs();
});

describe('long reads', () => {
  it('answer other clients while a scan over a big collection runs', async () => {
    const order: string[] = [];
    const scan = big.countDocuments({ pad: { $regex: 'zz' } }).then(() => order.push('scan'));
    // Give the scan time to start on the server, then ask something short on another connection.
    await new Promise((r) => setTimeout(r, 5));
    await other.db('admin').command({ ping: 1 });
    await other.db('y').collection<Acct>('big').findOne({ _id: 3 });
    order.push('short');
    await scan;
    expect(order).toEqual(['short', 'scan']);
  });

  it('sort large results in memory in the same order, still answering others meanwhile', async () => {
    const order: string[] = [];
    const sorted = big
      .find({}, { projection: { pad: 1 } })
      .sort({ pad: -1, _id: 1 })
      .toArray()
      .then((rows) => {
        order.push('sort');
        return rows;
      });
    await new Promise((r) => setTimeout(r, 5));
    await other.db('admin').command({ ping: 1 });
    order.push('short');
    const rows = await sorted;
    expect(order).toEqual(['short', 'sort']);
    const expected = Array.from({ length: N }, (_, i) => ({ _id: i, pad: `p${i % 13}`.padEnd(40, 'x') })).sort((a, b) =>
      a.pad < b.pad ? 1 : a.pad > b.pad ? -1 : a._id - b._id,
    );
    expect(rows).toEqual(expected);
  });

  it('read one snapshot although transfers commit between their slices', async () => {
    const accounts = other.db('y').collection<Acct>('big');
    let stop = false;
    let transfers = 0;
    const writer = (async () => {
      while (!stop) {
        // Money leaves a document the scan reaches late and arrives in one it has already passed.
        const from = N - 1 - (transfers % 100);
        const to = transfers % 100;
        const s = other.startSession();
        try {
          await s.withTransaction(async () => {
            await accounts.updateOne({ _id: from }, { $inc: { v: -1 } }, { session: s });
            await accounts.updateOne({ _id: to }, { $inc: { v: 1 } }, { session: s });
          });
        } finally {
          await s.endSession();
        }
        transfers++;
      }
    })();
    const sums: number[] = [];
    for (let i = 0; i < 2; i++) {
      const rows = await big.find({ v: { $gte: 0 }, pad: { $regex: 'x' } }).project<{ v: number }>({ v: 1 }).toArray();
      expect(rows.length).toBe(N);
      sums.push(rows.reduce((a, r) => a + r.v, 0));
      const agg = await big.aggregate<{ t: number }>([{ $match: { pad: { $regex: 'x' } } }, { $group: { _id: null, t: { $sum: '$v' } } }]).toArray();
      sums.push(agg[0]?.t ?? -1);
    }
    stop = true;
    await writer;
    expect(transfers).toBeGreaterThan(0);
    expect(sums).toEqual(sums.map(() => N * 10));
  });
});
