// Benchmark: one client, one operation at a time, against the CLI in its own process. Times each
// step of transactions shaped like the order service's placement (startTransaction, insertOne
// into `orders` with the service's seven indexes, insertMany of one record into `outbox` with its
// unique/pending/TTL indexes, commitTransaction; the services' options: the replica-set URL, no
// explicit write or read concern, retryable writes on), then plain round trips (ping, insertOne,
// updateOne by a unique key, findOne by a unique key). Prints p50/p90 per step and the server's
// CPU time per operation (/proc/<pid>/stat, all threads). Not a test.
// Run: node --import tsx bench/order-txn.ts
//   (BENCH_N=1000 rounds; BENCH_SERVER=<path to another checkout's src/main.ts> to compare;
//    BENCH_ROUNDS=2 repeats the whole series; BENCH_PROF=1 starts the server with --cpu-prof)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';

const N = Number(process.env['BENCH_N'] ?? 1000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 1);
const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.resolve(pkgDir, process.env['BENCH_SERVER'] ?? 'src/main.ts');
const dataDir = fs.mkdtempSync(path.join(process.env['BENCH_TMP'] ?? os.tmpdir(), 'emongo-ordertxn-'));
const nodeArgs = process.env['BENCH_PROF'] ? ['--cpu-prof', '--cpu-prof-dir', path.join(dataDir, 'prof')] : [];

const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', SERVER, '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], {
  cwd: path.dirname(path.dirname(SERVER)),
  stdio: ['ignore', 'pipe', 'inherit'],
});
process.on('exit', () => child.kill('SIGKILL'));
process.on('unhandledRejection', (e) => {
  console.error(e);
  process.exit(1);
});
let serverLog = '';
const port = await new Promise<number>((resolve, reject) => {
  child.stdout.on('data', (d: Buffer) => {
    serverLog += d.toString();
    const line = serverLog.split('\n').find((l) => l.includes('"msg":"listening"'));
    if (line) resolve(Number((JSON.parse(line) as { port: number }).port));
  });
  child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
});

/** CPU milliseconds the server process has used so far (utime + stime of all threads). */
function serverCpuMs(): number {
  const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // Clock ticks, 100 per second on Linux.
  return (Number(stat[11]) + Number(stat[12])) * 10;
}

const client = await new MongoClient(`mongodb://127.0.0.1:${port}/orders?replicaSet=rs0`, { maxPoolSize: 4 }).connect();
const db = client.db('orders');
const orders = db.collection<Record<string, unknown>>('orders');
const outbox = db.collection<Record<string, unknown>>('outbox');
const wallets = db.collection<{ userId: string; balanceDeci: number; version: number }>('wallets');
await db.createCollection('orders');
await db.createCollection('outbox');
const keys: Array<Record<string, 1 | -1>> = [
  { userId: 1, payment: 1, idBucket: -1, _id: -1 },
  { userId: 1, status: 1, idBucket: -1, _id: -1 },
  { payment: 1, idBucket: -1, _id: -1 },
  { status: 1, payment: 1, idBucket: -1, _id: -1 },
  { link: 1, payment: 1, idBucket: -1, _id: -1 },
  { serviceId: 1, payment: 1, idBucket: -1, _id: -1 },
];
for (const key of keys) await orders.createIndex(key);
await orders.createIndex({ autoOrderId: 1, run: 1 }, { unique: true, partialFilterExpression: { autoOrderId: { $type: 'number' } } });
await outbox.createIndex({ eventId: 1 }, { unique: true });
await outbox.createIndex({ pending: 1, _id: 1 });
await outbox.createIndex({ publishedAt: 1 }, { expireAfterSeconds: 7 * 24 * 3600 });
await wallets.createIndex({ userId: 1 }, { unique: true });
await wallets.insertMany(Array.from({ length: 100 }, (_, i) => ({ userId: `user-${i}`, balanceDeci: 1_000_000_000, version: 0 })));

function pct(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
}
function line(label: string, xs: number[], cpuMs?: number): void {
  const cpu = cpuMs === undefined ? '' : `   server CPU ${(cpuMs / xs.length).toFixed(2)} ms/op`;
  console.log(`${label.padEnd(34)} p50 ${pct(xs, 0.5).toFixed(2).padStart(6)} ms  p90 ${pct(xs, 0.9).toFixed(2).padStart(6)} ms  mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(2).padStart(6)} ms${cpu}`);
}

let nextId = 1;
function orderDoc(id: number): Record<string, unknown> {
  return {
    _id: id,
    idBucket: Math.floor(id / 1000),
    userId: `user-${id % 100}`,
    serviceId: 1,
    serviceText: 'Instagram followers',
    platformId: 1,
    link: `https://instagram.com/p/${id}`,
    amount: 10,
    unitPriceDeci: 12,
    chargeDeci: 120,
    payment: 'awaiting',
    status: null,
    source: 'api',
    createdAt: new Date(),
    paidAt: null,
    startCount: null,
    remains: 10,
    refundedDeci: 0,
    autoOrderId: null,
    run: null,
  };
}
function outboxDoc(id: number): Record<string, unknown> {
  return {
    eventId: `evt-${id}-${Math.random().toString(36).slice(2)}`,
    topic: 'order.events',
    event: { type: 'OrderPlaced', eventId: `order-${id}`, occurredAt: new Date().toISOString(), data: { orderId: id, kind: 'order', userId: `user-${id % 100}`, serviceId: 1, amount: 10, chargeDeci: 120 } },
    createdAt: new Date(),
    pending: true,
    publishedAt: null,
    attempts: 0,
  };
}

async function round(r: number): Promise<void> {
  console.log(`-- round ${r}: ${N} of each, one at a time (load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')})`);
  const steps = { insert: [] as number[], outbox: [] as number[], commit: [] as number[], total: [] as number[] };
  const session = client.startSession();
  let cpu0 = serverCpuMs();
  for (let i = 0; i < N; i++) {
    const id = nextId++;
    const t0 = performance.now();
    session.startTransaction();
    await orders.insertOne(orderDoc(id), { session });
    const t1 = performance.now();
    await outbox.insertMany([outboxDoc(id)], { session, ordered: true });
    const t2 = performance.now();
    await session.commitTransaction();
    const t3 = performance.now();
    steps.insert.push(t1 - t0);
    steps.outbox.push(t2 - t1);
    steps.commit.push(t3 - t2);
    steps.total.push(t3 - t0);
  }
  const txnCpu = serverCpuMs() - cpu0;
  await session.endSession();
  line('txn: insertOne orders', steps.insert);
  line('txn: insertMany outbox', steps.outbox);
  line('txn: commitTransaction', steps.commit);
  line('txn: total', steps.total, txnCpu);

  const single = async (label: string, op: (i: number) => Promise<unknown>): Promise<void> => {
    const xs: number[] = [];
    cpu0 = serverCpuMs();
    for (let i = 0; i < N; i++) {
      const t = performance.now();
      await op(i);
      xs.push(performance.now() - t);
    }
    line(label, xs, serverCpuMs() - cpu0);
  };
  await single('ping', () => db.command({ ping: 1 }));
  await single('insertOne (outbox shape)', (i) => outbox.insertOne(outboxDoc(1e9 + r * N + i)));
  await single('updateOne by unique key ($inc)', (i) => wallets.updateOne({ userId: `user-${i % 100}` }, { $inc: { balanceDeci: -1, version: 1 } }));
  await single('findOne by unique key', (i) => wallets.findOne({ userId: `user-${i % 100}` }));
}

console.log(`server ${path.relative(process.cwd(), SERVER)} pid ${child.pid}, data dir ${dataDir}`);
// Warm-up (JIT, first connections).
{
  const s = client.startSession();
  for (let i = 0; i < 200; i++) {
    const id = nextId++;
    s.startTransaction();
    await orders.insertOne(orderDoc(id), { session: s });
    await outbox.insertMany([outboxDoc(id)], { session: s });
    await s.commitTransaction();
    await wallets.findOne({ userId: `user-${i % 100}` });
  }
  await s.endSession();
}
for (let r = 1; r <= ROUNDS; r++) await round(r);
await client.close();
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
if (!process.env['BENCH_PROF']) fs.rmSync(dataDir, { recursive: true, force: true });
else console.log(`profile in ${path.join(dataDir, 'prof')}`);
