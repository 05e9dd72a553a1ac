// The operators' order list over many forwards (issue 12): the provider filter's chunks and the
// batched lookup of a page, through the real use cases on the embedded MongoDB.
//   npm run bench:order-forwards -w @smm/fulfillment   (BENCH_FORWARDS=…, default 1,000,000)
import { startEmbeddedMongo } from '@smm/embedded-mongo';
import { connectMongo, createLogger } from '@smm/platform';
import { type Forward, forwards } from '../src/store/forward.model.ts';
import { Providers } from '../src/store/provider.model.ts';
import type { FulfillmentDeps } from '../src/use-cases/context.ts';
import { forwardsOfOrders, ordersOfProvider } from '../src/use-cases/order-forwards.ts';

const logger = createLogger({ service: 'fulfillment-bench', level: 'silent' });
const total = Number(process.env.BENCH_FORWARDS ?? 1_000_000);
const mongo = await startEmbeddedMongo({ port: 0 });
try {
  const connection = await connectMongo(mongo.uri('fulfillment_order_forwards_bench'), logger, 'fulfillment-bench');
  const providers = new Providers(connection);
  const model = forwards(connection);
  await Promise.all([providers.model.init(), model.init()]);
  const now = new Date();
  // Five providers (provider 5 carries one order in 1,000), 20,000 members, 40 products.
  for (let id = 1; id <= 5; id++) await providers.model.collection.insertOne({ _id: id, name: `공급처 ${id}` } as never);
  const started = Date.now();
  const batch = 10_000;
  for (let start = 1; start <= total; start += batch) {
    const docs: Forward[] = [];
    for (let id = start; id < Math.min(start + batch, total + 1); id++) {
      docs.push({
        _id: id,
        userId: `member-${id % 20_000}`,
        productId: 1 + (id % 40),
        link: `https://www.instagram.com/p/post-${id % 100_000}`,
        amount: 100,
        source: 'order',
        state: id % 100 === 0 ? 'review' : 'closed',
        providerId: id % 1000 === 0 ? 5 : 1 + (id % 4),
        providerServiceId: '11',
        attempts: 1,
        nextAttemptAt: now,
        claimedBy: null,
        claimedAt: null,
        sentAt: now,
        providerOrderId: String(900_000 + id),
        note: null,
        providerStatus: 'Completed',
        status: 2,
        startCount: null,
        remains: 0,
        syncedAt: now,
        orderPatch: null,
        correlationId: `c-${id}`,
        createdAt: now,
        updatedAt: now,
      });
    }
    await model.collection.insertMany(docs as never[], { ordered: false });
  }
  console.log(`inserted ${total} forwards (5 providers, 20,000 members, 40 products) in ${Date.now() - started} ms`);
  const deps = { connection, providers } as unknown as FulfillmentDeps;
  const mid = Math.floor(total / 2);
  const probes: Array<[string, () => Promise<unknown>]> = [
    ['provider 1 (1 in 4), first chunk of 21', () => ordersOfProvider(deps, { providerId: 1, limit: 21 })],
    ['provider 1, chunk of 100 below the middle id', () => ordersOfProvider(deps, { providerId: 1, limit: 100, before: mid })],
    ['provider 5 (1 in 1,000), first chunk of 21', () => ordersOfProvider(deps, { providerId: 5, limit: 21 })],
    ['provider 2 and one member', () => ordersOfProvider(deps, { providerId: 2, userId: 'member-12345', limit: 21 })],
    ['provider 2 and one product', () => ordersOfProvider(deps, { providerId: 2, productId: 6, limit: 21 })],
    ['provider 2 and one link', () => ordersOfProvider(deps, { providerId: 2, link: 'https://www.instagram.com/p/post-4242', limit: 21 })],
    ['lookup of a page (20 ids)', () => forwardsOfOrders(deps, Array.from({ length: 20 }, (_, i) => total - i * 7))],
  ];
  for (const [name, probe] of probes) {
    await probe();
    const times: number[] = [];
    for (let run = 0; run < 5; run++) {
      const t0 = performance.now();
      await probe();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`${name}: median ${times[2]!.toFixed(1)} ms`);
  }
  await connection.close();
} finally {
  await mongo.close();
}
