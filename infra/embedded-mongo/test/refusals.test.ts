// Features the embedded server does not implement are refused when asked for, with MongoDB-shaped
// errors, instead of being accepted and then ignored; maxTimeMS is honoured by reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient, MongoServerError } from 'mongodb';
import type { Db } from 'mongodb';
import { removeTempDirs, startTestServer } from './helpers.ts';

let srv: Awaited<ReturnType<typeof startTestServer>>;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  srv = await startTestServer();
  client = await new MongoClient(srv.uri('r')).connect();
  db = client.db('r');
});

afterAll(async () => {
  await client?.close();
  await srv?.close();
  removeTempDirs();
});

const failure = async (p: Promise<unknown>): Promise<MongoServerError> => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(MongoServerError);
  return e as MongoServerError;
};

describe('refused at creation', () => {
  it('refuses capped collections and validators, creating nothing', async () => {
    const capped = await failure(db.createCollection('log', { capped: true, size: 4096, max: 10 }));
    expect(capped.codeName).toBe('CommandNotSupported');
    expect(capped.message).toMatch(/capped collections are not supported/);
    const schema = await failure(db.createCollection('members', { validator: { $jsonSchema: { required: ['name'] } } }));
    expect(schema.message).toMatch(/document validation/);
    const names = (await db.listCollections().toArray()).map((c) => c.name);
    expect(names).not.toContain('log');
    expect(names).not.toContain('members');
    // Harmless options still work.
    await db.createCollection('plain', { comment: 'ok' });
  });

  it('refuses text, 2dsphere, hashed and wildcard indexes and unknown index options, building none of the batch', async () => {
    const c = db.collection('places');
    await c.insertOne({ name: 'a', loc: { type: 'Point', coordinates: [127, 37.5] } });
    for (const [key, word] of [
      [{ name: 'text' }, 'text indexes'],
      [{ loc: '2dsphere' }, '2dsphere indexes'],
      [{ name: 'hashed' }, 'hashed indexes'],
      [{ '$**': 1 }, 'wildcard'],
    ] as const) {
      const e = await failure(c.createIndex(key as never));
      expect(e.codeName).toBe('CannotCreateIndex');
      expect(e.message).toContain(word);
    }
    const batch = await failure(
      c.createIndexes([
        { key: { name: 1 }, name: 'fine' },
        { key: { name: 1, loc: 1 }, name: 'odd', collation: { locale: 'ko' } },
      ]),
    );
    expect(batch.codeName).toBe('CannotCreateIndex');
    expect((await c.listIndexes().toArray()).map((i) => i['name'])).toEqual(['_id_']);
  });

  it('refuses non-simple collations on queries and writes', async () => {
    const c = db.collection('names');
    await c.insertOne({ n: 'a' });
    expect((await failure(c.find({ n: 'A' }, { collation: { locale: 'ko', strength: 2 } }).toArray())).codeName).toBe('CommandNotSupported');
    expect((await failure(c.updateOne({ n: 'A' }, { $set: { x: 1 } }, { collation: { locale: 'en', strength: 1 } }))).codeName).toBe('CommandNotSupported');
    expect(await c.findOne({ n: 'a' }, { collation: { locale: 'simple' } })).toMatchObject({ n: 'a' });
  });
});

describe('maxTimeMS', () => {
  it('stops a long read with MaxTimeMSExpired', async () => {
    const big = db.collection('big');
    for (let i = 0; i < 60_000; i += 10_000) await big.insertMany(Array.from({ length: 10_000 }, (_, j) => ({ i: i + j, pad: 'y'.repeat(40) })));
    const e = await failure(big.countDocuments({ pad: { $regex: 'z' } }, { maxTimeMS: 1 }));
    expect(e.codeName).toBe('MaxTimeMSExpired');
    expect(await big.countDocuments({ pad: { $regex: 'y' } }, { maxTimeMS: 60_000 })).toBe(60_000);
  });
});
