import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { AssignerProtocol } from 'kafkajs';
import mongoose from 'mongoose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCatalogService } from '@smm/catalog/src/service.ts';
import { Topics, UserRegistered } from '@smm/contracts';
import { EventProducer, createKafka } from '@smm/platform';
import { formatReport, reconcile } from '@smm/reconcile';
import { type Infra, type MainProcess, callerHeaders, eventually, killMains, spawnMain, startInfra, testServiceSecret } from '@smm/testkit';
import { FaultProvider } from './fault-provider.ts';
import { keySecret, logger } from './support.ts';

/**
 * Two replicas each of order, wallet and fulfillment, as separate processes on one machine, sharing
 * their databases and consumer groups; 600 orders (REPLICAS_ORDERS; 2,000 before the CI diet) placed over both order replicas; one replica of
 * each service SIGKILLed after a third. Every order ends paid and forwarded once (or refused and
 * refunded), and both replicas of each group had partitions before the kill.
 */
const dir = (service: string) => fileURLToPath(new URL(`../../${service}/`, import.meta.url));
const total = Number(process.env.REPLICAS_ORDERS ?? 600);
const concurrency = 100;
const fundDeci = 1_000_000; // 100,000원 per member
const members = Array.from({ length: 40 }, (_, i) => `rep-${i}-${randomUUID().slice(0, 4)}`);
const suffix = randomUUID().slice(0, 6);
const dbs = { order: `order_rep_${suffix}`, wallet: `wallet_rep_${suffix}`, fulfillment: `fulfillment_rep_${suffix}`, catalog: `catalog_rep_${suffix}` };
const groups = ['order-payments', 'wallet', 'fulfillment'];

let infra: Infra;
let catalog: Awaited<ReturnType<typeof startCatalogService>>;
let upstream: FaultProvider;
let mongo: mongoose.Connection;

type Replica = { name: string; process: MainProcess; base: string };

async function spawnReplica(service: 'order' | 'wallet' | 'fulfillment', name: string, extra: Record<string, string> = {}): Promise<Replica> {
  const process = spawnMain(dir(service), {
    HOST: '127.0.0.1',
    PORT: '0',
    KAFKA_BROKERS: infra.kafka.brokers,
    LOG_LEVEL: 'info',
    SERVICE_AUTH_SECRET: testServiceSecret,
    MONGO_URL: infra.mongo.uri(dbs[service]),
    ...extra,
  });
  const listening = await process.waitFor('listening', 90_000);
  return { name, process, base: `http://127.0.0.1:${String(listening.port)}` };
}

async function call<T>(base: string, to: string, method: string, path: string, body?: unknown, userId = 'admin-1', role: 'admin' | 'member' = 'admin') {
  const res = await fetch(base + path, {
    method,
    headers: { ...callerHeaders({ to, userId, role }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

beforeAll(async () => {
  infra = await startInfra();
  catalog = await startCatalogService({ mongoUrl: infra.mongo.uri(dbs.catalog), kafkaBrokers: [infra.kafka.brokers], logger, serviceAuthSecret: testServiceSecret, seed: false, relayIntervalMs: 100, listen: { port: 0 } });
  upstream = new FaultProvider('replicas-key');
  upstream.services = [{ service: 11, name: 'Likes', rate: '1000', min: 10, max: 10_000 }];
  await upstream.start();
  mongo = await mongoose.createConnection(infra.mongo.uri(dbs.order)).asPromise();
}, 120_000);

afterAll(async () => {
  killMains();
  await mongo?.close();
  await upstream?.stop();
  await catalog?.stop();
  await infra?.stop();
});

it('two replicas of order, wallet and fulfillment share the partitions; one of each killed mid-burst: every order paid and forwarded once or refused and refunded', async () => {
  const started = Date.now();
  const catalogBase = `http://127.0.0.1:${String(catalog.port)}`;
  // Order first (the fulfillment replicas call it); the killed replicas are the B ones, so the
  // fulfillment replicas are pointed at order A.
  const [orderA, orderB, walletA, walletB] = await Promise.all([
    spawnReplica('order', 'order-A'),
    spawnReplica('order', 'order-B'),
    spawnReplica('wallet', 'wallet-A'),
    spawnReplica('wallet', 'wallet-B'),
  ]);
  const fulfillmentEnv = {
    ORDER_SERVICE_URL: orderA.base,
    CATALOG_SERVICE_URL: catalogBase,
    FULFILLMENT_KEY_SECRET: keySecret,
    FULFILLMENT_PROVIDER_TIMEOUT_MS: '5000',
    FULFILLMENT_CLAIM_STALE_MS: '1000',
    FULFILLMENT_POLL_MS: '200',
    FULFILLMENT_ALLOW_PRIVATE_PROVIDERS: 'true', // the test provider listens on 127.0.0.1
  };
  const [fulfillmentA, fulfillmentB] = await Promise.all([spawnReplica('fulfillment', 'fulfillment-A', fulfillmentEnv), spawnReplica('fulfillment', 'fulfillment-B', fulfillmentEnv)]);

  // A product forwarded to the upstream panel at 1원 per unit, and 40 funded members.
  expect((await call(catalogBase, 'catalog', 'POST', '/admin/platforms', { id: 1, text: '인스타그램', background: '#E1306C' })).status).toBe(201);
  const category = await call<{ id: number }>(catalogBase, 'catalog', 'POST', '/admin/categories', { text: '좋아요', platformId: 1 });
  const product = await call<{ id: number }>(catalogBase, 'catalog', 'POST', '/admin/services', { text: '복제 상품', categoryId: category.body.id, min: 10, max: 10_000, point: '2.5' });
  expect(product.status).toBe(201);
  const provider = await call<{ id: number }>(fulfillmentA.base, 'fulfillment', 'POST', '/admin/providers', { name: 'replicas', url: upstream.url, key: upstream.key, currency: 'KRW', wonDeciPerUnit: 10 });
  expect(provider.status).toBe(201);
  await call(fulfillmentA.base, 'fulfillment', 'POST', `/admin/providers/${provider.body.id}/import`);
  await call(fulfillmentB.base, 'fulfillment', 'PUT', `/admin/mappings/${product.body.id}`, { mode: 'provider', providerId: provider.body.id, providerServiceId: '11', rule: { kind: 'markup', percent: 0 } });
  const products = mongo.collection<{ _id: number; unitPriceDeci: number }>('products');
  await eventually(() => products.findOne({ _id: product.body.id }), (p) => p?.unitPriceDeci === 10, 30_000);
  // Auth is not needed here: its sign-ups are published as its outbox relay would publish them.
  const producer = new EventProducer(createKafka([infra.kafka.brokers], 'replicas-auth-stand-in', logger));
  await producer.connect();
  await producer.publish(
    Topics.auth,
    members.map((userId) => UserRegistered.create(userId, { userId, loginId: `login-${userId}`, email: null, role: 'member', provider: 'local', registerWhere: '검색', referredBy: null }, { correlationId: randomUUID() })),
  );
  await producer.disconnect();
  for (const m of members) {
    const funded = await eventually(() => call(walletA.base, 'wallet', 'POST', `/admin/accounts/${m}/adjustments`, { amount: fundDeci / 10, reason: '복제 시험 충전' }), (r) => r.status !== 404, 30_000);
    expect(funded.status).toBe(201);
  }

  // 2,000 orders, round-robin over both order replicas, `concurrency` at a time.
  const outcomes = new Map<string, { status: number; orderId?: number; code?: string; via: string }>();
  const unanswered: string[] = []; // calls cut by the kill: the order may or may not exist
  let next = 0;
  let killed = false;
  const killAt = Math.floor(total / 3);
  const placeOne = async (i: number) => {
    const link = `https://instagram.com/p/rep-${suffix}-${i}`;
    const member = members[i % members.length]!;
    for (;;) {
      const via = killed || i % 2 === 0 ? orderA : orderB;
      try {
        const res = await call<{ order?: { id: number }; orderId?: number; code?: string }>(via.base, 'order', 'POST', '/orders?waitMs=15000', { serviceId: product.body.id, link, amount: 10 }, member, 'member');
        outcomes.set(link, { status: res.status, orderId: res.body.order?.id ?? res.body.orderId, code: res.body.code, via: via.name });
        return;
      } catch {
        // The connection died with order-B: the order is not known to have been placed; it is
        // checked below (at most one, never left unpaid) and this one is placed on order-A anew.
        unanswered.push(link);
        return placeOne(i + total);
      }
    }
  };
  const killer = (async () => {
    await eventually(() => outcomes.size, (n) => n >= killAt, 300_000);
    killed = true;
    for (const r of [orderB, walletB, fulfillmentB]) r.process.child.kill('SIGKILL');
    await Promise.all([orderB.process.exited, walletB.process.exited, fulfillmentB.process.exited]);
  })();
  // Both replicas of each group held partitions before the kill.
  const admin = createKafka([infra.kafka.brokers], 'replicas-test', logger).admin();
  await admin.connect();
  const before = await eventually(
    async () => (await admin.describeGroups(groups)).groups,
    (gs) => gs.every((g) => g.state === 'Stable' && g.members.length === 2 && g.members.every((m) => Object.values(AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment ?? {}).some((ps) => ps.length > 0))),
    60_000,
  );
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await placeOne(next++);
    }),
  );
  await killer;
  const placedMs = Date.now() - started;

  // After the kill each group is served by the one replica left.
  const after = await eventually(
    async () => (await admin.describeGroups(groups)).groups,
    (gs) => gs.every((g) => g.state === 'Stable' && g.members.length === 1),
    60_000,
  );
  await admin.disconnect();
  expect(after.map((g) => g.members.length)).toEqual([1, 1, 1]);

  const byStatus = new Map<string, number>();
  for (const o of outcomes.values()) byStatus.set(`${o.status}${o.code ? ` ${o.code}` : ''}`, (byStatus.get(`${o.status}${o.code ? ` ${o.code}` : ''}`) ?? 0) + 1);
  expect(outcomes.size).toBe(total);
  // Every answer is 201 (paid) or 503 PAYMENT_TIMEOUT (given up, refunded if the debit comes late).
  expect([...outcomes.values()].every((o) => (o.status === 201 && o.orderId !== undefined) || (o.status === 503 && o.code === 'PAYMENT_TIMEOUT'))).toBe(true);

  // Every order that exists (answered or cut off) ends paid or rejected, never awaiting.
  const orders = mongo.collection<{ _id: number; link: string; userId: string; chargeDeci: number; payment: string }>('orders');
  const links = [...outcomes.keys(), ...unanswered];
  const all = await eventually(
    () => orders.find({ link: { $in: links } }).toArray(),
    (docs) => docs.every((d) => d.payment !== 'awaiting'),
    60_000,
  );
  const perLink = new Map<string, number>();
  for (const d of all) perLink.set(d.link, (perLink.get(d.link) ?? 0) + 1);
  expect([...perLink.values()].every((n) => n === 1)).toBe(true);
  for (const [link, o] of outcomes) {
    const doc = all.find((d) => d.link === link);
    expect(doc?._id).toBe(o.orderId);
    if (o.status === 201) expect(doc?.payment).toBe('paid');
  }
  const paid = all.filter((d) => d.payment === 'paid');

  // Fulfillment: every paid order reaches the provider exactly once (or waits in review with at
  // most one add); no refused order reaches it.
  const forwards = mongo.useDb(dbs.fulfillment).collection<{ _id: number; state: string; link: string }>('forwards');
  const paidIds = paid.map((d) => d._id);
  const forwarded = await eventually(
    () => forwards.find({ _id: { $in: paidIds } }).toArray(),
    (docs) => docs.length === paidIds.length && docs.every((d) => d.state === 'accepted' || d.state === 'review'),
    90_000,
  );
  const adds = new Map<string, number>();
  for (const a of upstream.adds()) adds.set(a.link!, (adds.get(a.link!) ?? 0) + 1);
  for (const f of forwarded) {
    if (f.state === 'accepted') expect(adds.get(f.link)).toBe(1);
    else expect(adds.get(f.link) ?? 0).toBeLessThanOrEqual(1);
  }
  const paidLinks = new Set(paid.map((d) => d.link));
  expect([...adds.keys()].every((l) => paidLinks.has(l))).toBe(true);

  // Wallet: one debit per paid order, nothing kept for a refused one, balance = sum of the ledger.
  const wallet = mongo.useDb(dbs.wallet);
  const ledger = await wallet.collection<{ _id: string; userId: string; deltaDeci: number; source: string }>('ledger_entries').find({ userId: { $in: members } }).toArray();
  const debits = new Set(ledger.filter((e) => e.source === 'order').map((e) => e._id));
  for (const d of paid) expect(debits.has(`order-${d._id}`)).toBe(true);
  const accounts = await wallet.collection<{ _id: string; balanceDeci: number }>('point_accounts').find({ _id: { $in: members } }).toArray();
  expect(accounts).toHaveLength(members.length);
  for (const a of accounts) {
    const entries = ledger.filter((e) => e.userId === a._id);
    expect(entries.reduce((s, e) => s + e.deltaDeci, 0)).toBe(a.balanceDeci);
    const spent = paid.filter((d) => d.userId === a._id).reduce((s, d) => s + d.chargeDeci, 0);
    expect(a.balanceDeci).toBe(fundDeci - spent);
  }

  // The cross-service reconciliation over the replicas' databases: every debit has its order, every
  // refund its debit, every forward a paid order, every credit its adjustment.
  const reconciled = await reconcile({ url: infra.mongo.url, readPreference: 'primary', databases: { wallet: dbs.wallet, order: dbs.order, fulfillment: dbs.fulfillment } });
  expect(reconciled.total, formatReport(reconciled).join('\n')).toBe(0);

  // Per-process work from the logs: each replica handled requests before the kill.
  const handled = (r: Replica) => r.process.records().length;
  expect(before.map((g) => g.members.length)).toEqual([2, 2, 2]);
  const review = forwarded.filter((f) => f.state === 'review').length;
  console.log(
    `replicas test: ${total} orders (${[...byStatus].map(([k, n]) => `${k}: ${n}`).join(', ')}), ` +
      `kill after ${killAt}; ${unanswered.length} calls cut by the kill; ${paid.length} paid, ${all.length - paid.length} refused; ` +
      `${forwarded.length - review} accepted, ${review} in review; placing took ${placedMs} ms, whole test ${Date.now() - started} ms; ` +
      `log lines A/B: order ${handled(orderA)}/${handled(orderB)}, wallet ${handled(walletA)}/${handled(walletB)}, fulfillment ${handled(fulfillmentA)}/${handled(fulfillmentB)}`,
  );
}, 480_000);
