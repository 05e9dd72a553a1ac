/**
 * Debit throughput of the wallet (`npm run bench -w @smm/wallet`).
 *
 * 1. handler: settleMoneyRequests called directly (no Kafka) with runs of 1 event (one transaction
 *    per debit: account update + ledger insert + outbox insert) and runs of 100 (what the payments
 *    consumer does under load: one transaction per fetched run).
 * 2. end to end: OrderPlaced events published to Kafka, consumed by the running wallet, PointDebited
 *    published by the outbox relay; timed from the first publish until the last PointDebited is on
 *    the wallet topic.
 * Then the ledger check runs over the whole database. Env: BENCH_ORDERS (default 2000), BENCH_USERS
 * (default 100).
 */
import { randomUUID } from 'node:crypto';
import { OrderPlaced, Topics, parseEvent, walletEvents } from '@smm/contracts';
import { EventProducer, createKafka, createLogger, listen } from '@smm/platform';
import { startInfra, testServiceSecret } from '@smm/testkit';
import { checkLedger } from '../src/ledger-check.ts';
import { settleMoneyRequests } from '../src/use-cases/settle-money-requests.ts';
import { startWalletService } from '../src/service.ts';

const orders = Number(process.env.BENCH_ORDERS ?? 2000);
const users = Number(process.env.BENCH_USERS ?? 100);
const logger = createLogger({ service: 'wallet-bench', level: 'warn' });

const infra = await startInfra();
const wallet = await startWalletService({ mongoUrl: infra.mongo.uri('wallet_bench'), kafkaBrokers: [infra.kafka.brokers], logger, serviceAuthSecret: testServiceSecret });
const server = await listen(wallet.app, 0);
const { store } = wallet;
let nextOrderId = 1;

/** Members with a funded account, each with the ledger entry that funded it (so the ledger check holds). */
async function members(count: number, balanceDeci: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `bench-${randomUUID().slice(0, 8)}`);
  const now = new Date();
  await store.accounts.model.insertMany(ids.map((_id) => ({ _id, balanceDeci, seq: 1, openedAt: now })));
  await store.ledger.model.insertMany(
    ids.map((userId) => ({ _id: `topup-seed-${userId}`, userId, seq: 1, deltaDeci: balanceDeci, balanceAfterDeci: balanceDeci, kind: 'credit', source: 'topup', createdAt: now })),
  );
  return ids;
}

const placed = (userId: string) =>
  OrderPlaced.create(`order-${nextOrderId}`, { orderId: nextOrderId++, kind: 'order', userId, serviceId: 1, amount: 100, runs: 0, interval: 0, chargeDeci: 250 }, { correlationId: randomUUID() });

async function handlerRate(run: number, count: number): Promise<number> {
  const ids = await members(users, 10_000_000);
  const events = Array.from({ length: count }, (_, i) => placed(ids[i % ids.length]!));
  const deps = { store, logger, relay: { kick() {} }, topUpExpirySeconds: 10_800 };
  const started = performance.now();
  for (let i = 0; i < events.length; i += run) {
    const decisions = await settleMoneyRequests(deps, events.slice(i, i + run));
    if (decisions.some((d) => d.type !== 'debited')) throw new Error('unexpected decision');
  }
  return count / ((performance.now() - started) / 1000);
}

async function endToEndRate(count: number): Promise<{ rate: number; seconds: number }> {
  const ids = await members(users, 10_000_000);
  const kafka = createKafka([infra.kafka.brokers], 'bench', logger);
  const producer = new EventProducer(kafka);
  await producer.connect();
  const wanted = new Set<number>();
  const events = Array.from({ length: count }, (_, i) => {
    const e = placed(ids[i % ids.length]!);
    wanted.add(e.data.orderId);
    return e;
  });
  const consumer = kafka.consumer({ groupId: `bench-${randomUUID()}` });
  await consumer.connect();
  await consumer.subscribe({ topics: [Topics.wallet], fromBeginning: false });
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  let seen = 0;
  await consumer.run({
    eachMessage: async ({ message }) => {
      const parsed = parseEvent(message.value, walletEvents);
      if (parsed.ok && parsed.event.type === 'PointDebited' && wanted.has(parsed.event.data.orderId)) {
        if (++seen === count) done();
      }
    },
  });
  await new Promise((r) => setTimeout(r, 3000)); // let the group join before timing
  const started = performance.now();
  for (let i = 0; i < events.length; i += 200) await producer.publish(Topics.order, events.slice(i, i + 200));
  await finished;
  const seconds = (performance.now() - started) / 1000;
  await consumer.disconnect();
  await producer.disconnect();
  return { rate: count / seconds, seconds };
}

try {
  const warm = await handlerRate(1, 200);
  const single = await handlerRate(1, Math.min(orders, 1000));
  const runs = await handlerRate(100, orders);
  const e2e = await endToEndRate(orders);
  const started = performance.now();
  const report = await checkLedger(store.connection);
  const checkMs = performance.now() - started;
  console.log(`warm-up (200 debits, one transaction each): ${warm.toFixed(0)} debits/s`);
  console.log(`handler, one transaction per debit (${Math.min(orders, 1000)} debits, ${users} members): ${single.toFixed(0)} debits/s`);
  console.log(`handler, runs of 100 per transaction (${orders} debits, ${users} members): ${runs.toFixed(0)} debits/s`);
  console.log(`end to end via Kafka (${orders} OrderPlaced → PointDebited on the topic): ${e2e.rate.toFixed(0)} debits/s (${e2e.seconds.toFixed(1)} s)`);
  console.log(`ledger check: ${report.ok ? 'OK' : 'FAILED'}, ${report.accounts} accounts, ${report.entries} entries, ${report.violations.length} violations, ${checkMs.toFixed(0)} ms`);
} finally {
  await server.close();
  await wallet.stop();
  await infra.stop();
}
