// The operators' order search (issue 12) over many orders: first page and filtered pages, through
// the real use case on the embedded MongoDB.  npm run bench:admin -w @smm/order  (BENCH_ORDERS=…)
import { startEmbeddedMongo } from '@smm/embedded-mongo';
import { connectMongo, createLogger } from '@smm/platform';
import { type Order, idBucketOf, storedOrders } from '../src/store/models.ts';
import { createStore, orderIdSequence } from '../src/store/store.ts';
import { searchOrders } from '../src/use-cases/search-orders.ts';

const logger = createLogger({ service: 'order-bench', level: 'silent' });
const total = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const mongo = await startEmbeddedMongo({ port: 0 });
try {
  const connection = await connectMongo(mongo.uri('order_admin_bench'), logger, 'order-bench');
  const store = await createStore(connection);
  const started = Date.now();
  const batch = 10_000;
  for (let start = 1; start <= total; start += batch) {
    const docs: Order[] = [];
    for (let id = start; id < Math.min(start + batch, total + 1); id++) {
      docs.push({
        _id: id,
        idBucket: idBucketOf(id),
        userId: `member-${id % 20_000}`,
        // Product 99 is rare (one order in 10,000), so a filter on it cannot be served by luck.
        serviceId: id % 10_000 === 0 ? 99 : 1 + (id % 40),
        serviceText: '인스타그램 좋아요',
        platformId: 1,
        link: `https://www.instagram.com/p/post-${id % 100_000}`,
        amount: 100,
        unitPriceDeci: 25,
        chargeDeci: 2500,
        payment: 'paid',
        // Most orders are long finished; a few are still open, as on a real panel.
        status: id % 50 === 0 ? 0 : id % 10_001 === 0 ? 3 : id % 7 === 0 ? 5 : 2,
        startCount: null,
        remains: 0,
        refundedDeci: 0,
        autoOrderId: null,
        run: null,
        source: 'web',
        createdAt: new Date(Date.UTC(2026, 0, 1) + id * 1000),
        paidAt: new Date(Date.UTC(2026, 0, 1) + id * 1000),
      });
    }
    await storedOrders(store.connection).orders.collection.insertMany(docs as never[], { ordered: false });
  }
  await storedOrders(store.connection).counters.updateOne({ _id: orderIdSequence }, { $max: { seq: total } }, { upsert: true });
  console.log(`inserted ${total} orders (20,000 members, 40 products) in ${Date.now() - started} ms`);
  const probes: Array<[string, Parameters<typeof searchOrders>[1]]> = [
    ['first page, all paid orders', {}],
    ['status 0 (open, 2 %)', { status: 0 }],
    ['one member (50 orders)', { userId: 'member-12345' }],
    ['status 3 (rare, 1 in 10,001)', { status: 3 }],
    ['one member and status 2', { userId: 'member-12345', status: 2 }],
    ['one product', { serviceId: 7 }],
    ['one rare product (1 in 10,000)', { serviceId: 99 }],
    ['one link (10 orders)', { link: 'https://www.instagram.com/p/post-4242' }],
    ['one order id', { id: Math.floor(total / 2) }],
    // The BFF's provider filter: fulfillment's chunk of 100 order ids, looked up here (with a status).
    ['100 ids (provider filter)', { ids: Array.from({ length: 100 }, (_, i) => total - i * 997) }],
    ['100 ids and status 0', { ids: Array.from({ length: 100 }, (_, i) => total - i * 997), status: 0 }],
  ];
  for (const [name, search] of probes) {
    for (const page of [1, 2]) {
      await searchOrders(store, search, { page, pageSize: 20 });
      const times: number[] = [];
      let rows = 0;
      for (let run = 0; run < 5; run++) {
        const t0 = performance.now();
        rows = (await searchOrders(store, search, { page, pageSize: 20 })).items.length;
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      console.log(`${name}, page ${page}: median ${times[2]!.toFixed(1)} ms (${rows} rows)`);
    }
  }
  await connection.close();
} finally {
  await mongo.close();
}
