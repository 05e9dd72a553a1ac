// Benchmark: restart time (CLI spawn to its "listening" line) and the server's RSS afterwards, for
// N small documents with a unique and a compound index. Prints figures; not part of the test suite.
// Run: npm run bench:restart -w @smm/embedded-mongo   (BENCH_DOCS=1000000 BENCH_TAIL=1000)
// The documents are written through the driver into the CLI in its own process, which is then
// stopped with SIGTERM (a clean stop writes a snapshot); the first timed restart loads that
// snapshot. (Filling an in-process server instead left this process holding and releasing a 1 GB
// heap while the first restart was timed, which read about 1.5 s slower than the second restart of
// the same snapshot on a quiet machine.) BENCH_TAIL more documents are then written to the
// restarted CLI, which is SIGKILLed, so the second timed restart loads the same snapshot and
// replays the journal tail.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';

const N = Number(process.env['BENCH_DOCS'] ?? 200_000);
const TAIL = Number(process.env['BENCH_TAIL'] ?? 1000);
const BATCH = 10_000;
const main = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');
const dataDir = fs.mkdtempSync(path.join(process.env['BENCH_TMP'] ?? os.tmpdir(), 'emongo-restart-'));

function doc(i: number): Record<string, unknown> {
  return { email: `user${i}@example.kr`, userId: i % 5000, n: i };
}

async function fill(): Promise<void> {
  const srv = await startCli();
  const client = await new MongoClient(`mongodb://127.0.0.1:${srv.port}/?directConnection=true`).connect();
  const coll = client.db('bench').collection('users');
  await coll.createIndex({ email: 1 }, { unique: true });
  await coll.createIndex({ userId: 1, _id: -1 });
  const started = performance.now();
  for (let i = 0; i < N; i += BATCH) {
    await coll.insertMany(Array.from({ length: Math.min(BATCH, N - i) }, (_, j) => doc(i + j)));
  }
  console.log(`filled ${N} documents in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await client.close();
  const stopped = performance.now();
  await srv.kill('SIGTERM');
  console.log(`clean stop (SIGTERM, snapshot written) in ${((performance.now() - stopped) / 1000).toFixed(1)} s`);
}

interface Started {
  ms: number;
  rssMb: number;
  /** CPU seconds of the CLI (all threads) from spawn to its ready line: less swayed by the machine's load than wall time. */
  cpuS: number;
  port: number;
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

/** Starts the CLI and times it from spawn to its ready line; RSS is read from /proc after that. */
function startCli(): Promise<Started> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', main, '--port', '0', '--data-dir', dataDir, '--log-level', 'info'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"msg":"listening".*?"port":(\d+)|"port":(\d+).*?"msg":"listening"/.exec(out);
      if (!m) return;
      const replayed = out.split('\n').find((l) => l.includes('"msg":"journal replayed"'));
      if (replayed) console.log(`  server: ${replayed}`);
      const ms = performance.now() - started;
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      // utime + stime in clock ticks (100 per second on Linux).
      const cpuS = (Number(stat[11]) + Number(stat[12])) / 100;
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({
        ms,
        rssMb: rssKb / 1024,
        cpuS,
        port: Number(m[1] ?? m[2]),
        kill: (signal) =>
          new Promise((done, fail) => {
            child.removeAllListeners('exit');
            child.once('exit', (code, sig) => (signal === 'SIGTERM' && code !== 0 ? fail(new Error(`clean stop exited with ${code ?? sig}`)) : done()));
            child.kill(signal);
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

await fill();
const size = (f: string): string => (fs.existsSync(path.join(dataDir, f)) ? `${(fs.statSync(path.join(dataDir, f)).size / 1e6).toFixed(1)} MB` : 'none');
console.log(`snapshot ${size('snapshot.bson')}, journal ${size('journal.log')}`);

const first = await startCli();
console.log(`restart after clean shutdown: ${(first.ms / 1000).toFixed(2)} s to listening (CPU ${first.cpuS.toFixed(2)} s), RSS ${first.rssMb.toFixed(0)} MB`);
const client = await new MongoClient(`mongodb://127.0.0.1:${first.port}/?directConnection=true`).connect();
const coll = client.db('bench').collection('users');
for (let i = 0; i < TAIL; i += 100) await coll.insertMany(Array.from({ length: 100 }, (_, j) => doc(N + i + j)));
await client.close();
await first.kill('SIGKILL');
console.log(`after ${TAIL} more inserts and SIGKILL: journal ${size('journal.log')}`);

const second = await startCli();
const check = await new MongoClient(`mongodb://127.0.0.1:${second.port}/?directConnection=true`).connect();
const count = await check.db('bench').collection('users').countDocuments();
const found = await check.db('bench').collection('users').findOne({ email: `user${N + TAIL - 1}@example.kr` });
await check.close();
console.log(`restart after SIGKILL (snapshot + journal tail): ${(second.ms / 1000).toFixed(2)} s to listening (CPU ${second.cpuS.toFixed(2)} s), RSS ${second.rssMb.toFixed(0)} MB; ${count} documents, last tail write ${found ? 'present' : 'MISSING'}`);
await second.kill('SIGTERM');
fs.rmSync(dataDir, { recursive: true, force: true });
