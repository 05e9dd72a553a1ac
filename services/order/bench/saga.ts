// Whole-saga throughput: POST /orders → OrderPlaced → (stand-in wallet: one transaction per debit,
// like the real one) → PointDebited → order paid → 201. Everything in one process on embedded
// Kafka and MongoDB, so the figure is what this machine does with all parts sharing its cores.
//   node --import tsx bench/saga.ts            BENCH_ORDERS=3000 BENCH_CONCURRENCY=64
import { randomUUID } from 'node:crypto';
import { OrderPlaced, PointDebited, ServiceUpserted, Topics } from '@smm/contracts';
import { EventProducer, OutboxRelay, appendToOutbox, connectMongo, createKafka, createLogger, handleOnce, listen } from '@smm/platform';
import { eventually, startInfra } from '@smm/testkit';
import { runConcurrentConsumer } from '../src/events/concurrent-consumer.ts';
import { startOrderService } from '../src/order-service.ts';

export const hops = { placedToWallet: [] as number[], walletTx: [] as number[], debitedSeen: [] as number[], acceptedAfterDebit: [] as number[] };
const debitedAt = new Map<string, number>();
const spans = new Map<number, { start: number; end: number }>();
const total = Number(process.env.BENCH_ORDERS ?? 3000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);
const members = 200;
const logger = createLogger({ service: 'order-bench', level: process.env.BENCH_LOG ?? 'silent' });

const infra = await startInfra();
const order = await startOrderService({ mongoUrl: infra.mongo.uri('order_bench'), kafkaBrokers: [infra.kafka.brokers], logger, idBlock: Number(process.env.ORDER_ID_BLOCK ?? 1) });
const server = await listen(order.app, 0);
const base = `http://127.0.0.1:${server.port}`;

// Stand-in wallet: debit in one transaction with the processed-event mark and the outbox record.
const walletDb = await connectMongo(infra.mongo.uri('wallet_bench'), logger, 'wallet-bench');
const accounts = walletDb.collection('accounts');
await accounts.insertMany(Array.from({ length: members }, (_, i) => ({ _id: `u${i}` as unknown as never, balanceDeci: 1e12 })));
const kafka = createKafka([infra.kafka.brokers], 'wallet-bench', logger);
const producer = new EventProducer(kafka);
await producer.connect();
const relay = new OutboxRelay({ connection: walletDb, producer, logger, intervalMs: 100 });
relay.start();
// Handled like order handles its answers: concurrently across accounts, in order within one.
const consumer = await runConcurrentConsumer({
  kafka,
  groupId: 'wallet-bench',
  topics: [Topics.order],
  definitions: [OrderPlaced] as const,
  ignore: ['OrderAccepted', 'OrderRejected', 'OrderStatusChanged', 'AutoOrderRunPlaced', 'AutoOrderCompleted', 'AutoOrderCanceled', 'RefundRequested'],
  producer,
  logger,
  handle: async (event) => {
    hops.placedToWallet.push(Date.now() - Date.parse(event.occurredAt));
    const data = event.data;
    const txStart = Date.now();
    await handleOnce(walletDb, 'wallet-bench', event, async (session) => {
      const after = await accounts.findOneAndUpdate({ _id: data.userId as unknown as never }, { $inc: { balanceDeci: -data.chargeDeci } }, { session, returnDocument: 'after' });
      const debited = PointDebited.create(`account-${data.userId}`, { userId: data.userId, kind: data.kind, orderId: data.orderId, amountDeci: data.chargeDeci, balanceAfterDeci: Number(after?.balanceDeci ?? 0) }, { correlationId: event.correlationId, causationId: event.eventId });
      await appendToOutbox(walletDb, session, Topics.wallet, [debited]);
    });
    hops.walletTx.push(Date.now() - txStart);
    relay.kick();
  },
});

// Observers: when PointDebited reaches Kafka consumers, and when OrderAccepted follows it.
const observer = kafka.consumer({ groupId: 'bench-observer' });
await observer.connect();
await observer.subscribe({ topics: [Topics.wallet, Topics.order], fromBeginning: false });
await observer.run({
  eachMessage: async ({ message }) => {
    const event = JSON.parse(message.value!.toString()) as { eventId: string; type: string; occurredAt: string; causationId: string | null };
    if (event.type === 'PointDebited') {
      hops.debitedSeen.push(Date.now() - Date.parse(event.occurredAt));
      debitedAt.set(event.eventId, Date.parse(event.occurredAt));
    }
    if (event.type === 'OrderAccepted' && event.causationId && debitedAt.has(event.causationId)) {
      hops.acceptedAfterDebit.push(Date.parse(event.occurredAt) - debitedAt.get(event.causationId)!);
    }
  },
});

await producer.publish(Topics.catalog, [
  ServiceUpserted.create('service-1', { serviceId: 1, text: '벤치', platformId: 1, categoryId: 1, min: 1, max: 100000, unitPriceDeci: 25, enableAuto: true, isReadOnly: false, visible: true }, { correlationId: randomUUID() }),
]);
await eventually(() => order.store.product(1), (p) => p !== null, 30_000);

async function run(count: number, label: string) {
  let next = 0;
  const outcomes = new Map<number, number>();
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t = performance.now();
        const res = await fetch(`${base}/orders?waitMs=30000`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-user-id': `u${i % members}` },
          body: JSON.stringify({ serviceId: 1, link: 'https://a', amount: 10 }),
        });
        const body = JSON.parse(await res.text()) as { order?: { id: number } };
        if (body.order) spans.set(body.order.id, { start: Date.now() - (performance.now() - t), end: Date.now() });
        latencies.push(performance.now() - t);
        outcomes.set(res.status, (outcomes.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q: number) => Math.round(latencies[Math.floor(q * (latencies.length - 1))]!);
  console.log(
    `${label}: ${count} orders, concurrency ${concurrency}: ${Math.round(count / seconds)} orders/s accepted end to end ` +
      `(${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries(outcomes))}; latency p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, p99 ${p(0.99)} ms)`,
  );
}

try {
  await run(Math.min(300, total), 'warm-up');
  await run(total, 'measured');
  const docs = await order.store.orders.find({ _id: { $in: [...spans.keys()] } }, { createdAt: 1, paidAt: 1 }).lean();
  const split = { requestToCreated: [] as number[], createdToPaid: [] as number[], paidToAnswer: [] as number[] };
  for (const d of docs) {
    const span = spans.get(d._id)!;
    split.requestToCreated.push(d.createdAt.getTime() - span.start);
    split.createdToPaid.push(d.paidAt!.getTime() - d.createdAt.getTime());
    split.paidToAnswer.push(span.end - d.paidAt!.getTime());
  }
  for (const [name, values] of Object.entries({ ...hops, ...split })) {
    const h = values.sort((a, b) => a - b);
    console.log(`${name}: p50 ${h[Math.floor(h.length / 2)]} ms, p95 ${h[Math.floor(h.length * 0.95)]} ms (${h.length})`);
  }
} finally {
  await observer.disconnect();
  await consumer.stop();
  await relay.stop();
  await producer.disconnect();
  await walletDb.close();
  await server.close();
  await order.stop();
  await infra.stop();
}
