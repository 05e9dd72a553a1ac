// Benchmark: memory per stored document after a restart, and what reads cost, for small
// order-like documents with three secondary indexes. Prints figures; not part of the test suite.
// Run: npm run bench:memory -w @smm/embedded-mongo   (BENCH_DOCS=700000 BENCH_LOOKUPS=2000 BENCH_SERVER=src/main.ts)
// The documents are written through the driver into the CLI (its own process), which is stopped
// with SIGTERM (a clean stop writes a snapshot) and started again; RSS (from /proc) and the heap in
// use (serverStatus().mem) are read right after its ready line and again after 5 s of idling, and
// divided by the number of documents after subtracting what the same server holds with an empty
// data dir. Then: point lookups by _id and by a unique field (p50/p99 over BENCH_LOOKUPS), and
// whole-collection reads (a count that examines every document, a filtered find, a full read-back).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import type { Document, ObjectId } from 'mongodb';

const N = Number(process.env['BENCH_DOCS'] ?? 300_000);
const LOOKUPS = Number(process.env['BENCH_LOOKUPS'] ?? 2000);
const BATCH = 10_000;
const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = process.env['BENCH_SERVER'] ?? 'src/main.ts';
const dataDir = fs.mkdtempSync(path.join(process.env['BENCH_TMP'] ?? os.tmpdir(), 'emongo-memory-'));
const STATUSES = ['pending', 'processing', 'completed', 'canceled', 'partial'];
const BASE_MS = Date.UTC(2026, 0, 1);

function order(i: number): Document {
  return {
    orderNo: i,
    userId: `u${i % 5000}`,
    serviceId: i % 300,
    status: STATUSES[i % STATUSES.length],
    quantity: 100 + (i % 900),
    charge: 1500 * ((i % 7) + 1),
    link: `https://instagram.com/p/${(i * 7919).toString(36)}`,
    createdAt: new Date(BASE_MS + i * 1000),
  };
}

interface Cli {
  port: number;
  pid: number;
  startMs: number;
  cpuS: number;
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

function startCli(dir: string): Promise<Cli> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', SERVER, '--port', '0', '--data-dir', dir, '--log-level', 'info'], {
      cwd: pkgDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const onData = (d: Buffer): void => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (!line) return;
      child.stdout.off('data', onData);
      child.stdout.resume();
      const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      resolve({
        port: Number((JSON.parse(line) as { port: number }).port),
        pid: child.pid!,
        startMs: performance.now() - started,
        cpuS: (Number(stat[11]) + Number(stat[12])) / 100,
        kill: (signal) =>
          new Promise((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill(signal);
          }),
      });
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

async function heapMb(client: MongoClient): Promise<number> {
  const s = await client.db('admin').command({ serverStatus: 1 });
  return Number((s['mem'] as { heapUsedMb: number }).heapUsedMb);
}

function quantiles(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number): string => (s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0).toFixed(2);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`;
}

const load = (): string => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// What the server holds with no data, to subtract.
const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emongo-memory-empty-'));
const empty = await startCli(emptyDir);
const emptyClient = await new MongoClient(`mongodb://127.0.0.1:${empty.port}/?directConnection=true`).connect();
await sleep(2000);
const emptyRss = rssMb(empty.pid);
const emptyHeap = await heapMb(emptyClient);
await emptyClient.close();
await empty.kill('SIGTERM');
fs.rmSync(emptyDir, { recursive: true, force: true });
console.log(`load ${load()}; empty server: RSS ${emptyRss.toFixed(0)} MB, heap ${emptyHeap} MB`);

{
  const srv = await startCli(dataDir);
  const client = await new MongoClient(`mongodb://127.0.0.1:${srv.port}/?directConnection=true`).connect();
  const coll = client.db('bench').collection('orders');
  await coll.createIndex({ orderNo: 1 }, { unique: true });
  await coll.createIndex({ userId: 1, createdAt: -1 });
  await coll.createIndex({ status: 1, createdAt: -1 });
  const t = performance.now();
  for (let i = 0; i < N; i += BATCH) await coll.insertMany(Array.from({ length: Math.min(BATCH, N - i) }, (_, j) => order(i + j)));
  console.log(`filled ${N} order-like documents (3 secondary indexes) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await client.close();
  await srv.kill('SIGTERM');
}
const sizeMb = (f: string): number => (fs.existsSync(path.join(dataDir, f)) ? fs.statSync(path.join(dataDir, f)).size / 1e6 : 0);
console.log(`on disk: snapshot ${sizeMb('snapshot.bson').toFixed(1)} MB, journal ${sizeMb('journal.log').toFixed(1)} MB`);

const srv = await startCli(dataDir);
const rss0 = rssMb(srv.pid);
const client = await new MongoClient(`mongodb://127.0.0.1:${srv.port}/?directConnection=true`).connect();
const heap0 = await heapMb(client);
await sleep(5000);
const rss5 = rssMb(srv.pid);
const heap5 = await heapMb(client);
const per = (mb: number, base: number): string => `${(((mb - base) * 1048576) / N).toFixed(0)} B`;
console.log(`restart: ${(srv.startMs / 1000).toFixed(2)} s to listening (CPU ${srv.cpuS.toFixed(2)} s); load ${load()}`);
console.log(`  at ready:  RSS ${rss0.toFixed(0)} MB (${per(rss0, emptyRss)} per document), heap ${heap0} MB (${per(heap0, emptyHeap)} per document)`);
console.log(`  after 5 s: RSS ${rss5.toFixed(0)} MB (${per(rss5, emptyRss)} per document), heap ${heap5} MB (${per(heap5, emptyHeap)} per document)`);

const coll = client.db('bench').collection('orders');
const picks = Array.from({ length: LOOKUPS }, (_, k) => Math.floor(((k * 2654435761) % 4294967296) / 4294967296 * N));
const ids = (await coll.find({ orderNo: { $in: picks.slice(0, 500) } }, { projection: { _id: 1 } }).toArray()).map((d) => d['_id'] as ObjectId);
const byId: number[] = [];
const byKey: number[] = [];
for (let k = 0; k < LOOKUPS; k++) {
  let t = performance.now();
  const a = await coll.findOne({ _id: ids[k % ids.length] });
  byId.push(performance.now() - t);
  t = performance.now();
  const b = await coll.findOne({ orderNo: picks[k] });
  byKey.push(performance.now() - t);
  if (!a || !b || b['orderNo'] !== picks[k]) throw new Error('lookup answered wrong');
}
console.log(`findOne by _id: ${quantiles(byId)}; by unique orderNo: ${quantiles(byKey)}; load ${load()}`);
for (let round = 0; round < 2; round++) {
  let t = performance.now();
  const c = await coll.countDocuments({ link: { $regex: 'zzzz' } });
  const countMs = performance.now() - t;
  t = performance.now();
  const f = await coll.find({ status: 'completed', quantity: { $mod: [100, 7] } }).toArray();
  const filterMs = performance.now() - t;
  t = performance.now();
  let all = 0;
  for await (const d of coll.find({})) if (d) all++;
  const fullMs = performance.now() - t;
  console.log(
    `scan ${round + 1}: count examining all ${N} ${countMs.toFixed(0)} ms (${c}); indexed status + $mod ${filterMs.toFixed(0)} ms (${f.length}); full read-back ${fullMs.toFixed(0)} ms (${all}); load ${load()}`,
  );
}
console.log(`after reads: RSS ${rssMb(srv.pid).toFixed(0)} MB, heap ${await heapMb(client)} MB`);
await client.close();
await srv.kill('SIGTERM');
fs.rmSync(dataDir, { recursive: true, force: true });
