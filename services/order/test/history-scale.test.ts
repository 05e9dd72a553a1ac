import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo } from '@smm/embedded-mongo';
import { type Connection, connectMongo } from '@smm/platform';
import { orderView } from '../src/use-cases/views.ts';
import { newestFirst } from '../src/store/newest-first.ts';
import { orderHistory } from '../src/use-cases/read-orders.ts';
import { storedOrders } from '../src/store/models.ts';
import { type Store, createStore } from '../src/store/store.ts';
import { plainPage, seedHistory, timePages } from './history-seed.ts';
import { logger } from './support.ts';

let mongo: Awaited<ReturnType<typeof startEmbeddedMongo>>;
let connection: Connection;
let store: Store;

beforeAll(async () => {
  mongo = await startEmbeddedMongo({ port: 0 });
  connection = await connectMongo(mongo.uri('order_scale'), logger, 'order-scale');
  store = await createStore(connection);
  await seedHistory(store, 'heavy', 50_000);
}, 180_000);

afterAll(async () => {
  await connection?.close();
  await mongo?.close();
});

describe('history of a member with 50,000 orders', () => {
  it('reads page 1 from the newest id ranges, faster than sorting every row', async () => {
    const timings = await timePages(store, 'heavy');
    for (const t of timings) console.log(`[history 50k] ${t.text}`);
    const windowed = timings.find((t) => t.name === 'page 1, all statuses')!;
    const plain = timings.find((t) => t.name.startsWith('page 1 without'))!;
    expect(windowed.items).toBe(20);
    expect(windowed.firstId).toBe(1_055_555);
    // Robust on a loaded machine: the windowed read must clearly beat the full sort.
    expect(windowed.ms).toBeLessThan(plain.ms);
  }, 120_000);

  it('answers exactly what the plain sorted query answers, for every filter and several pages', async () => {
    const last = await store.lastOrderId();
    const filters: Array<Record<string, unknown>> = [{ userId: 'heavy', payment: 'paid' }, { userId: 'heavy', status: 3 }, { userId: 'other-9', payment: 'paid' }, { userId: 'nobody', payment: 'paid' }, { payment: 'paid' }];
    for (const filter of filters) {
      for (const [page, pageSize] of [[1, 20], [2, 20], [7, 100], [40, 50], [500, 100]] as const) {
        const windowed = await newestFirst(storedOrders(store.connection).orders, filter, { page, pageSize }, last, (d) => d._id);
        const plain = await storedOrders(store.connection).orders.find(filter).sort({ _id: -1 }).skip((page - 1) * pageSize).limit(pageSize + 1).lean();
        expect([filter, page, windowed.items, windowed.hasNext]).toEqual([filter, page, plain.slice(0, pageSize).map((d) => d._id), plain.length > pageSize]);
      }
    }
    expect(await plainPage(store, 'heavy')).toBe(21);
    const first = await orderHistory(store, 'heavy', undefined, { page: 1, pageSize: 3 });
    expect(first.items.map((o) => o.id)).toEqual([1_055_555, 1_055_554, 1_055_553]);
    expect(first.items[0]).toEqual(orderView((await storedOrders(store.connection).orders.findById(1_055_555).lean())!));
  }, 120_000);
});
