import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import mongoose from 'mongoose';
import { OrderAccepted, Topics } from '@smm/contracts';
import { EventProducer, createKafka, createLogger } from '@smm/platform';
import { type MainProcess, killMains, spawnMain, startInfra, testServiceSecret } from '@smm/testkit';

/**
 * How long fulfillment takes to come back after a crash (issue 41): its `main.ts` as a child
 * process on the embedded servers, SIGKILLed (it never leaves its consumer group), then started
 * again. Prints, per round: the time to `listening` (HTTP answers, the console's order list shows
 * forwarding again) and the time until a paid order published right after the restart has its
 * forward record (the consumer group rebalanced and the new member consumes). Then the same after
 * a clean stop (SIGTERM: the member leaves the group, nothing to wait for).
 *
 *   npm run bench:restart -w @smm/fulfillment        (BENCH_ROUNDS, default 3)
 */
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const logger = createLogger({ service: 'bench-restart', level: 'warn' });

const infra = await startInfra();
const database = `fulfillment_restart_${randomUUID().slice(0, 8)}`;
const mongo = await mongoose.createConnection(infra.mongo.uri(database)).asPromise();
const producer = new EventProducer(createKafka([infra.kafka.brokers], 'bench-restart', logger));
await producer.connect();
const env = {
  PORT: '0',
  MONGO_URL: infra.mongo.uri(database),
  KAFKA_BROKERS: infra.kafka.brokers,
  // Nothing here calls order or catalog: the paid orders below are of products without a provider (manual).
  ORDER_SERVICE_URL: 'http://127.0.0.1:9',
  CATALOG_SERVICE_URL: 'http://127.0.0.1:9',
  FULFILLMENT_KEY_SECRET: 'bench-secret-that-is-long-enough-0123456789',
  SERVICE_AUTH_SECRET: testServiceSecret,
  LOG_LEVEL: 'info',
};

let nextOrder = 700_000;
/** Publishes a paid order and resolves with the ms until its forward record exists. */
async function paidOrderTaken(since: number): Promise<number> {
  const orderId = ++nextOrder;
  await producer.publish(Topics.order, [OrderAccepted.create(`order-${orderId}`, { orderId, kind: 'order', userId: 'm-bench', runs: 0, interval: 0, serviceId: 1, link: 'https://instagram.com/p/bench', amount: 10 }, { correlationId: `bench-${orderId}` })]);
  const forwards = mongo.db!.collection('forwards');
  for (;;) {
    if (await forwards.findOne({ _id: orderId as never })) return Date.now() - since;
    if (Date.now() - since > 120_000) throw new Error(`order ${orderId} not taken within 120 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function start(): Promise<{ main: MainProcess; listeningMs: number; takenMs: number }> {
  const began = Date.now();
  const main = spawnMain(packageDir, env);
  const taken = paidOrderTaken(began);
  await main.waitFor('listening', 120_000);
  const listeningMs = Date.now() - began;
  if (process.env.BENCH_VERBOSE) setTimeout(() => console.log(main.records().map((r) => `  +${Number(r.time) - began} ms ${String(r.msg)}`).join('\n')), 20_000).unref();
  return { main, listeningMs, takenMs: await taken };
}

try {
  let running = (await start()).main; // first start: the group is created, nothing to wait for
  const rows: string[] = [];
  for (let i = 1; i <= rounds; i++) {
    running.child.kill('SIGKILL');
    await running.exited;
    const after = await start();
    rows.push(`after SIGKILL ${i}: listening in ${(after.listeningMs / 1000).toFixed(1)} s, a paid order taken ${(after.takenMs / 1000).toFixed(1)} s after the start`);
    running = after.main;
  }
  for (let i = 1; i <= rounds; i++) {
    running.child.kill('SIGTERM');
    await running.exited;
    const after = await start();
    rows.push(`after SIGTERM ${i}: listening in ${(after.listeningMs / 1000).toFixed(1)} s, a paid order taken ${(after.takenMs / 1000).toFixed(1)} s after the start`);
    running = after.main;
  }
  running.child.kill('SIGTERM');
  await running.exited;
  for (const row of rows) console.log(row);
} finally {
  killMains();
  await producer.disconnect();
  await mongo.close();
  await infra.stop();
}
