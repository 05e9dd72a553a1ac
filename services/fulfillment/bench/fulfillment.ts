import { randomUUID } from 'node:crypto';
import { FaultProvider } from '../test/fault-provider.ts';
import { eventually, startInfra, startStack } from '../test/support.ts';
import { forwards } from '../src/store/forward.model.ts';
import { syncStatuses } from '../src/use-cases/status-sync.ts';

/**
 * Two figures (README): forward latency from OrderAccepted to the provider's answer being recorded,
 * and one status-sync cycle over 10,000 open forwarded orders, against the fault server on
 * loopback. Real order, catalog and fulfillment over embedded Kafka and MongoDB, in one process.
 */
const orders = Number(process.env.BENCH_ORDERS ?? 200);
const open = Number(process.env.BENCH_OPEN ?? 10_000);

const infra = await startInfra();
const stack = await startStack(infra, { providerTimeoutMs: 5000, concurrency: 8 });
const upstream = new FaultProvider();
upstream.services = [{ service: 11, name: 'Likes', rate: '1000', min: 10, max: 100_000 }];
await upstream.start();
const p = await stack.admin.post<{ id: number }>('/admin/providers', { name: 'bench', url: upstream.url, key: upstream.key, currency: 'KRW', wonDeciPerUnit: 10 });
await stack.admin.post(`/admin/providers/${p.body.id}/import`);
const productId = await stack.product();
await stack.admin.put(`/admin/mappings/${productId}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '11', rule: { kind: 'markup', percent: 0 } });
await eventually(() => stack.order.store.product(productId), (r) => r?.unitPriceDeci === 10);

// 1. Forward latency: orders placed 20 a second; latency = forward accepted − OrderAccepted.occurredAt.
const ids: number[] = [];
for (let i = 0; i < orders; i++) {
  ids.push(await stack.placeOrder(productId, `https://instagram.com/p/bench-${randomUUID().slice(0, 8)}`, 10));
  await new Promise((r) => setTimeout(r, 50));
}
const model = forwards(stack.fulfillment.connection);
await eventually(() => model.countDocuments({ _id: { $in: ids }, state: 'accepted' }), (n) => n === ids.length, 60_000);
const acceptedAt = new Map((await model.find({ _id: { $in: ids } }, { updatedAt: 1 }).lean()).map((f) => [f._id, f.updatedAt.getTime()]));
const latencies = stack.orderEvents
  .filter((e) => e.type === 'OrderAccepted' && ids.includes((e.data as { orderId: number }).orderId))
  .map((e) => acceptedAt.get((e.data as { orderId: number }).orderId)! - Date.parse(e.occurredAt))
  .sort((a, b) => a - b);
const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
console.log(`forward latency over ${latencies.length} orders: p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${latencies[latencies.length - 1]} ms`);

// 2. One status-sync cycle over `open` accepted orders. They are seeded straight into fulfillment's
// database (placing 10,000 real orders would make this a bench of the order saga), each with a
// provider order on the fault server that has moved to In progress, so every order changes.
const now = new Date();
const seeded = Array.from({ length: open }, (_, i) => {
  const id = 1_000_000 + i;
  upstream.orders.set(id, { id, service: '11', link: `l${i}`, quantity: 100, status: 'In progress', startCount: 5, remains: 60 });
  return {
    _id: id, userId: 'bench', productId, link: `l${i}`, amount: 100, source: 'order' as const, state: 'accepted' as const, providerId: p.body.id, providerServiceId: '11',
    attempts: 1, nextAttemptAt: now, claimedBy: null, claimedAt: null, sentAt: now, providerOrderId: String(id), note: null, providerStatus: 'Pending', status: 0,
    startCount: null, remains: 100, syncedAt: null, orderPatch: null, correlationId: `bench-${i}`, createdAt: now, updatedAt: now,
  };
});
for (let i = 0; i < seeded.length; i += 1000) await model.insertMany(seeded.slice(i, i + 1000));
// The order patcher would push 10,000 changes to order (unknown ids there); stop it to time the sync alone.
await stack.fulfillment.patcher.stop();
const before = upstream.received.length;
let started = Date.now();
const changing = await syncStatuses(stack.fulfillment.deps, () => undefined);
const changingMs = Date.now() - started;
console.log(`status sync, ${open} open orders that all changed: ${changing.requests} provider requests, ${changing.changed} changes, ${changingMs} ms (${upstream.received.length - before} requests seen by the provider)`);
for (const id of seeded.map((s) => s._id)) upstream.move(id, 'In progress', { remains: 60 });
await model.updateMany({ _id: { $gte: 1_000_000 } }, { $set: { state: 'accepted' } });
started = Date.now();
const quiet = await syncStatuses(stack.fulfillment.deps, () => undefined);
console.log(`status sync, ${open} open orders, nothing changed: ${quiet.requests} provider requests, ${Date.now() - started} ms`);

await upstream.stop();
await stack.stop();
await infra.stop();
process.exit(0);
