// Benchmark: inserts/s, indexed findOne/s at 1,000 and 100,000 documents, and committed
// two-write transactions/s. Prints figures; not part of the test suite.
// Run: npm run bench -w @smm/embedded-mongo   (or: node --import tsx bench/throughput.ts)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '../src/index.ts';

const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
// BENCH_URL points at an already running server (e.g. the CLI in another process); otherwise the
// server runs in this process, sharing its event loop with the client.
const external = process.env['BENCH_URL'];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emongo-bench-'));
const srv = external ? undefined : await startEmbeddedMongo({ port: 0, dataDir });
const client = await new MongoClient(external ?? srv!.uri('bench'), { maxPoolSize: CONCURRENCY }).connect();
const db = client.db('bench');
await db.dropDatabase();
console.log(external ? `server: ${external} (separate process)` : 'server: in-process, journaled to a temp dir');

async function timed(label: string, total: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) await op(next++);
    }),
  );
  const rate = total / ((performance.now() - started) / 1000);
  console.log(`${label.padEnd(48)} ${Math.round(rate).toString().padStart(8)} /s  (${total} ops, concurrency ${CONCURRENCY})`);
  return rate;
}

const users = db.collection('users');
await users.createIndex({ email: 1 }, { unique: true });
await timed('insertOne (unique index, journaled)', 3000, (i) => users.insertOne({ email: `u${i}@example.kr`, n: i }));

async function fill(coll: string, count: number): Promise<void> {
  const c = db.collection(coll);
  await c.createIndex({ key: 1 }, { unique: true });
  for (let i = 0; i < count; i += 5000) {
    const batch = Array.from({ length: Math.min(5000, count - i) }, (_, j) => ({ key: `k${i + j}`, v: i + j, pad: 'x'.repeat(64) }));
    await c.insertMany(batch, { ordered: false });
  }
}

await fill('small', 1_000);
await fill('large', 100_000);
// Alternate the two sizes over several rounds and compare medians, so load from other processes
// on a shared machine does not masquerade as a difference between the collections.
const smallRates: number[] = [];
const largeRates: number[] = [];
for (let round = 1; round <= 3; round++) {
  smallRates.push(await timed(`findOne by indexed key @ 1,000 docs (round ${round})`, 3000, (i) => db.collection('small').findOne({ key: `k${(i * 7919) % 1_000}` })));
  largeRates.push(await timed(`findOne by indexed key @ 100,000 docs (round ${round})`, 3000, (i) => db.collection('large').findOne({ key: `k${(i * 7919) % 100_000}` })));
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const small = median(smallRates);
const large = median(largeRates);
console.log(`${'findOne @ 1,000 docs, median'.padEnd(48)} ${Math.round(small).toString().padStart(8)} /s`);
console.log(`${'findOne @ 100,000 docs, median'.padEnd(48)} ${Math.round(large).toString().padStart(8)} /s`);
console.log(`${'ratio 100k/1k (1.0 = flat)'.padEnd(48)} ${(large / small).toFixed(2).padStart(8)}`);

const accounts = db.collection('accounts');
await accounts.insertMany(Array.from({ length: 1000 }, (_, i) => ({ _id: i as never, balance: 1_000_000 })));
await timed('transactions committed (2 writes each)', 1500, async (i) => {
  const s = client.startSession();
  try {
    await s.withTransaction(async () => {
      const a = (i * 2) % 1000;
      await accounts.updateOne({ _id: a as never }, { $inc: { balance: -1 } }, { session: s });
      await accounts.updateOne({ _id: (a + 1) as never }, { $inc: { balance: 1 } }, { session: s });
    });
  } finally {
    await s.endSession();
  }
});

await client.close();
await srv?.close();
fs.rmSync(dataDir, { recursive: true, force: true });
