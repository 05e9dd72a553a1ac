// Benchmark: latency of short operations (ping + _id lookup on a small collection) while other
// clients run long scans over a big collection, and then while the journal is compacted over and
// over (each compaction snapshots the whole big collection; a writer keeps the journal growing).
// The server runs in its own process (the CLI), so the figures are the server's, not this
// client's event loop. Prints p50/p99/max; not a test.
// Run: node --import tsx bench/stalls.ts
//   (BENCH_DOCS=200000 BENCH_SECONDS=10 BENCH_SCANNERS=2 BENCH_COMPACT_BYTES=4000000 BENCH_SERVER=src/main.ts
//    BENCH_COMPACTIONS=0: skip the compaction phase; BENCH_SCAN=filter|full: `full` scanners read the whole collection back, find({}).toArray(), each
//    in a process of its own so decoding 200,000 documents does not stall this one's measurements)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';

const DOCS = Number(process.env['BENCH_DOCS'] ?? 200_000);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const SCANNERS = Number(process.env['BENCH_SCANNERS'] ?? 2);
const COMPACT_BYTES = Number(process.env['BENCH_COMPACT_BYTES'] ?? 4_000_000);
const SCAN = process.env['BENCH_SCAN'] ?? 'filter';
/** Another server entry point (e.g. an older checkout's src/main.ts) to compare with. */
const SERVER = process.env['BENCH_SERVER'] ?? 'src/main.ts';

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emongo-stalls-'));
const child = spawn(process.execPath, ['--import', 'tsx', SERVER, '--port', '0', '--data-dir', dataDir, '--log-level', 'info', '--compact-bytes', String(COMPACT_BYTES)], {
  cwd: pkgDir,
  stdio: ['ignore', 'pipe', 'inherit'],
});
// The server goes with this process, also when the benchmark fails half-way.
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
const url = `mongodb://127.0.0.1:${port}/stalls?replicaSet=rs0`;
const scanClient = await new MongoClient(url, { maxPoolSize: SCANNERS + 1 }).connect();
const shortClient = await new MongoClient(url, { maxPoolSize: 2 }).connect();
const db = scanClient.db('stalls');

const big = db.collection('big');
for (let i = 0; i < DOCS; i += 10_000) {
  await big.insertMany(
    Array.from({ length: Math.min(10_000, DOCS - i) }, (_, j) => ({ n: i + j, kind: `k${(i + j) % 97}`, pad: 'x'.repeat(40) })),
    { ordered: false },
  );
}
const small = shortClient.db('stalls').collection<{ _id: number; v: number }>('small');
await small.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: i, v: i })));
console.log(`server pid ${child.pid}: ${DOCS} documents in 'big', ${SCANNERS} clients scanning it, short ops for ${SECONDS} s`);

function stats(label: string, xs: number[]): void {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number): string => (s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0).toFixed(1);
  console.log(`${label.padEnd(34)} n=${String(s.length).padStart(6)}  p50 ${at(0.5).padStart(7)} ms  p99 ${at(0.99).padStart(7)} ms  max ${at(1).padStart(7)} ms`);
}

/** Latencies, and when each operation started and ended (epoch ms, to match the server's log). */
const spans: Array<{ start: number; end: number; ms: number }> = [];
/** The last run's latencies of each kind (pings, lookups), besides the pairs it returns. */
let parts = { ping: [] as number[], findOne: [] as number[] };
async function shortOps(until: number): Promise<number[]> {
  const lat: number[] = [];
  parts = { ping: [], findOne: [] };
  let i = 0;
  while (Date.now() < until) {
    const start = Date.now();
    const t = performance.now();
    await shortClient.db('admin').command({ ping: 1 });
    const t1 = performance.now();
    await small.findOne({ _id: i++ % 100 });
    const ms = performance.now() - t;
    parts.ping.push(t1 - t);
    parts.findOne.push(performance.now() - t1);
    lat.push(ms);
    spans.push({ start, end: Date.now(), ms });
  }
  return lat;
}
const load = (): string => os.loadavg().map((x) => x.toFixed(2)).join(' ');

console.log(`load average ${load()}`);
stats('ping + _id lookup, idle', await shortOps(Date.now() + 2000));
stats('  ping alone, idle', parts.ping);
stats('  findOne alone, idle', parts.findOne);
let running = true;
const scanTimes: number[] = [];
const fullReader = `import { MongoClient } from 'mongodb';
const c = await new MongoClient(process.argv[1]).connect();
const big = c.db('stalls').collection('big');
while (!process.exitCode) { const t = performance.now(); await big.find({}).toArray(); console.log(performance.now() - t); }`;
const readers =
  SCAN === 'full'
    ? Array.from({ length: SCANNERS }, () => {
        const p = spawn(process.execPath, ['--input-type=module', '-e', fullReader, url], { cwd: pkgDir, stdio: ['ignore', 'pipe', 'inherit'] });
        p.stdout.on('data', (d: Buffer) => scanTimes.push(...d.toString().trim().split('\n').map(Number)));
        return p;
      })
    : [];
const scanners = Array.from({ length: SCAN === 'full' ? 0 : SCANNERS }, async (_, k) => {
  while (running) {
    const t = performance.now();
    // Unindexed filters: each examines every document; `full` also sends every document back.
    if (SCAN === 'full') await big.find({}).toArray();
    else if (k % 2 === 0) await big.countDocuments({ pad: { $regex: 'zz' } });
    else await big.find({ kind: 'k5', n: { $mod: [1000, 7] } }).toArray();
    scanTimes.push(performance.now() - t);
  }
});
const during = await shortOps(Date.now() + SECONDS * 1000);
running = false;
for (const r of readers) r.kill('SIGTERM');
await Promise.all(scanners);
stats('ping + _id lookup, during scans', during);
stats('  ping alone, during scans', parts.ping);
stats('  findOne alone, during scans', parts.findOne);
console.log(`load average ${load()}`);
stats(`full scans of ${DOCS} documents`, scanTimes);
if (process.env['BENCH_COMPACTIONS'] === '0') {
  // Scans only: no compaction phase.
  await scanClient.close();
  await shortClient.close();
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

// Compactions: a writer appends 200 KB inserts, so the journal passes COMPACT_BYTES every few
// seconds and each pass snapshots the whole big collection while short operations continue.
const logged = (): Array<{ time: number; ms: number; background?: boolean }> =>
  serverLog
    .split('\n')
    .filter((l) => l.includes('"msg":"journal compacted"'))
    .map((l) => JSON.parse(l) as { time: number; ms: number; background?: boolean });
const compactionsBefore = logged().length;
spans.length = 0;
let writing = true;
const writer = (async () => {
  const logColl = db.collection('log');
  while (writing) await logColl.insertMany(Array.from({ length: 100 }, () => ({ pad: 'y'.repeat(2000) })));
})();
await shortOps(Date.now() + SECONDS * 1000);
writing = false;
await writer;
await new Promise((r) => setTimeout(r, 200));
const windows = logged()
  .slice(compactionsBefore)
  .map((c) => ({ from: c.time - c.ms, to: c.time, ms: c.ms }));
const inWindow = (s: { start: number; end: number }): boolean => windows.some((w) => s.end >= w.from && s.start <= w.to);
const overlapping = spans.filter(inWindow).map((s) => s.ms);
const between = spans.filter((s) => !inWindow(s)).map((s) => s.ms);
const compactMs = windows.map((w) => w.ms).sort((a, b) => a - b);
console.log(`${windows.length} compactions of ${DOCS}+ documents, each ${compactMs[0] ?? '-'}–${compactMs.at(-1) ?? '-'} ms`);
stats('ping + _id lookup, during compaction', overlapping);
stats('ping + _id lookup, writes, no compaction', between);
await scanClient.close();
await shortClient.close();
child.kill('SIGTERM');
await new Promise((r) => child.on('exit', r));
fs.rmSync(dataDir, { recursive: true, force: true });
