// Whole-saga throughput with each part in its own process, as the devstack runs them: embedded
// MongoDB, embedded Kafka, the order service (src/main.ts); the stand-in wallet (one transaction per
// debit, like the real one) and the load generator in this process. Besides orders/s it reports
// the CPU time each process spent per order, which does not depend on what else the machine runs:
// 2 cores ÷ (CPU ms per order) is the throughput two free cores would give.
//   node --import tsx bench/saga-processes.ts     BENCH_ORDERS=3000 BENCH_CONCURRENCY=128
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { OrderPlaced, PointDebited, ServiceUpserted, Topics } from '@smm/contracts';
import { EventProducer, OutboxRelay, appendToOutbox, connectMongo, createKafka, createLogger, handleOnce } from '@smm/platform';
import { runConcurrentConsumer } from '../src/events/concurrent-consumer.ts';

const total = Number(process.env.BENCH_ORDERS ?? 3000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 128);
const members = 500;
const logger = createLogger({ service: 'order-bench', level: 'silent' });
const root = fileURLToPath(new URL('../../..', import.meta.url));
const children: ChildProcess[] = [];

function start(dir: string, args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; port: number; url?: string }> {
  // BENCH_PROFILE=<dir> writes a CPU profile of the order service there.
  const profile = process.env.BENCH_PROFILE && dir === 'services/order' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/main.ts', ...args], { cwd: join(root, dir), env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of out.split('\n')) {
        if (!line.includes('"listening"')) continue;
        const record = JSON.parse(line) as { port: number; url?: string };
        resolve({ child, port: record.port, ...(record.url ? { url: record.url } : {}) });
      }
      if (out.length > 100_000) out = out.slice(-10_000);
    });
    child.once('exit', (code) => reject(new Error(`${dir} exited with ${code}`)));
  });
}

/** user + system CPU time of a process so far, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks (100/s)
}

const kafkaDir = mkdtempSync(join(tmpdir(), 'order-bench-kafka-'));
try {
  const mongo = await start('infra/embedded-mongo', ['--port', '0', '--log-level', 'warn']);
  const kafka = await start('infra/embedded-kafka', ['--port', '0', '--data-dir', kafkaDir, '--no-fsync', '--default-partitions', '3']);
  const mongoUrl = (db: string) => `mongodb://127.0.0.1:${mongo.port}/${db}?replicaSet=rs0`;
  const brokers = `127.0.0.1:${kafka.port}`;
  const order = await start('services/order', [], { HOST: '127.0.0.1', PORT: '0', MONGO_URL: mongoUrl('order'), KAFKA_BROKERS: brokers, LOG_LEVEL: 'info' });
  const base = `http://127.0.0.1:${order.port}`;

  const walletDb = await connectMongo(mongoUrl('wallet_bench'), logger, 'wallet-bench');
  const accounts = walletDb.collection<{ _id: string; balanceDeci: number }>('accounts');
  await accounts.insertMany(Array.from({ length: members }, (_, i) => ({ _id: `u${i}`, balanceDeci: 1e12 })));
  const k = createKafka([brokers], 'wallet-bench', logger);
  const producer = new EventProducer(k);
  await producer.connect();
  const relay = new OutboxRelay({ connection: walletDb, producer, logger, intervalMs: 100 });
  relay.start();
  const wallet = await runConcurrentConsumer({
    kafka: k,
    groupId: 'wallet-bench',
    topics: [Topics.order],
    definitions: [OrderPlaced] as const,
    ignore: ['OrderAccepted', 'OrderRejected', 'OrderStatusChanged', 'AutoOrderRunPlaced', 'AutoOrderCompleted', 'AutoOrderCanceled', 'RefundRequested'],
    producer,
    logger,
    handle: async (event) => {
      const d = event.data;
      await handleOnce(walletDb, 'wallet-bench', event, async (session) => {
        const after = await accounts.findOneAndUpdate({ _id: d.userId }, { $inc: { balanceDeci: -d.chargeDeci } }, { session, returnDocument: 'after' });
        const debited = PointDebited.create(
          `account-${d.userId}`,
          { userId: d.userId, kind: d.kind, orderId: d.orderId, amountDeci: d.chargeDeci, balanceAfterDeci: Number(after?.balanceDeci ?? 0) },
          { correlationId: event.correlationId, causationId: event.eventId },
        );
        await appendToOutbox(walletDb, session, Topics.wallet, [debited]);
      });
      relay.kick();
    },
  });
  await producer.publish(Topics.catalog, [
    ServiceUpserted.create('service-1', { serviceId: 1, text: '벤치', platformId: 1, categoryId: 1, min: 1, max: 100000, unitPriceDeci: 25, enableAuto: true, isReadOnly: false, visible: true }, { correlationId: randomUUID() }),
  ]);

  const place = async (i: number) => {
    const res = await fetch(`${base}/orders?waitMs=30000`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-user-id': `u${i % members}` },
      body: JSON.stringify({ serviceId: 1, link: 'https://a', amount: 10 }),
    });
    await res.text();
    return res.status;
  };
  // The catalogue replica fills from the topic: wait for the first order to be accepted.
  for (let tries = 0; (await place(0)) !== 201; tries++) {
    if (tries > 300) throw new Error('order never accepted');
    await new Promise((r) => setTimeout(r, 200));
  }

  const run = async (count: number, label: string) => {
    const pids = { mongo: mongo.child.pid!, kafka: kafka.child.pid!, order: order.child.pid!, 'bench (wallet stand-in + load)': process.pid };
    const before = Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, cpuMs(pid)]));
    let next = 0;
    const statuses = new Map<number, number>();
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const i = next++;
          const t = performance.now();
          const status = await place(i);
          latencies.push(performance.now() - t);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const p = (q: number) => Math.round(latencies[Math.floor(q * (latencies.length - 1))]!);
    const perOrder = Object.entries(pids).map(([n, pid]) => [n, (cpuMs(pid) - before[n]!) / count] as const);
    const sum = perOrder.reduce((a, [, v]) => a + v, 0);
    console.log(`${label}: ${count} orders, concurrency ${concurrency}: ${Math.round(count / seconds)} orders/s end to end (${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(statuses))}; p50 ${p(0.5)} ms, p95 ${p(0.95)} ms)`);
    console.log(`  CPU per order: ${perOrder.map(([n, v]) => `${n} ${v.toFixed(2)} ms`).join(', ')}; total ${sum.toFixed(2)} ms → ${Math.round(2000 / sum)} orders/s on 2 free cores`);
  };
  await run(Math.min(500, total), 'warm-up');
  await run(total, 'measured');
  console.log(`load average at the end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);

  await wallet.stop();
  await relay.stop();
  await producer.disconnect();
  await walletDb.close();
} finally {
  for (const child of children.reverse()) child.kill('SIGTERM');
  await Promise.race([Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))), new Promise((r) => setTimeout(r, 15_000))]);
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(kafkaDir, { recursive: true, force: true });
}
