import { autoOrderHistory, orderHistory } from '../src/use-cases/read-orders.ts';
import { type Order, idBucketOf, storedOrders } from '../src/store/models.ts';
import { type Store, orderIdSequence } from '../src/store/store.ts';

/** `rows` paid orders of one member (statuses 0–5 mixed), every 10th id another member's. */
export async function seedHistory(store: Store, userId: string, rows: number): Promise<void> {
  const base = 1_000_000;
  const batch = 2_000;
  const others = Math.ceil(rows / 9);
  for (let start = 0; start < rows + others; start += batch) {
    const docs: Order[] = [];
    for (let i = start; i < Math.min(start + batch, rows + others); i++) {
      const mine = i % 10 !== 9;
      docs.push({
        _id: base + i,
        idBucket: idBucketOf(base + i),
        userId: mine ? userId : `other-${i % 50}`,
        serviceId: 1,
        serviceText: '인스타그램 좋아요',
        platformId: 1,
        link: 'https://www.instagram.com/p/x',
        amount: 100,
        unitPriceDeci: 25,
        chargeDeci: 2500,
        payment: 'paid',
        status: Math.floor(i / 10) % 6,
        startCount: null,
        remains: 100,
        refundedDeci: 0,
        autoOrderId: null,
        run: null,
        source: 'web',
        createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
        paidAt: new Date(Date.UTC(2026, 0, 1) + i * 1000),
      });
    }
    await storedOrders(store.connection).orders.insertMany(docs, { ordered: false, lean: true });
  }
  await storedOrders(store.connection).counters.updateOne({ _id: orderIdSequence }, { $max: { seq: base + rows + others } }, { upsert: true });
}

/** The query without id windows, for comparison. */
export async function plainPage(store: Store, userId: string): Promise<number> {
  return (await storedOrders(store.connection).orders.find({ userId, payment: 'paid' }).sort({ _id: -1 }).limit(21).lean()).length;
}

export type Timing = { name: string; ms: number; items: number; firstId: number | undefined; text: string };

/** Median of 5 runs (after one warm-up) for the pages members open most. */
export async function timePages(store: Store, userId: string): Promise<Timing[]> {
  const probes: Array<[string, () => Promise<{ items: Array<{ id: number }> }>]> = [
    ['page 1, all statuses', () => orderHistory(store, userId, undefined, { page: 1, pageSize: 20 })],
    ['page 1, status 2', () => orderHistory(store, userId, 2, { page: 1, pageSize: 20 })],
    ['page 1 without id windows (plain sort, for comparison)', async () => ({ items: Array.from({ length: await plainPage(store, userId) }, () => ({ id: 0 })) })],
    ['page 50, all statuses', () => orderHistory(store, userId, undefined, { page: 50, pageSize: 20 })],
    ['auto-order history page 1 (empty)', () => autoOrderHistory(store, userId, undefined, { page: 1, pageSize: 20 })],
  ];
  const out: Timing[] = [];
  for (const [name, probe] of probes) {
    await probe();
    const times: number[] = [];
    let last: { items: Array<{ id: number }> } = { items: [] };
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      last = await probe();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const ms = Math.round(times[2]! * 10) / 10;
    out.push({ name, ms, items: last.items.length, firstId: last.items[0]?.id, text: `${name}: ${ms} ms (median of 5), ${last.items.length} items` });
  }
  return out;
}
