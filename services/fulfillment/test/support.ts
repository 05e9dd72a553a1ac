import { randomUUID } from 'node:crypto';
import type { Consumer } from 'kafkajs';
import { type EventEnvelope, PointDebited, Topics, UserRegistered, fulfillmentEvents, orderEvents, parseEvent } from '@smm/contracts';
import { EventProducer, type Kafka, type RunningServer, createKafka, createLogger, listen } from '@smm/platform';
import { type Infra, callerHeaders, eventually, startInfra, testServiceSecret } from '@smm/testkit';
import { startCatalogService } from '@smm/catalog/src/service.ts';
import { type OrderService, startOrderService } from '@smm/order/src/service.ts';
import { startWalletService } from '@smm/wallet/src/service.ts';
import { startFulfillmentService } from '../src/service.ts';

export { eventually, startInfra };
export type { Infra };
export const logger = createLogger({ service: 'fulfillment-test', level: process.env.TEST_LOG_LEVEL === 'warn' ? 'warn' : 'silent' });
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const keySecret = 'test-secret-that-is-long-enough-0123456789';

export type Answer<T = unknown> = { status: number; body: T };

/** Which service answers at a base address, so a client signs its credential for that audience. */
const audiences = new Map<string, string>();

/** A JSON client sending what the BFF sends: a service credential for the member and role. */
export function client(base: string, userId = 'admin-1', role: 'admin' | 'staff' | 'member' = 'admin') {
  const to = audiences.get(base);
  if (to === undefined) throw new Error(`no service registered at ${base}`);
  const call = async <T = unknown>(method: string, path: string, body?: unknown): Promise<Answer<T>> => {
    const res = await fetch(base + path, {
      method,
      headers: { ...callerHeaders({ to, userId, role }), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
  };
  return {
    get: <T = unknown>(path: string) => call<T>('GET', path),
    post: <T = unknown>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
    put: <T = unknown>(path: string, body: unknown) => call<T>('PUT', path, body),
    patch: <T = unknown>(path: string, body: unknown) => call<T>('PATCH', path, body),
    del: <T = unknown>(path: string) => call<T>('DELETE', path),
  };
}

/** The real catalog, in process, on port 0, with one platform and category to put products in. */
async function startCatalog(infra: Infra) {
  const catalog = await startCatalogService({
    mongoUrl: infra.mongo.uri(`catalog_${randomUUID().slice(0, 8)}`),
    kafkaBrokers: [infra.kafka.brokers],
    logger,
    serviceAuthSecret: testServiceSecret,
    seed: false,
    relayIntervalMs: 100,
    listen: { port: 0 },
  });
  const base = `http://127.0.0.1:${String(catalog.port)}`;
  audiences.set(base, 'catalog');
  const admin = client(base);
  await admin.post('/admin/platforms', { id: 1, text: '인스타그램', background: '#E1306C' });
  const category = await admin.post<{ id: number }>('/admin/categories', { text: '좋아요', platformId: 1 });
  return {
    base,
    categoryId: category.body.id,
    close: () => catalog.stop(),
  };
}

/** Plays the wallet: every OrderPlaced is paid at once (the wallet's own rules are tested in wallet). */
async function startWalletStandIn(kafka: Kafka) {
  const producer = new EventProducer(kafka);
  await producer.connect();
  const consumer: Consumer = kafka.consumer({ groupId: `wallet-stand-in-${randomUUID()}`, sessionTimeout: 6000 });
  await consumer.connect();
  await consumer.subscribe({ topics: [Topics.order], fromBeginning: true });
  const orderEventsSeen: EventEnvelope[] = [];
  await consumer.run({
    eachMessage: async ({ message }) => {
      const parsed = parseEvent(message.value, orderEvents);
      if (!parsed.ok) throw new Error(parsed.reason);
      orderEventsSeen.push(parsed.event);
      if (parsed.event.type !== 'OrderPlaced') return;
      const p = parsed.event.data;
      const debit = PointDebited.create(`account-${p.userId}`, { userId: p.userId, kind: p.kind, orderId: p.orderId, amountDeci: p.chargeDeci, balanceAfterDeci: 0 }, { correlationId: parsed.event.correlationId, causationId: parsed.event.eventId });
      await producer.publish(Topics.wallet, [debit]);
    },
  });
  return {
    orderEvents: orderEventsSeen,
    async stop() {
      await consumer.disconnect();
      await producer.disconnect();
    },
  };
}

/**
 * The real wallet, in process: members pay from balances an operator funded, and refunds land in
 * its ledger, so a suite can end with the cross-service reconciliation (money tests).
 */
async function startRealWallet(infra: Infra, kafka: Kafka) {
  const database = `wallet_${randomUUID().slice(0, 8)}`;
  const wallet = await startWalletService({ mongoUrl: infra.mongo.uri(database), kafkaBrokers: [infra.kafka.brokers], logger, serviceAuthSecret: testServiceSecret, relayIntervalMs: 100 });
  const server = await listen(wallet.app, 0);
  const base = `http://127.0.0.1:${server.port}`;
  audiences.set(base, 'wallet');
  const producer = new EventProducer(kafka);
  await producer.connect();
  return {
    database,
    base,
    orderEvents: [] as EventEnvelope[],
    /** Registers the member (as auth would announce it) and credits `won` through an operator's adjustment. */
    async fund(userId: string, won: number) {
      await producer.publish(Topics.auth, [UserRegistered.create(userId, { userId, loginId: `login-${userId}`, email: null, role: 'member', provider: 'local', registerWhere: '검색', referredBy: null }, { correlationId: randomUUID() })]);
      const funded = await eventually(() => client(base, 'operator-1', 'admin').post(`/admin/accounts/${userId}/adjustments`, { amount: won, reason: '시험 충전' }), (r) => r.status !== 404, 30_000);
      if (funded.status !== 201) throw new Error(`wallet refused the adjustment: ${JSON.stringify(funded.body)}`);
    },
    async balanceDeci(userId: string) {
      return (await wallet.accounts.model.findById(userId).lean<{ balanceDeci: number }>())?.balanceDeci ?? 0;
    },
    async stop() {
      await producer.disconnect();
      await server.close();
      await wallet.stop();
    },
  };
}

/** Every event on fulfillment.events.v1, as ops would read it with kcat. */
export async function collectFulfillmentEvents(kafka: Kafka) {
  const events: EventEnvelope[] = [];
  const consumer: Consumer = kafka.consumer({ groupId: `fulfillment-reader-${randomUUID()}`, sessionTimeout: 6000 });
  await consumer.connect();
  await consumer.subscribe({ topics: [Topics.fulfillment], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const parsed = parseEvent(message.value, fulfillmentEvents);
      if (!parsed.ok) throw new Error(`fulfillment published an invalid event: ${parsed.reason}`);
      events.push(parsed.event);
    },
  });
  return { events, of: (orderId: number, type?: string) => events.filter((e) => e.aggregateId === `forward-${orderId}` && (type === undefined || e.type === type)), stop: () => consumer.disconnect() };
}

export type Stack = {
  infra: Infra;
  catalog: Awaited<ReturnType<typeof startCatalog>>;
  order: OrderService & { base: string };
  fulfillment: Awaited<ReturnType<typeof startFulfillment>>;
  admin: ReturnType<typeof client>;
  events: Awaited<ReturnType<typeof collectFulfillmentEvents>>;
  /** Every order event seen, as the wallet stand-in read them (empty with the real wallet). */
  orderEvents: EventEnvelope[];
  /** Set with `realWallet`: the wallet service itself. */
  wallet: Awaited<ReturnType<typeof startRealWallet>> | null;
  /** Creates a catalogue product and waits until order can sell it. */
  product(fields?: { min?: number; max?: number; point?: string }): Promise<number>;
  /** A member's paid one-off order, placed through the order service's API. */
  placeOrder(productId: number, link: string, amount: number, userId?: string): Promise<number>;
  orderOf(id: number): Promise<{ status: number; remains: number; startCount: number | null; reason: string | null; refundedDeci: number }>;
  restartFulfillment(options?: Partial<FulfillmentOptions>): Promise<void>;
  stop(): Promise<void>;
};

/** `allowPrivateProviders`: the test providers listen on 127.0.0.1, so the suites allow it unless a test says otherwise. */
export type FulfillmentOptions = { providerTimeoutMs: number; concurrency: number; pollMs: number; claimStaleMs: number; database: string; allowPrivateProviders?: boolean; realWallet?: boolean };

export async function startFulfillment(infra: Infra, orderBase: string, catalogBase: string, options: FulfillmentOptions) {
  const service = await startFulfillmentService({
    mongoUrl: infra.mongo.uri(options.database),
    kafkaBrokers: [infra.kafka.brokers],
    logger,
    serviceAuthSecret: testServiceSecret,
    orderServiceUrl: orderBase,
    catalogServiceUrl: catalogBase,
    keySecret,
    providerTimeoutMs: options.providerTimeoutMs,
    concurrency: options.concurrency,
    pollMs: options.pollMs,
    claimStaleMs: options.claimStaleMs,
    retryBaseMs: 300,
    // Tests run the periodic tasks by hand (tasks.*.runNow) so their effects are deterministic.
    statusSyncMs: 3_600_000,
    balanceSyncMs: 3_600_000,
    priceSyncMs: 3_600_000,
    groupId: `fulfillment-${options.database}`,
    relayIntervalMs: 100,
    allowPrivateProviders: options.allowPrivateProviders ?? true,
  });
  const server: RunningServer = await listen(service.app, 0);
  audiences.set(`http://127.0.0.1:${server.port}`, 'fulfillment');
  return Object.assign(service, {
    base: `http://127.0.0.1:${server.port}`,
    closed: false,
    async close() {
      if (this.closed) return;
      this.closed = true;
      await server.close();
      await service.stop();
    },
  });
}

/** Catalog, order (with a paying wallet stand-in) and fulfillment, wired as the devstack wires them. */
export async function startStack(infra: Infra, options: Partial<FulfillmentOptions> = {}): Promise<Stack> {
  const catalog = await startCatalog(infra);
  const orderService = await startOrderService({ mongoUrl: infra.mongo.uri(`order_${randomUUID().slice(0, 8)}`), kafkaBrokers: [infra.kafka.brokers], logger, serviceAuthSecret: testServiceSecret, outboxPollMs: 100 });
  const orderServer = await listen(orderService.app, 0);
  audiences.set(`http://127.0.0.1:${orderServer.port}`, 'order');
  const order = Object.assign(orderService, { base: `http://127.0.0.1:${orderServer.port}` });
  const realWallet = options.realWallet ? await startRealWallet(infra, createKafka([infra.kafka.brokers], 'auth-stand-in', logger)) : null;
  const wallet = realWallet ?? (await startWalletStandIn(createKafka([infra.kafka.brokers], 'wallet-stand-in', logger)));
  const settings: FulfillmentOptions = { providerTimeoutMs: 2000, concurrency: 4, pollMs: 100, claimStaleMs: 1000, database: `fulfillment_${randomUUID().slice(0, 8)}`, ...options };
  let fulfillment = await startFulfillment(infra, order.base, catalog.base, settings);
  const events = await collectFulfillmentEvents(createKafka([infra.kafka.brokers], 'fulfillment-reader', logger));
  const stack: Stack = {
    infra,
    catalog,
    order,
    fulfillment,
    admin: client(fulfillment.base),
    events,
    orderEvents: wallet.orderEvents,
    wallet: realWallet,
    async product(fields = {}) {
      const created = await client(catalog.base).post<{ id: number }>('/admin/services', { text: `상품 ${randomUUID().slice(0, 6)}`, categoryId: catalog.categoryId, min: fields.min ?? 10, max: fields.max ?? 10_000, point: fields.point ?? '2.5' });
      if (created.status !== 201) throw new Error(`catalog refused the product: ${JSON.stringify(created.body)}`);
      await eventually(() => order.store.product(created.body.id), (p) => p !== null, 20_000);
      return created.body.id;
    },
    async placeOrder(productId, link, amount, userId = `m-${randomUUID().slice(0, 8)}`) {
      // The order service gives an order up (503 PAYMENT_TIMEOUT) when the wallet does not answer
      // within the wait; on a loaded machine the stand-in can be slow, so wait long and try again.
      for (let attempt = 1; ; attempt++) {
        const res = await client(order.base, userId, 'member').post<{ outcome: string; order: { id: number } }>('/orders?waitMs=15000', { serviceId: productId, link, amount });
        if (res.status === 201) return res.body.order.id;
        if (res.status !== 503 || attempt === 3) throw new Error(`order refused: ${res.status} ${JSON.stringify(res.body)}`);
      }
    },
    async orderOf(id) {
      const res = await client(order.base).get<{ status: number; remains: number; startCount: number | null; reason: string | null; refundedDeci: number }>(`/orders/${id}`);
      return res.body;
    },
    async restartFulfillment(more = {}) {
      await fulfillment.close();
      Object.assign(settings, more);
      fulfillment = await startFulfillment(infra, order.base, catalog.base, settings);
      stack.fulfillment = fulfillment;
      stack.admin = client(fulfillment.base);
    },
    async stop() {
      await events.stop();
      await stack.fulfillment.close();
      await wallet.stop();
      await orderServer.close();
      await order.stop();
      await catalog.close();
    },
  };
  return stack;
}
