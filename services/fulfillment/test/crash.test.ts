import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type MainProcess, killMains, spawnMain, testServiceSecret } from '@smm/testkit';
import { FaultProvider } from './fault-provider.ts';
import { type Infra, type Stack, eventually, keySecret, startInfra, startStack } from './support.ts';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

let infra: Infra;
let stack: Stack;
let upstream: FaultProvider;

beforeAll(async () => {
  infra = await startInfra();
  stack = await startStack(infra);
  upstream = new FaultProvider();
  upstream.services = [{ service: 11, name: 'Likes', rate: '1000', min: 10, max: 10_000 }];
  await upstream.start();
}, 120_000);

afterAll(async () => {
  killMains();
  await upstream?.stop();
  await stack?.stop();
  await infra?.stop();
});

function startMain(database: string): MainProcess {
  return spawnMain(packageDir, {
    PORT: '0',
    MONGO_URL: infra.mongo.uri(database),
    KAFKA_BROKERS: infra.kafka.brokers,
    ORDER_SERVICE_URL: stack.order.base,
    CATALOG_SERVICE_URL: stack.catalog.base,
    FULFILLMENT_KEY_SECRET: keySecret,
    SERVICE_AUTH_SECRET: testServiceSecret,
    FULFILLMENT_PROVIDER_TIMEOUT_MS: '1500',
    FULFILLMENT_CLAIM_STALE_MS: '500',
    FULFILLMENT_POLL_MS: '100',
    FULFILLMENT_ALLOW_PRIVATE_PROVIDERS: 'true', // the test provider listens on 127.0.0.1
    LOG_LEVEL: 'info',
  });
}

it('a fulfillment process killed mid-burst forwards no order twice and forgets none', async () => {
  const p = await stack.admin.post<{ id: number }>('/admin/providers', { name: 'crash', url: upstream.url, key: upstream.key, currency: 'KRW', wonDeciPerUnit: 10 });
  await stack.admin.post(`/admin/providers/${p.body.id}/import`);
  const productId = await stack.product();
  await stack.admin.put(`/admin/mappings/${productId}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '11', rule: { kind: 'markup', percent: 0 } });
  await eventually(() => stack.order.store.product(productId), (r) => r?.unitPriceDeci === 10);
  // From here the separate process does the forwarding; the in-process one stops.
  const database = stack.fulfillment.connection.name;
  await stack.fulfillment.close();
  upstream.addDelayMs = 150;

  const first = startMain(database);
  await first.waitFor('listening');
  const links = Array.from({ length: 40 }, (_, i) => `https://instagram.com/p/crash-${i}-${randomUUID().slice(0, 6)}`);
  const placing = Promise.all(links.map((l) => stack.placeOrder(productId, l, 20)));
  await eventually(() => upstream.adds().length, (n) => n >= 10, 30_000);
  first.child.kill('SIGKILL');
  await first.exited;
  const orderIds = await placing;
  const addsAtKill = upstream.adds().length;

  const second = startMain(database);
  await second.waitFor('listening');
  const forwards = stack.order.store.connection.useDb(database).collection<{ _id: number; state: string; providerOrderId: string | null; link: string }>('forwards');
  const all = await eventually(
    () => forwards.find({ _id: { $in: orderIds } }).toArray(),
    (docs) => docs.length === orderIds.length && docs.every((d) => d.state === 'accepted' || d.state === 'review'),
    60_000,
  );
  second.child.kill('SIGTERM');
  await second.exited;

  // Never twice: every link reached the provider at most once.
  const counts = new Map<string, number>();
  for (const a of upstream.adds()) counts.set(a.link!, (counts.get(a.link!) ?? 0) + 1);
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
  // None forgotten: each order is accepted (with the provider's id) or waits in review because
  // the crash took its answer. A claim killed before its request left is in review too: from the
  // claim alone nobody can tell whether the provider got it, so it is not sent again.
  const accepted = all.filter((d) => d.state === 'accepted');
  const review = all.filter((d) => d.state === 'review');
  expect(accepted.length + review.length).toBe(40);
  for (const d of accepted) expect(upstream.orders.has(Number(d.providerOrderId))).toBe(true);
  for (const d of accepted) expect(counts.get(d.link)).toBe(1);
  for (const d of review) expect(counts.get(d.link) ?? 0).toBeLessThanOrEqual(1);
  expect(upstream.adds().length).toBe(40 - all.filter((d) => !counts.has(d.link)).length);
  expect(addsAtKill).toBeLessThan(40);
  console.log(`crash test: ${addsAtKill} adds before the kill, ${accepted.length} accepted, ${review.length} in review after restart`);
}, 180_000);

it('at a provider that honours Idempotency-Key, the orders whose answer died with the process are re-sent with their reference: all accepted, none twice', async () => {
  const keyed = new FaultProvider('k-crash-keyed');
  keyed.services = [{ service: 11, name: 'Likes', rate: '1000', min: 10, max: 10_000 }];
  keyed.honourKeys = true;
  keyed.addDelayMs = 150;
  await keyed.start();
  try {
    await stack.restartFulfillment();
    const p = await stack.admin.post<{ id: number }>('/admin/providers', { name: 'crash-keyed', url: keyed.url, key: keyed.key, currency: 'KRW', wonDeciPerUnit: 10, idempotentAdd: true });
    await stack.admin.post(`/admin/providers/${p.body.id}/import`);
    const productId = await stack.product();
    await stack.admin.put(`/admin/mappings/${productId}`, { mode: 'provider', providerId: p.body.id, providerServiceId: '11', rule: { kind: 'markup', percent: 0 } });
    await eventually(() => stack.order.store.product(productId), (r) => r?.unitPriceDeci === 10);
    const database = stack.fulfillment.connection.name;
    await stack.fulfillment.close();

    const first = startMain(database);
    await first.waitFor('listening');
    const links = Array.from({ length: 40 }, (_, i) => `https://instagram.com/p/keyed-${i}-${randomUUID().slice(0, 6)}`);
    const placing = Promise.all(links.map((l) => stack.placeOrder(productId, l, 20)));
    await eventually(() => keyed.adds().length, (n) => n >= 10, 30_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const orderIds = await placing;

    const second = startMain(database);
    await second.waitFor('listening');
    const forwards = stack.order.store.connection.useDb(database).collection<{ _id: number; state: string; providerOrderId: string | null; link: string }>('forwards');
    const all = await eventually(
      () => forwards.find({ _id: { $in: orderIds } }).toArray(),
      (docs) => docs.length === orderIds.length && docs.every((d) => d.state === 'accepted'),
      60_000,
    );
    second.child.kill('SIGTERM');
    await second.exited;

    // One order per link at the provider, and it is the one each forward record names.
    const held = new Map<string, number[]>();
    for (const o of keyed.orders.values()) held.set(o.link, [...(held.get(o.link) ?? []), o.id]);
    for (const d of all) expect(held.get(d.link)).toEqual([Number(d.providerOrderId)]);
    // Some calls were made twice (the re-sends), always with the reference of the first.
    const refsByLink = new Map<string, Set<string | undefined>>();
    for (const r of keyed.received.filter((x) => x.action === 'add')) refsByLink.set(r.fields.link!, (refsByLink.get(r.fields.link!) ?? new Set()).add(r.reference));
    expect([...refsByLink.values()].every((refs) => refs.size === 1)).toBe(true);
    const resent = keyed.adds().length - links.length;
    expect(resent).toBeGreaterThan(0);
    console.log(`crash test (idempotent provider): ${resent} re-sends answered by the provider's replay, ${all.length} accepted`);
  } finally {
    await keyed.stop();
  }
}, 180_000);
