// Unique keys are checked against the ordered index (no key -> owner hash map): the keys that are
// one key on the server (1, 1.0, Int32 1 and Long 1; NaN and NaN) collide, distinct keys (a string
// "1" beside the number 1) do not, on inserts, updates and inside transactions, and after a restart.
import { afterAll, describe, expect, it } from 'vitest';
import { Double, Int32, Long, MongoClient } from 'mongodb';
import type { Collection, Document } from 'mongodb';
import { removeTempDirs, startTestServer, tempDir } from './helpers.ts';

afterAll(() => removeTempDirs());

async function dupCode(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return (e as { code?: number }).code;
  }
}

async function checkKeys(c: Collection<Document>): Promise<void> {
  expect(await dupCode(c.insertOne({ k: new Double(1) }))).toBe(11000);
  expect(await dupCode(c.insertOne({ k: Long.fromNumber(1) }))).toBe(11000);
  expect(await dupCode(c.insertOne({ k: new Int32(1) }))).toBe(11000);
  expect(await dupCode(c.insertOne({ k: NaN }))).toBe(11000);
  expect(await dupCode(c.insertOne({ k: 'x' }))).toBe(11000);
  expect(await dupCode(c.updateOne({ k: '1' }, { $set: { k: 'x' } }))).toBe(11000);
  expect(await dupCode(c.insertOne({ a: 1, b: 'q' }))).toBe(11000);
  // Distinct keys are accepted.
  await c.insertOne({ k: 2, a: 1, b: 'r' });
  await c.deleteOne({ k: 2 });
}

describe('unique keys', () => {
  it('collide as on the server, and still do after a restart', async () => {
    const dataDir = tempDir();
    let srv = await startTestServer({ dataDir });
    let client = await new MongoClient(srv.uri('u')).connect();
    let c = client.db('u').collection('keys');
    await c.createIndex({ k: 1 }, { unique: true, sparse: true });
    await c.createIndex({ a: 1, b: -1 }, { unique: true, sparse: true });
    await c.insertMany([{ k: 1 }, { k: '1' }, { k: 'x' }, { a: 1, b: 'q' }]);
    await c.insertMany([{ k: NaN }, { k: -Infinity }, { k: 0.5 }]);
    await checkKeys(c);
    // A key freed by a delete or an update can be taken again.
    await c.updateOne({ k: 'x' }, { $set: { k: 'y' } });
    await c.insertOne({ k: 'x' });
    // A transaction's uncommitted key blocks nobody's reads but is not taken twice.
    const s = client.startSession();
    s.startTransaction();
    await c.insertOne({ k: 'held' }, { session: s });
    expect(await dupCode(c.insertOne({ k: 'held' }))).not.toBe(undefined);
    await s.abortTransaction();
    await s.endSession();
    await c.insertOne({ k: 'held' });
    await client.close();
    await srv.close();

    srv = await startTestServer({ dataDir });
    client = await new MongoClient(srv.uri('u')).connect();
    c = client.db('u').collection('keys');
    await checkKeys(c);
    expect(await dupCode(c.insertOne({ k: 'held' }))).toBe(11000);
    expect(await dupCode(c.insertOne({ k: 'y' }))).toBe(11000);
    expect(await c.countDocuments()).toBe(9);
    await client.close();
    await srv.close();
  });
});
