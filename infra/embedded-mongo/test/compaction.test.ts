// Background snapshots: compaction captures the state at one moment, seals the journal there and
// writes the snapshot in slices while clients keep reading and writing. The server must answer
// during it, and whatever a crash leaves at any moment (old snapshot + sealed segments + journal,
// or the new snapshot + journal) must restart to exactly the acknowledged state.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import type { Db, Document } from 'mongodb';
import { startCli, stopCli } from './cli.ts';
import type { CliServer } from './cli.ts';
import { removeTempDirs, startTestServer, tempDir } from './helpers.ts';

afterAll(() => removeTempDirs());

let cli: CliServer | undefined;
afterEach(async () => {
  await stopCli(cli, 'SIGKILL');
  cli = undefined;
});

const N = 100_000;

async function seed(db: Db, n = N): Promise<void> {
  const c = db.collection('big');
  await c.createIndex({ email: 1 }, { unique: true });
  await c.createIndex({ g: 1, _id: -1 });
  for (let i = 0; i < n; i += 10_000) {
    await c.insertMany(Array.from({ length: Math.min(10_000, n - i) }, (_, k) => ({ _id: i + k, email: `u${i + k}@example.kr`, g: (i + k) % 13, n: 0 }) as Document));
  }
}

/** Everything a restart must reproduce: the documents in _id order and an indexed answer. */
async function state(db: Db): Promise<unknown> {
  const c = db.collection('big');
  const docs = await c.find({}).sort({ _id: 1 }).toArray();
  const byIndex = await c.find({ g: 5 }).sort({ _id: -1 }).limit(20).toArray();
  const other = await db.collection('small').find({}).sort({ _id: 1 }).toArray();
  return { count: docs.length, docs, byIndex, other };
}

function sealedSegments(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => /^journal\.\d+\.sealed$/.test(f));
}

/** What a crash at this instant leaves (every acknowledged commit is fsync'd), without the lock. */
function crashCopy(from: string): string {
  const to = tempDir();
  for (const f of fs.readdirSync(from)) if (f !== 'embedded-mongo.lock' && !f.endsWith('.tmp')) fs.copyFileSync(path.join(from, f), path.join(to, f));
  return to;
}

describe('background compaction', () => {
  it('serves clients while the snapshot is written and restarts to the same state from any point', { timeout: 120_000 }, async () => {
    const dataDir = tempDir();
    const srv = await startTestServer({ dataDir });
    const client = await new MongoClient(srv.uri('app')).connect();
    const db = client.db('app');
    try {
      await seed(db);
      const c = db.collection('big');
      const compaction = srv.compact();
      let compacted = false;
      void compaction.then(() => (compacted = true));
      // Writes racing the snapshot: documents it has not reached yet are deleted, updated, their
      // unique keys moved, and new ones inserted; a small collection is created meanwhile.
      let answeredDuring = 0;
      let i = 0;
      let midCopy: string | undefined;
      let midState: unknown;
      while (!compacted || i < 40) {
        const id = N - 1 - i * 7;
        await c.deleteOne({ _id: id as never });
        await c.updateOne({ _id: (id - 1) as never }, { $set: { email: `moved${i}@example.kr` }, $inc: { n: 1 } });
        await c.insertOne({ _id: (N + i) as never, email: `u${id}@example.kr`, g: 5, n: i });
        await db.collection('small').insertOne({ _id: i as never, at: i });
        if (!compacted) answeredDuring++;
        i++;
        if (i === 1 && !compacted) {
          // Mid-snapshot: the sealed segment exists and the new snapshot is not in place yet.
          expect(sealedSegments(dataDir).length).toBe(1);
          midState = await state(db);
          midCopy = crashCopy(dataDir);
        }
      }
      await compaction;
      // The server answered between the snapshot's slices instead of after it.
      expect(answeredDuring).toBeGreaterThanOrEqual(1);
      expect(midCopy).toBeDefined();
      // The sealed segment is deleted once the snapshot covering it is durable.
      expect(sealedSegments(dataDir)).toEqual([]);
      const finalState = await state(db);
      const afterCopy = crashCopy(dataDir);

      for (const [dir, want] of [
        [midCopy!, midState],
        [afterCopy, finalState],
      ] as const) {
        const s2 = await startTestServer({ dataDir: dir });
        const c2 = await new MongoClient(s2.uri('app')).connect();
        try {
          expect(await state(c2.db('app'))).toEqual(want);
          // Unique keys moved during the snapshot are enforced as they were at the crash.
          await expect(c2.db('app').collection('big').insertOne({ email: 'moved0@example.kr' })).rejects.toMatchObject({ code: 11000 });
        } finally {
          await c2.close();
          await s2.close();
        }
      }
    } finally {
      await client.close();
      await srv.close();
    }
  });

  it('loses no acknowledged write when SIGKILLed while a background snapshot is being written', { timeout: 120_000 }, async () => {
    const dataDir = tempDir();
    // 1 MB of journal triggers a compaction of the whole collection, over and over under this load.
    cli = await startCli(['--port', '0', '--data-dir', dataDir, '--compact-bytes', '1000000']);
    const client = await new MongoClient(`mongodb://127.0.0.1:${cli.port}/app?directConnection=true`).connect();
    const db = client.db('app');
    await seed(db, 30_000);
    const c = db.collection('big');
    const present = new Map<number, number>();
    const deleted = new Set<number>();
    let stop = false;
    let next = 100_000;
    const worker = async (w: number): Promise<void> => {
      for (let k = 0; !stop; k++) {
        try {
          if (k % 3 === 2) {
            const id = w * 1000 + k;
            await c.deleteOne({ _id: id as never });
            deleted.add(id);
          } else if (k % 3 === 1) {
            const id = 20_000 + w * 1000 + k;
            await c.updateOne({ _id: id as never }, { $set: { n: k } });
            present.set(id, k);
          } else {
            const id = next++;
            await c.insertOne({ _id: id as never, email: `new${id}@example.kr`, g: 1, n: 1, pad: 'x'.repeat(200) });
            present.set(id, 1);
          }
        } catch {
          if (stop) return;
        }
      }
    };
    const workers = Array.from({ length: 6 }, (_, w) => worker(w));
    // Kill at a moment when a background snapshot is in progress (a sealed segment exists).
    const until = Date.now() + 60_000;
    let during = false;
    while (Date.now() < until) {
      if (sealedSegments(dataDir).length > 0 && present.size > 200) {
        during = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(during).toBe(true);
    cli.child.kill('SIGKILL');
    await new Promise((r) => cli!.child.once('exit', r));
    stop = true;
    await client.close(true).catch(() => undefined);
    await Promise.allSettled(workers);
    expect(cli.stdout()).toContain('"msg":"journal compacted"');

    cli = await startCli(['--port', '0', '--data-dir', dataDir]);
    const after = await new MongoClient(`mongodb://127.0.0.1:${cli.port}/app?directConnection=true`).connect();
    try {
      const docs = new Map((await after.db('app').collection('big').find({}, { projection: { n: 1 } }).toArray()).map((d) => [d['_id'] as unknown as number, d['n'] as number]));
      const lost = [...present].filter(([id, n]) => !deleted.has(id) && (docs.get(id) ?? -1) < n);
      expect(lost).toEqual([]);
      expect([...deleted].filter((id) => docs.has(id))).toEqual([]);
      // Untouched seed documents all survived.
      for (const id of [0, 5_999, 15_000, 29_999]) expect(docs.get(id) ?? 'missing').not.toBe('missing');
    } finally {
      await after.close();
    }
  });
});
