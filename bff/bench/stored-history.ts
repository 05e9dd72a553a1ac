// A panel's history written straight into the devstack's MongoDB, so the benchmarks can measure
// the order path with as many orders stored as a busy panel holds (issue 13: the same figures with
// 1,000,000 orders already stored). What every paid order leaves behind is written as the services
// write it: the order (completed) in `order.orders`, its debit in `wallet.ledger_entries` (each
// member's chain starts with one top-up credit, and the account's balance and seq match the chain,
// so `npm run ledger:check -w @smm/wallet` still holds), its forward (closed) in
// `fulfillment.forwards`, and for the orders of the last seven days — what the outbox keeps before
// its TTL removes published records — OrderPlaced, OrderAccepted and PointDebited as published
// outbox records. The order id sequence is moved past the history, so new orders follow it.
import { randomUUID } from 'node:crypto';
import { type EventEnvelope, OrderAccepted, OrderPlaced, PointDebited, Topics, causedBy } from '@smm/contracts';
import { type Db, MongoClient } from 'mongodb';

const BATCH = 5000;
const DAY_MS = 86_400_000;
/** How far back the history reaches; the last seven days of it also sit in the outboxes. */
const SPAN_DAYS = 180;
const OUTBOX_DAYS = 7;
const STATUS_COMPLETED = 2;
const UNIT_PRICE_DECI = 10;

export type HistoryReport = { orders: number; members: number; ledgerEntries: number; forwards: number; outboxRecords: number; seconds: number };

/**
 * Writes `orders` past orders of `members` synthetic members (`history-0001`, … — a thousand orders
 * each by default) and moves the order id sequence to the last of them. Run it before the first
 * order is placed (the sequence must not have handed out ids yet).
 */
export async function fillHistory(mongoUrl: string, orders: number, members = Math.max(10, Math.round(orders / 1000))): Promise<HistoryReport> {
  const client = await MongoClient.connect(mongoUrl, { directConnection: true });
  const started = performance.now();
  try {
    const db = (name: string): Db => client.db(name);
    const counter = await db('order').collection<{ _id: string; seq: number }>('counters').findOne({ _id: 'order-id' });
    if ((counter?.seq ?? 0) > 0) throw new Error('orders were placed already: fill the history into a fresh devstack');
    const now = Date.now();
    const from = now - SPAN_DAYS * DAY_MS;
    const outboxFrom = now - OUTBOX_DAYS * DAY_MS;
    const userOf = (id: number) => `history-${String(id % members).padStart(4, '0')}`;
    const amountOf = (id: number) => 100 + ((id * 7919) % 900);
    const createdOf = (id: number) => new Date(from + Math.floor(((now - 60_000 - from) * id) / orders));

    // Each member's chain: seq 1 a top-up covering all their orders and 10,000 won left, then one
    // debit per order in id order.
    const spent = new Map<string, number>();
    const counts = new Map<string, number>();
    for (let id = 1; id <= orders; id++) {
      spent.set(userOf(id), (spent.get(userOf(id)) ?? 0) + amountOf(id) * UNIT_PRICE_DECI);
      counts.set(userOf(id), (counts.get(userOf(id)) ?? 0) + 1);
    }
    const balance = new Map<string, number>();
    const seq = new Map<string, number>();
    const leftDeci = 100_000;
    const credits = [...spent].map(([userId, total]) => {
      balance.set(userId, total + leftDeci);
      seq.set(userId, 1);
      return { _id: `topup-${userId}`, userId, seq: 1, deltaDeci: total + leftDeci, balanceAfterDeci: total + leftDeci, kind: 'credit', source: 'topup', createdAt: new Date(from - DAY_MS) };
    });
    await db('wallet').collection('ledger_entries').insertMany(credits as never[]);
    await db('wallet')
      .collection('point_accounts')
      .bulkWrite(
        [...spent.keys()].map((userId) => ({
          updateOne: { filter: { _id: userId }, update: { $set: { balanceDeci: leftDeci, seq: 1 + counts.get(userId)! }, $setOnInsert: { openedAt: new Date(from - 2 * DAY_MS) } }, upsert: true },
        })) as never[],
      );

    let outboxRecords = 0;
    for (let first = 1; first <= orders; first += BATCH) {
      const ids = Array.from({ length: Math.min(BATCH, orders - first + 1) }, (_, i) => first + i);
      const orderDocs = [];
      const entries = [];
      const forwards = [];
      const orderOutbox = [];
      const walletOutbox = [];
      for (const id of ids) {
        const userId = userOf(id);
        const amount = amountOf(id);
        const chargeDeci = amount * UNIT_PRICE_DECI;
        const createdAt = createdOf(id);
        const serviceId = 1 + (id % 20);
        const link = `https://www.instagram.com/p/history${id}`;
        orderDocs.push({
          _id: id,
          idBucket: Math.floor(id / 100),
          userId,
          serviceId,
          serviceText: `인스타그램 좋아요 ${serviceId}`,
          platformId: 1,
          link,
          amount,
          unitPriceDeci: UNIT_PRICE_DECI,
          chargeDeci,
          payment: 'paid',
          status: STATUS_COMPLETED,
          startCount: 1000 + (id % 5000),
          remains: 0,
          refundedDeci: 0,
          autoOrderId: null,
          run: null,
          source: id % 3 === 0 ? 'web' : 'api',
          createdAt,
          paidAt: createdAt,
          statusReason: null,
        });
        const after = balance.get(userId)! - chargeDeci;
        const position = seq.get(userId)! + 1;
        balance.set(userId, after);
        seq.set(userId, position);
        entries.push({ _id: `order-${id}`, userId, seq: position, deltaDeci: -chargeDeci, balanceAfterDeci: after, kind: 'debit', source: 'order', createdAt });
        const correlationId = randomUUID();
        forwards.push({
          _id: id,
          userId,
          productId: serviceId,
          link,
          amount,
          source: 'order',
          state: 'closed',
          providerId: 1,
          providerServiceId: String(serviceId),
          attempts: 1,
          nextAttemptAt: createdAt,
          claimedBy: null,
          claimedAt: createdAt,
          sentAt: createdAt,
          providerOrderId: String(500_000 + id),
          reference: `order-${id}`,
          unknownResends: 0,
          note: null,
          providerStatus: 'Completed',
          status: STATUS_COMPLETED,
          startCount: 1000 + (id % 5000),
          remains: 0,
          syncedAt: createdAt,
          orderPatch: null,
          cancelRequestedAt: null,
          correlationId,
          createdAt,
          updatedAt: createdAt,
        });
        if (createdAt.getTime() >= outboxFrom) {
          const origin = { correlationId };
          const placed = OrderPlaced.create(`order-${id}`, { orderId: id, kind: 'order', userId, serviceId, amount, runs: 0, interval: 0, chargeDeci }, origin, createdAt);
          const debited = PointDebited.create(`account-${userId}`, { userId, kind: 'order', orderId: id, amountDeci: chargeDeci, balanceAfterDeci: after }, causedBy(placed), createdAt);
          const accepted = OrderAccepted.create(`order-${id}`, { orderId: id, kind: 'order', userId, runs: 0, interval: 0, serviceId, link, amount }, causedBy(debited), createdAt);
          const record = (topic: string, event: EventEnvelope) => ({ eventId: event.eventId, topic, event, createdAt, publishedAt: createdAt, attempts: 0 });
          orderOutbox.push(record(Topics.order, placed), record(Topics.order, accepted));
          walletOutbox.push(record(Topics.wallet, debited));
        }
      }
      outboxRecords += orderOutbox.length + walletOutbox.length;
      await Promise.all([
        db('order').collection('orders').insertMany(orderDocs as never[], { ordered: false }),
        db('wallet').collection('ledger_entries').insertMany(entries as never[], { ordered: false }),
        db('fulfillment').collection('forwards').insertMany(forwards as never[], { ordered: false }),
        orderOutbox.length > 0 ? db('order').collection('outbox').insertMany(orderOutbox, { ordered: false }) : undefined,
        walletOutbox.length > 0 ? db('wallet').collection('outbox').insertMany(walletOutbox, { ordered: false }) : undefined,
      ]);
    }
    await db('order')
      .collection<{ _id: string; seq: number }>('counters')
      .updateOne({ _id: 'order-id' }, { $max: { seq: orders } }, { upsert: true });
    return { orders, members: spent.size, ledgerEntries: orders + credits.length, forwards: orders, outboxRecords, seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.close();
  }
}
