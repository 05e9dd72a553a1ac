// Orders per second through the whole saga, measured by wrk against POST /api/v2 with the panel-standard
// form body (`key=…&action=add&service=…&link=…&quantity=10`), at 1, 4 and 16 connections — the way
// the issue compares us with a PHP panel. Prints orders/s (answers 200 {"order": id} only), p50, p99,
// and the CPU each devstack process spent per order (from /proc, so it does not depend on what else
// the machine runs).
// Run: npm run bench:wrk -w @smm/bff      (needs `wrk`: apt-get install -y wrk)
//   BENCH_SECONDS (8 per run), BENCH_CONNECTIONS (1,4,16), BENCH_WARMUP_SECONDS (30, at 8
//   connections), BENCH_BFF_URL + BENCH_ADMIN_PASSWORD to use a running devstack (with
//   BENCH_DEVSTACK_PID, BENCH_MONGO_URL and BENCH_KAFKA_BROKERS, its CPU per process, commands per
//   order and saga stages too); BENCH_PROFILE_DIR=/tmp/prof writes a
//   V8 CPU profile of every process per run (open in Chrome DevTools or speedscope);
//   BENCH_STORED_ORDERS=1000000 first writes that many past orders (with their ledger entries,
//   forwards and the last week's outbox records) into the stack's MongoDB (see stored-history.ts);
//   BENCH_YARDSTICK=0 skips the machine yardstick printed before and after (see yardstick.ts), the
//   wake-up cost printed before, and the short yardstick taken just before each run.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { cpuRates, processTree, wakeupsPer } from './process-tree.ts';
import { type Examined, examinedIn, examinedPer } from './mongo-examined.ts';
import { fillHistory } from './stored-history.ts';
import { type Stack, prepareReseller, startDevstack } from './stack.ts';
import { describeWakeCost, describeYardstick, wakeCost, yardstick } from './yardstick.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,4,16').split(',').map(Number);
const STORED = Number(process.env.BENCH_STORED_ORDERS ?? 0);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 30);
const script = fileURLToPath(new URL('./v2-add.lua', import.meta.url));

type WrkResult = { requests: number; placed: number; seconds: number; p50: number; p90: number; p99: number; non2xx: number; socketErrors: number };

function wrk(url: string, connections: number, seconds: number, env: Record<string, string>): WrkResult {
  const run = spawnSync('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, url], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (run.error) throw new Error(`wrk did not run (${run.error.message}); install it: apt-get install -y wrk`);
  const line = /WRK (\{.*\})/.exec(run.stdout)?.[1];
  if (!line) throw new Error(`wrk printed no result:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line) as WrkResult;
}

// The machine's speed in the same minutes as the runs: before the stack starts, and after it stopped.
const measureMachine = process.env.BENCH_YARDSTICK !== '0';
if (measureMachine) console.log(`before: ${describeYardstick(await yardstick())}`);
if (measureMachine) console.log(`before: ${describeWakeCost(await wakeCost())}`);
const given = process.env.BENCH_BFF_URL;
const stack: Stack = given
  ? {
      bffUrl: given,
      orderUrl: undefined,
      adminPassword: process.env.BENCH_ADMIN_PASSWORD ?? '',
      // With these, a running devstack's figures come with CPU per process and MongoDB commands too.
      pid: process.env.BENCH_DEVSTACK_PID ? Number(process.env.BENCH_DEVSTACK_PID) : undefined,
      mongoUrl: process.env.BENCH_MONGO_URL,
      kafkaBrokers: process.env.BENCH_KAFKA_BROKERS,
      stop: async () => undefined,
    }
  : await startDevstack();
try {
  if (STORED > 0) {
    if (!stack.mongoUrl) throw new Error('BENCH_STORED_ORDERS needs the devstack this script starts (not BENCH_BFF_URL)');
    const h = await fillHistory(stack.mongoUrl, STORED);
    console.log(
      `stored history: ${h.orders} orders of ${h.members} members, ${h.ledgerEntries} ledger entries, ${h.forwards} forwards, ${h.outboxRecords} outbox records, written in ${h.seconds.toFixed(0)} s`,
    );
    // The database writes its snapshot and compacts its journal after such a fill: wait until the
    // stack is back near its idle floor (at most ten minutes) so the runs measure orders, not that.
    const settleStart = Date.now();
    for (let busy = Infinity; busy > 350 && Date.now() - settleStart < 600_000; ) {
      const heaviest = (await cpuRates(stack.pid!, 5)).rates.sort((a, b) => b.msPerSecond - a.msPerSecond);
      busy = heaviest.reduce((sum, p) => sum + p.msPerSecond, 0);
      console.log(`   settling: ${busy.toFixed(0)} ms CPU per second (${heaviest.slice(0, 2).map((p) => `${p.name} ${p.msPerSecond.toFixed(0)}`).join(', ')})`);
    }
  }
  const { serviceId, apiKey } = await prepareReseller(stack);
  const env = { BENCH_KEY: apiKey, BENCH_SERVICE: String(serviceId) };
  const url = `${stack.bffUrl}/api/v2`;
  // Warm-up: connection pools, caches and above all the JIT — at a few dozen orders a second V8 is
  // still optimizing functions a minute after start (order 33 -> 50 orders/s at one connection over
  // the first 60 s), so a short warm-up measures a half-compiled stack, not a running panel.
  wrk(url, 8, WARMUP_SECONDS, env);
  // What each process burns with no traffic (polls, fetch loops), so the per-order figures can
  // also be given net of it: at a low order rate that floor otherwise dominates them.
  const idle = new Map<number, number>();
  if (stack.pid) {
    const { rates, elapsed } = await cpuRates(stack.pid, IDLE_SECONDS);
    for (const p of rates) idle.set(p.pid, p.msPerSecond);
    const total = [...idle.values()].reduce((a, b) => a + b, 0);
    console.log(`idle CPU before the runs: ${total.toFixed(0)} ms per second over ${elapsed.toFixed(0)} s`);
  }
  console.log(`wrk -t1, ${SECONDS} s per run, POST /api/v2 action=add (form body)`);
  // MongoDB commands per order (serverStatus metrics.commands; deterministic, unlike time on a shared
  // machine): the driver's heartbeats and this probe are left out.
  const mongo = stack.mongoUrl ? await MongoClient.connect(stack.mongoUrl, { directConnection: true }) : undefined;
  const background = new Set(['hello', 'ismaster', 'isMaster', 'ping', 'serverStatus', 'endSessions', 'buildInfo', 'buildinfo']);
  // One serverStatus gives the command counts and the documents and index keys examined.
  const mongoCounts = async (): Promise<{ commands: Map<string, number>; examined: Examined | undefined }> => {
    const status = await mongo?.db('admin').command({ serverStatus: 1 });
    const commands = status?.metrics?.commands as Record<string, { total: unknown }> | undefined;
    return {
      commands: new Map(Object.entries(commands ?? {}).filter(([name]) => !background.has(name.split(':')[0]!)).map(([name, c]) => [name, Number(c.total)])),
      examined: status ? examinedIn(status) : undefined,
    };
  };
  let lastRunFrom = 0;
  for (const connections of CONNECTIONS) {
    // The VM's speed can halve within one script (5,030 requests/s before, 1,879 after, on
    // 2026-12-02): each run also gets a short yardstick of its own, beside the idle stack, just before.
    const beside = measureMachine ? await yardstick(3) : undefined;
    const { commands: commandsBefore, examined: examinedBefore } = await mongoCounts();
    const before = stack.pid ? processTree(stack.pid) : [];
    const profiled = process.env.BENCH_PROFILE_DIR ? before.filter((p) => p.name !== 'devstack') : [];
    for (const p of profiled) process.kill(p.pid, 'SIGUSR2');
    lastRunFrom = Date.now();
    const r = wrk(url, connections, SECONDS, env);
    for (const p of profiled) process.kill(p.pid, 'SIGUSR2');
    const after = stack.pid ? processTree(stack.pid) : [];
    const { commands: commandsAfter, examined: examinedAfter } = await mongoCounts();
    const refused = r.requests - r.placed;
    console.log(
      `${String(connections).padStart(2)} connections: ${(r.placed / r.seconds).toFixed(1).padStart(6)} orders/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms` +
        (refused > 0 ? `   (${refused} not placed: ${r.non2xx} non-2xx, ${r.socketErrors} socket errors)` : '') +
        (beside ? `   [yardstick just before: ${beside.perSecond.toFixed(0)} requests/s]` : ''),
    );
    if (after.length > 0 && r.placed > 0) {
      const perOrder = after
        .map((p) => ({ name: p.name, ms: (p.cpuMs - (before.find((b) => b.pid === p.pid)?.cpuMs ?? 0)) / r.placed }))
        .filter((p) => p.ms >= 0.05)
        .sort((a, b) => b.ms - a.ms);
      const total = perOrder.reduce((s, p) => s + p.ms, 0);
      console.log(`   CPU per order: ${perOrder.map((p) => `${p.name} ${p.ms.toFixed(2)}`).join(', ')} — total ${total.toFixed(2)} ms`);
      const net = after
        .map((p) => ({ name: p.name, ms: (p.cpuMs - (before.find((b) => b.pid === p.pid)?.cpuMs ?? 0) - (idle.get(p.pid) ?? 0) * r.seconds) / r.placed }))
        .filter((p) => p.ms >= 0.05)
        .sort((a, b) => b.ms - a.ms);
      const netTotal = net.reduce((s, p) => s + p.ms, 0);
      if (idle.size > 0) console.log(`   net of idle: ${net.map((p) => `${p.name} ${p.ms.toFixed(2)}`).join(', ')} — total ${netTotal.toFixed(2)} ms`);
      // Socket reads and writes are system calls, each dearer on a virtual machine than the JavaScript
      // around it: counted per order (idle included), they say how many round trips each process makes.
      const calls = after
        .map((p) => {
          const b = before.find((x) => x.pid === p.pid);
          return { name: p.name, reads: (p.reads - (b?.reads ?? 0)) / r.placed, writes: (p.writes - (b?.writes ?? 0)) / r.placed };
        })
        .filter((p) => p.reads + p.writes >= 0.5)
        .sort((a, b) => b.reads + b.writes - (a.reads + a.writes));
      const sum = calls.reduce((s, p) => s + p.reads + p.writes, 0);
      console.log(`   read/write system calls per order: ${calls.map((p) => `${p.name} ${p.reads.toFixed(1)}/${p.writes.toFixed(1)}`).join(', ')} — total ${sum.toFixed(1)}`);
      // Event-loop wake-ups: a process woken from idle does the same work at several times the CPU
      // it costs back to back on this VM (see wakeCost in yardstick.ts), so they say where batching is missing.
      const woken = wakeupsPer(before, after, r.placed);
      console.log(`   event-loop wake-ups per order: ${woken.map((p) => `${p.name} ${p.n.toFixed(1)}`).join(', ')} — total ${woken.reduce((s, p) => s + p.n, 0).toFixed(1)}`);
    }
    if (mongo && r.placed > 0) {
      const perOrder = [...commandsAfter]
        .map(([name, total]) => ({ name, n: (total - (commandsBefore.get(name) ?? 0)) / r.placed }))
        .filter((c) => c.n >= 0.05)
        .sort((a, b) => b.n - a.n);
      const total = perOrder.reduce((s, c) => s + c.n, 0);
      console.log(`   MongoDB commands per order: ${total.toFixed(1)} (${perOrder.map((c) => `${c.name} ${c.n.toFixed(2)}`).join(', ')})`);
    }
    if (examinedBefore && examinedAfter && r.placed > 0) console.log(`   ${examinedPer(examinedBefore, examinedAfter, r.placed)}`);
  }
  await mongo?.close();
  // Where the time of an order goes, stage by stage, in the last run (BENCH_STAGES=0 to skip).
  if (process.env.BENCH_STAGES !== '0' && stack.kafkaBrokers) {
    const stages = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./saga-stages.ts', import.meta.url))], { env: { ...process.env, KAFKA_BROKERS: stack.kafkaBrokers, ...(stack.dataDir !== undefined && { DATA_DIR: stack.dataDir }), STAGES_FROM: String(lastRunFrom) }, encoding: 'utf8' });
    console.log(stages.stdout.trim(), stages.stderr.trim());
  }
  const mongoUrl = process.env.BENCH_MONGO_URL ?? stack.mongoUrl;
  if (mongoUrl) {
    // Idle cost: documents the database examines per second with no traffic (the relays' and
    // schedulers' polls), which must not grow with the orders stored.
    const client = await MongoClient.connect(mongoUrl, { directConnection: true });
    try {
      const scanned = async () => Number((await client.db('admin').command({ serverStatus: 1 })).metrics.queryExecutor.scannedObjects);
      await new Promise((r) => setTimeout(r, 3000));
      const [from, t0] = [await scanned(), Date.now()];
      await new Promise((r) => setTimeout(r, 10_000));
      const rate = ((await scanned()) - from) / ((Date.now() - t0) / 1000);
      console.log(`idle: ${rate.toFixed(1)} scanned documents/s (serverStatus scannedObjects)`);
    } finally {
      await client.close();
    }
  }
} finally {
  await stack.stop();
}
if (measureMachine) console.log(`after: ${describeYardstick(await yardstick())}`);
