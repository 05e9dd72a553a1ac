// What the devstack costs with no traffic at all (polls, consumers' fetch loops, timers), per process:
// CPU ms per second (/proc/<pid>/stat), event-loop wake-ups per second (the main thread's
// voluntary_ctxt_switches in /proc/<pid>/status) and resident memory (VmRSS) — after IDLE_ORDERS real
// orders placed through the reseller API (issue 42 measures the idle stack after 25,000), with
// BENCH_STORED_ORDERS past orders written into its MongoDB first (stored-history.ts; the 1,000,000-order
// check of "flat with data"). The load average is printed with every figure: the machine is shared.
// Run: npm run bench:idle -w @smm/bff
//   IDLE_SECONDS (60), IDLE_ORDERS (0), IDLE_CONNECTIONS (16, wrk connections placing them),
//   IDLE_SETTLE_SECONDS (20: start-up and order work settle first), BENCH_STORED_ORDERS (0),
//   BENCH_PROFILE_DIR as bench:wrk (a V8 CPU profile of every process over the idle window).
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { processTree } from './process-tree.ts';
import { fillHistory } from './stored-history.ts';
import { prepareReseller, startDevstack } from './stack.ts';

const seconds = Number(process.env.IDLE_SECONDS ?? 60);
const orders = Number(process.env.IDLE_ORDERS ?? 0);
const connections = Number(process.env.IDLE_CONNECTIONS ?? 16);
const settleSeconds = Number(process.env.IDLE_SETTLE_SECONDS ?? 20);
const stored = Number(process.env.BENCH_STORED_ORDERS ?? 0);
const script = fileURLToPath(new URL('./v2-add.lua', import.meta.url));
const load = () => `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const stack = await startDevstack();
try {
  console.log(`devstack ready (${load()})`);
  if (stored > 0) {
    const h = await fillHistory(stack.mongoUrl!, stored);
    console.log(`stored history: ${h.orders} orders, ${h.ledgerEntries} ledger entries, ${h.forwards} forwards, ${h.outboxRecords} outbox records in ${h.seconds.toFixed(0)} s (${load()})`);
  }
  if (orders > 0) {
    const { serviceId, apiKey } = await prepareReseller(stack);
    const env = { ...process.env, BENCH_KEY: apiKey, BENCH_SERVICE: String(serviceId) };
    const started = Date.now();
    let placed = 0;
    while (placed < orders) {
      // wrk runs for a duration: short runs until the count is reached (a little over it at most)
      const left = orders - placed;
      const run = spawnSync('wrk', ['-t1', `-c${connections}`, `-d${Math.max(2, Math.min(30, Math.ceil(left / 150)))}s`, '--timeout', '10s', '-s', script, `${stack.bffUrl}/api/v2`], { env, encoding: 'utf8' });
      if (run.error) throw new Error(`wrk did not run (${run.error.message}); install it: apt-get install -y wrk`);
      const line = /WRK (\{.*\})/.exec(run.stdout)?.[1];
      if (!line) throw new Error(`wrk printed no result:\n${run.stdout}\n${run.stderr}`);
      placed += (JSON.parse(line) as { placed: number }).placed;
    }
    console.log(`placed ${placed} orders through POST /api/v2 in ${((Date.now() - started) / 1000).toFixed(0)} s (${load()})`);
  }
  await sleep(settleSeconds * 1000); // start-up and order work (replays, first polls, marks, compactions) settle
  const before = processTree(stack.pid!);
  const profiled = process.env.BENCH_PROFILE_DIR ? before.filter((p) => p.name !== 'devstack') : [];
  for (const p of profiled) process.kill(p.pid, 'SIGUSR2');
  const loadBefore = load();
  const started = Date.now();
  await sleep(seconds * 1000);
  for (const p of profiled) process.kill(p.pid, 'SIGUSR2');
  const after = processTree(stack.pid!);
  const elapsed = (Date.now() - started) / 1000;
  const rows = after
    .map((p) => {
      const b = before.find((x) => x.pid === p.pid);
      return { name: p.name, pid: p.pid, cpu: (p.cpuMs - (b?.cpuMs ?? p.cpuMs)) / elapsed, wake: (p.wakeups - (b?.wakeups ?? p.wakeups)) / elapsed, rss: p.rssMb, pss: p.pssMb };
    })
    .sort((a, b) => b.cpu - a.cpu || b.rss - a.rss);
  console.log(`idle over ${elapsed.toFixed(0)} s after ${orders} orders${stored ? ` and ${stored} stored` : ''} (${loadBefore} before, ${load()} after):`);
  console.log('   process            CPU ms/s  wake-ups/s   RSS MB   PSS MB');
  for (const r of rows) console.log(`   ${`${r.name} (${r.pid})`.padEnd(20)} ${r.cpu.toFixed(1).padStart(7)} ${r.wake.toFixed(1).padStart(11)} ${r.rss.toFixed(0).padStart(8)} ${r.pss.toFixed(0).padStart(8)}`);
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0);
  console.log(`   total: ${rows.length} processes, ${sum((r) => r.cpu).toFixed(1)} ms CPU per second (${(sum((r) => r.cpu) / 20).toFixed(2)} % of two cores), ${sum((r) => r.wake).toFixed(1)} wake-ups per second, ${sum((r) => r.rss).toFixed(0)} MB RSS (${sum((r) => r.pss).toFixed(0)} MB PSS: shared pages counted once)`);
  if (stack.mongoUrl) {
    // Documents the database examines per second with no traffic: must not grow with the data.
    const client = await MongoClient.connect(stack.mongoUrl, { directConnection: true });
    try {
      const scanned = async () => Number((await client.db('admin').command({ serverStatus: 1 })).metrics.queryExecutor.scannedObjects);
      const [from, t0] = [await scanned(), Date.now()];
      await sleep(10_000);
      console.log(`   idle MongoDB scans: ${(((await scanned()) - from) / ((Date.now() - t0) / 1000)).toFixed(1)} documents/s (serverStatus scannedObjects)`);
    } finally {
      await client.close();
    }
  }
} finally {
  await stack.stop();
}
