// Orders through the whole saga: reseller POST /api/order (BFF → auth key resolve (cached) → order
// service → Kafka → wallet debit → Kafka → order), the web app's POST /api/service/order (a member's
// token and an Idempotency-Key per order, as the order screen sends them) and GET /api/services,
// against a devstack.
// Run: npm run bench:orders -w @smm/bff
//   BENCH_BFF_URL + BENCH_ADMIN_PASSWORD (+ BENCH_ORDER_URL, BENCH_DEVSTACK_PID for its CPU): use a
//   running devstack;
//   otherwise a devstack is started in a temporary DATA_DIR and stopped afterwards.
//   BENCH_SECONDS (15), BENCH_CONCURRENCY (32), BENCH_RATE (100 per second), BENCH_WARMUP_SECONDS
//   (30); BENCH_PROFILE_DIR as bench:wrk (a profile per process and run: <folder>-<pid>-<run>.cpuprofile).
//   Each scenario also prints the stack's CPU and event-loop wake-ups per request; BENCH_YARDSTICK=0
//   skips the machine's wake-up cost printed first (see wakeCost in yardstick.ts).
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { serviceAuthHeaders } from '@smm/platform';
import { examinedCounter, examinedPer } from './mongo-examined.ts';
import { processTree, wakeupsPer } from './process-tree.ts';
import { type Stack, call, must, prepareReseller, serviceSecret, startDevstack } from './stack.ts';
import { describeWakeCost, wakeCost } from './yardstick.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 30);

type Result = { latencies: number[]; statuses: Map<number, number>; seconds: number; cpu?: string; examined?: string };
const pct = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!);

function report(name: string, r: Result, accepted?: number) {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  const statuses = [...r.statuses].map(([s, n]) => `${s}×${n}`).join(' ');
  const ok = accepted ?? r.latencies.length;
  console.log(`${name.padEnd(58)} ${(ok / r.seconds).toFixed(1).padStart(7)} /s   p50 ${pct(sorted, 0.5).toFixed(1).padStart(6)} ms   p99 ${pct(sorted, 0.99).toFixed(1).padStart(7)} ms   [${statuses}]`);
  if (r.cpu) console.log(`   ${r.cpu}`);
  if (r.examined) console.log(`   ${r.examined}`);
}

/** Runs `scenario` with withProcessCpu, and says how many documents the stack's MongoDB examined per request. */
async function withCpu(scenario: () => Promise<Result>): Promise<Result> {
  const examinedBefore = await examined?.read();
  const r = await withProcessCpu(scenario);
  const examinedAfter = await examined?.read();
  const done = r.latencies.length;
  return examinedBefore && examinedAfter && done > 0 ? { ...r, examined: examinedPer(examinedBefore, examinedAfter, done, 'request') } : r;
}

/**
 * Runs `scenario` and, when the devstack's pid is known, says how busy the devstack's processes
 * (not this client) kept the machine meanwhile: the target "≤ 50 % of the two cores at 100/s".
 */
async function withProcessCpu(scenario: () => Promise<Result>): Promise<Result> {
  if (!stack.pid) return scenario();
  const before = processTree(stack.pid);
  // BENCH_PROFILE_DIR: a V8 profile of every process per run, as bench:wrk writes them.
  const profiled = process.env.BENCH_PROFILE_DIR ? before.filter((p) => p.name !== 'devstack') : [];
  for (const p of profiled) process.kill(p.pid, 'SIGUSR2');
  const r = await scenario();
  for (const p of profiled) process.kill(p.pid, 'SIGUSR2');
  const after = processTree(stack.pid);
  const used = after.map((p) => ({ name: p.name, ms: p.cpuMs - (before.find((b) => b.pid === p.pid)?.cpuMs ?? 0) }));
  const total = used.reduce((s, p) => s + p.ms, 0);
  const top = used.sort((a, b) => b.ms - a.ms).slice(0, 5);
  const share = (100 * total) / (r.seconds * 1000 * availableParallelism());
  const done = r.latencies.length;
  const woken = done > 0 ? wakeupsPer(before, after, done) : [];
  const wakeups = woken.reduce((s, p) => s + p.n, 0);
  return {
    ...r,
    cpu:
      `devstack CPU ${share.toFixed(0)} % of ${availableParallelism()} cores (${top.map((p) => `${p.name} ${((100 * p.ms) / (r.seconds * 1000)).toFixed(0)} %`).join(', ')})` +
      (done > 0 ? `\n   ${(total / done).toFixed(2)} ms CPU and ${wakeups.toFixed(1)} event-loop wake-ups per request (${woken.slice(0, 6).map((p) => `${p.name} ${p.n.toFixed(1)}`).join(', ')})` : ''),
  };
}

/** Closed loop: `concurrency` callers back to back for `seconds`. */
async function sustained(request: () => Promise<Response>, seconds: number, concurrency: number): Promise<Result> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        const res = await request();
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  return { latencies, statuses, seconds: (performance.now() - started) / 1000 };
}

/** Open loop: one request every 1/rate s whatever the answers do, so latency is not hidden by waiting. */
async function steady(request: () => Promise<Response>, seconds: number, rate: number): Promise<Result> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  const total = Math.round(seconds * rate);
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(
      (async () => {
        const t = performance.now();
        const res = await request();
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      })(),
    );
  }
  await Promise.all(pending);
  return { latencies, statuses, seconds: (performance.now() - started) / 1000 };
}

const given = process.env.BENCH_BFF_URL;
const stack: Stack = given
  ? {
      bffUrl: given,
      orderUrl: process.env.BENCH_ORDER_URL,
      adminPassword: process.env.BENCH_ADMIN_PASSWORD ?? '',
      pid: process.env.BENCH_DEVSTACK_PID ? Number(process.env.BENCH_DEVSTACK_PID) : undefined,
      stop: async () => undefined,
    }
  : await startDevstack();
const examined = await examinedCounter(stack.mongoUrl);
try {
  const api = `${stack.bffUrl}/api`;
  const { token, userId, serviceId, apiKey } = await prepareReseller(stack);
  const keyed = { 'api-key': apiKey, 'content-type': 'application/json' };
  let n = 0;
  const order = () => fetch(`${api}/order`, { method: 'POST', headers: keyed, body: JSON.stringify({ serviceId, link: `https://x.example/${n++}`, amount: 10 }) });
  const web = () =>
    fetch(`${api}/service/order`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ serviceId, link: `https://x.example/w${n++}`, amount: 10 }),
    });
  const services = () => fetch(`${api}/services`, { headers: { 'api-key': apiKey } });
  const direct = () =>
    fetch(`${stack.orderUrl}/orders?waitMs=5000`, { method: 'POST', headers: { 'content-type': 'application/json', ...serviceAuthHeaders(serviceSecret, { from: 'bench', to: 'order', userId, role: 'member' }) }, body: JSON.stringify({ serviceId, link: `https://x.example/d${n++}`, amount: 10, source: 'api' }) });

  console.log(`node ${process.version}; ${SECONDS} s per scenario; sustained = ${CONCURRENCY} concurrent callers; steady = ${RATE} requests/s open loop`);
  // What this machine charges for waking an idle process, beside the stack (BENCH_YARDSTICK=0 skips it).
  if (process.env.BENCH_YARDSTICK !== '0') console.log(describeWakeCost(await wakeCost(RATE)));
  // Warm-up (as bench:wrk): V8 keeps optimizing for a minute at a few dozen orders a second, so both
  // order routes run first; a short warm-up measures a half-compiled stack.
  await sustained(services, 2, 8);
  await sustained(order, (WARMUP_SECONDS * 2) / 3, 8);
  await sustained(web, WARMUP_SECONDS / 3, 8);
  const a = await withCpu(() => sustained(order, SECONDS, CONCURRENCY));
  report(`POST /api/order sustained (accepted orders/s)`, a, a.statuses.get(201) ?? 0);
  const b = await withCpu(() => steady(order, SECONDS, RATE));
  report(`POST /api/order steady ${RATE}/s`, b, b.statuses.get(201) ?? 0);
  const w = await withCpu(() => sustained(web, SECONDS, CONCURRENCY));
  report(`POST /api/service/order (web) sustained`, w, w.statuses.get(201) ?? 0);
  const ws = await withCpu(() => steady(web, SECONDS, RATE));
  report(`POST /api/service/order (web) steady ${RATE}/s`, ws, ws.statuses.get(201) ?? 0);
  if (stack.orderUrl) {
    const c = await withCpu(() => steady(direct, SECONDS, RATE));
    report(`order service POST /orders direct, steady ${RATE}/s (no BFF)`, c, c.statuses.get(201) ?? 0);
  }
  report('GET /api/services sustained', await withCpu(() => sustained(services, SECONDS, CONCURRENCY)));
  report(`GET /api/services steady ${RATE}/s`, await withCpu(() => steady(services, SECONDS, RATE)));
  const balance = must(await call(api, 'GET', '/auth/profile', { token }), 'profile');
  console.log(`balance left: ${String(balance.point)} won`);
} finally {
  await examined?.close();
  await stack.stop();
}
