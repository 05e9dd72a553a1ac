/**
 * Benchmark: kafkajs producer/consumer against the broker CLI running as its own process.
 *   npm run bench -w @smm/embedded-kafka            (or: node --import tsx bench/throughput-latency.ts)
 * Prints figures; bounded (about 40 s). Not part of the test suite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import net from 'node:net';
import { Kafka, logLevel, type ISocketFactory } from 'kafkajs';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MESSAGE = Buffer.alloc(1024, 'x');
const EXTERNAL = process.argv.find((a) => a.startsWith('--brokers='))?.slice('--brokers='.length);
const ONLY = process.argv.includes('--latency-only') ? 'latency' : process.argv.includes('--throughput-only') ? 'throughput' : 'all';

/** kafkajs's default socket leaves Nagle on; small pipelined requests then wait for ACKs. */
const noDelaySocket: ISocketFactory = ({ host, port, onConnect }) => {
  const socket = net.connect({ host, port }, onConnect);
  socket.setNoDelay(true);
  socket.setKeepAlive(true, 60_000);
  return socket;
};

async function startBroker(extra: string[]): Promise<{ child: ChildProcess; brokers: string; dir: string; out: () => string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', '--port', '0', '--data-dir', dir, ...extra], {
    cwd: PACKAGE_DIR,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    const line = out.split('\n').find((l) => l.includes('"msg":"listening"'));
    if (line) return { child, brokers: `127.0.0.1:${(JSON.parse(line) as { port: number }).port}`, dir, out: () => out };
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`broker did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface RequestStats {
  requests: Record<string, { count: number; p50Ms: number; p99Ms: number; maxMs: number } | null>;
  fsync: { count: number; p50Ms: number; p99Ms: number; maxMs: number } | null;
}

/** Stops the broker and returns the timing summary it logs on close. */
async function stopBroker(b: { child: ChildProcess; dir: string; out: () => string }): Promise<RequestStats | null> {
  const exited = new Promise((r) => b.child.on('exit', r));
  b.child.kill('SIGTERM');
  await exited;
  fs.rmSync(b.dir, { recursive: true, force: true });
  const line = b.out().split('\n').find((l) => l.includes('"msg":"request stats"'));
  return line ? (JSON.parse(line) as RequestStats) : null;
}

function describeStats(s: RequestStats | null): string {
  if (!s) return '  (no broker stats)';
  const fmt = (name: string, v: { count: number; p50Ms: number; p99Ms: number; maxMs: number } | null | undefined) =>
    v ? `${name} n=${v.count} p50 ${v.p50Ms} ms p99 ${v.p99Ms} ms max ${v.maxMs} ms` : null;
  return [fmt('fdatasync', s.fsync), fmt('Produce', s.requests.Produce), fmt('OffsetCommit', s.requests.OffsetCommit)]
    .filter((x) => x !== null)
    .map((x) => `    broker: ${x}`)
    .join('\n');
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function throughput(brokers: string, inFlight: number, batches: number): Promise<{ msgPerSec: number; mbPerSec: number; ackP50: number; ackP99: number }> {
  const kafka = new Kafka({ clientId: 'bench', brokers: [brokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const topic = `tput-${inFlight}-${Date.now()}`;
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  await admin.disconnect();
  const producer = kafka.producer();
  await producer.connect();
  const batch = Array.from({ length: 100 }, (_, i) => ({ key: String(i), value: MESSAGE }));
  await producer.send({ topic, acks: -1, messages: batch }); // warm-up
  const acks: number[] = [];
  let next = 0;
  const start = performance.now();
  const worker = async () => {
    while (next < batches) {
      next++;
      const t = performance.now();
      await producer.send({ topic, acks: -1, messages: batch });
      acks.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = (performance.now() - start) / 1000;
  await producer.disconnect();
  acks.sort((a, b) => a - b);
  const msgs = batches * 100;
  return { msgPerSec: msgs / seconds, mbPerSec: (msgs * 1024) / seconds / 1e6, ackP50: percentile(acks, 50), ackP99: percentile(acks, 99) };
}

async function latency(brokers: string, rate: number, seconds: number, noDelay: boolean): Promise<{ sent: number; received: number; p50: number; p99: number; max: number; ackP99: number }> {
  const kafka = new Kafka({ clientId: 'bench-latency', brokers: [brokers], logLevel: logLevel.NOTHING, ...(noDelay ? { socketFactory: noDelaySocket } : {}) });
  const topic = `latency-${Date.now()}`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  await admin.disconnect();
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  const consumer = kafka.consumer({ groupId: `bench-${Date.now()}`, maxWaitTimeInMs: 500, minBytes: 1 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  let ready = false;
  consumer.on(consumer.events.GROUP_JOIN, () => (ready = true));
  await consumer.run({
    eachMessage: async ({ message }) => {
      const id = Number(message.key?.toString());
      const t = sentAt.get(id);
      if (t !== undefined) latencies.push(performance.now() - t);
    },
  });
  const joinDeadline = Date.now() + 30_000;
  while (!ready) {
    if (Date.now() > joinDeadline) throw new Error('consumer did not join its group within 30 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 500));

  const producer = kafka.producer();
  await producer.connect();
  const total = rate * seconds;
  const acks: number[] = [];
  const pending: Promise<unknown>[] = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const t = performance.now();
    sentAt.set(i, t);
    pending.push(producer.send({ topic, acks: -1, messages: [{ key: String(i), value: MESSAGE }] }).then(() => acks.push(performance.now() - t)));
  }
  await Promise.all(pending);
  const deadline = Date.now() + 10_000;
  while (latencies.length < total && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await producer.disconnect();
  await consumer.disconnect();
  latencies.sort((a, b) => a - b);
  acks.sort((a, b) => a - b);
  return { sent: total, received: latencies.length, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? NaN, ackP99: percentile(acks, 99) };
}

const f = (n: number, d = 1) => n.toFixed(d);

async function main(): Promise<void> {
  console.log(`embedded-kafka benchmark — node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, kafkajs 2.2.4, 1 KiB messages, broker in its own process`);
  if (EXTERNAL) {
    // Against a broker started separately (e.g. under --cpu-prof): one pass, its own fsync setting.
    const r = await throughput(EXTERNAL, 1, 400);
    console.log(`produce acks=-1 batches of 100, 1 in flight: ${f(r.msgPerSec, 0)} msg/s, ack p50 ${f(r.ackP50)} ms p99 ${f(r.ackP99)} ms`);
    const l = await latency(EXTERNAL, 1000, 10, false);
    console.log(`end-to-end 1000 msg/s x 10 s: p50 ${f(l.p50, 2)} ms, p99 ${f(l.p99, 2)} ms, max ${f(l.max, 1)} ms`);
    return;
  }
  const noDelay = process.argv.includes('--nodelay');
  for (const fsync of [true, false]) {
    const mode = fsync ? 'fsync on ' : 'fsync off';
    const flags = fsync ? [] : ['--no-fsync'];
    if (ONLY !== 'latency') {
      const b = await startBroker(flags);
      for (const inFlight of [1, 4]) {
        const r = await throughput(b.brokers, inFlight, 400);
        console.log(`produce acks=-1, batches of 100, ${inFlight} in flight, ${mode}: ${f(r.msgPerSec, 0)} msg/s (${f(r.mbPerSec)} MB/s), ack p50 ${f(r.ackP50)} ms p99 ${f(r.ackP99)} ms`);
      }
      console.log(describeStats(await stopBroker(b)));
    }
    if (ONLY !== 'throughput') {
      const b = await startBroker(flags);
      const l = await latency(b.brokers, 1000, 10, noDelay);
      console.log(
        `end-to-end at 1000 msg/s for 10 s, acks=-1, ${mode}${noDelay ? ', client noDelay' : ''}: received ${l.received}/${l.sent}, p50 ${f(l.p50, 2)} ms, p99 ${f(l.p99, 2)} ms, max ${f(l.max, 1)} ms; produce ack p99 ${f(l.ackP99, 2)} ms`,
      );
      console.log(describeStats(await stopBroker(b)));
    }
  }
}

await main();
