import { randomUUID } from 'node:crypto';
import type { Consumer } from 'kafkajs';
import { afterAll, beforeAll } from 'vitest';
import {
  AutoOrderRunPlaced,
  type EventEnvelope,
  OrderPlaced,
  OrderStatusChanged,
  RefundRequested,
  SettingChanged,
  TopUpExpiryDue,
  Topics,
  UserRegistered,
  parseEvent,
  walletEvents,
} from '@smm/contracts';
import { EventProducer, type Kafka, type RunningServer, createKafka, createLogger, listen, outboxModel } from '@smm/platform';
import { type Infra, callerHeaders, eventually, startInfra, testServiceSecret } from '@smm/testkit';
import { type WalletService, type WalletSettings, startWalletService } from '../src/service.ts';

export { eventually, startInfra };
export const logger = createLogger({ service: 'wallet-test', level: 'silent' });

export type Wallet = WalletService & { base: string; database: string; close(): Promise<void>; flush(): Promise<void> };

/** The wallet as main.ts wires it, on port 0, over its own database (or a given one, to restart or replay). */
export async function startWallet(infra: Infra, options: { database?: string } & Partial<WalletSettings> = {}): Promise<Wallet> {
  const database = options.database ?? `wallet_${randomUUID().slice(0, 8)}`;
  const wallet = await startWalletService({ mongoUrl: infra.mongo.uri(database), kafkaBrokers: [infra.kafka.brokers], logger, serviceAuthSecret: testServiceSecret, relayIntervalMs: 100, ...options });
  const server: RunningServer = await listen(wallet.app, 0);
  const connection = wallet.store.connection;
  return {
    ...wallet,
    base: `http://127.0.0.1:${server.port}`,
    database,
    async flush() {
      await eventually(() => outboxModel(connection).countDocuments({ publishedAt: null }), (n) => n === 0);
    },
    async close() {
      await server.close();
      await wallet.stop();
    },
  };
}

/** Stands in for the other services: publishes their events the way their outbox relays would. */
export async function startPublisher(infra: Infra) {
  const producer = new EventProducer(createKafka([infra.kafka.brokers], `stand-in-${randomUUID().slice(0, 6)}`, logger));
  await producer.connect();
  const origin = () => ({ correlationId: randomUUID() });
  return {
    producer,
    publish: (topic: string, events: EventEnvelope[]) => producer.publish(topic, events),
    registered: (userId: string) =>
      UserRegistered.create(userId, { userId, loginId: `login-${userId}`, email: null, role: 'member', provider: 'local', registerWhere: '검색', referredBy: null }, origin()),
    orderPlaced: (userId: string, orderId: number, chargeDeci: number, kind: 'order' | 'auto' = 'order') =>
      OrderPlaced.create(
        `order-${orderId}`,
        { orderId, kind, userId, serviceId: 1, amount: 10, runs: kind === 'auto' ? 2 : 0, interval: kind === 'auto' ? 60 : 0, chargeDeci },
        origin(),
      ),
    refund: (userId: string, orderId: number, refundId: string, amountDeci: number, reason: 'canceled' | 'subscription-ended' = 'canceled') =>
      RefundRequested.create(`order-${orderId}`, { refundId, userId, orderId, amountDeci, reason }, origin()),
    /** A subscription of `posts` posts, charged `perPostDeci` each up front (issue 40): an auto order with runs = posts, interval 0. */
    subscriptionPlaced: (userId: string, orderId: number, posts: number, perPostDeci: number) =>
      OrderPlaced.create(`order-${orderId}`, { orderId, kind: 'auto', userId, serviceId: 1, amount: 100, runs: posts, interval: 0, chargeDeci: posts * perPostDeci }, origin()),
    /** Run `run` of auto order `autoOrderId` became child order `childOrderId`. */
    runPlaced: (userId: string, autoOrderId: number, run: number, runs: number, childOrderId: number, subscription?: boolean) =>
      AutoOrderRunPlaced.create(`order-${autoOrderId}`, { autoOrderId, userId, run, runs, childOrderId, ...(subscription ? { subscription } : {}) }, origin()),
    /** An order reached status `to` (2 completed, 3 partial, 5 canceled) with `remains` undelivered. */
    statusChanged: (userId: string, orderId: number, to: number, remains = 0) =>
      OrderStatusChanged.create(`order-${orderId}`, { orderId, userId, from: 1, to, startCount: 0, remains }, origin()),
    setting: (key: string, value: string) => SettingChanged.create(`setting-${key}`, { key, value }, origin()),
    expiryDue: (topUpId: number, userId: string) => TopUpExpiryDue.create(`topup-${topUpId}`, { topUpId, userId }, origin()),
    stop: () => producer.disconnect(),
  };
}
export type Publisher = Awaited<ReturnType<typeof startPublisher>>;

/** A copy of an event under a new event id: what a buggy or replaying producer could send. */
export const withNewId = <T extends EventEnvelope>(event: T): T => ({ ...event, eventId: randomUUID() });

/** Every wallet event on the topic from the beginning, as consumers would parse them. */
export async function collectWalletEvents(kafka: Kafka): Promise<{ events: EventEnvelope[]; of(type: string, pred?: (data: Record<string, unknown>) => boolean): EventEnvelope[]; stop(): Promise<void> }> {
  const events: EventEnvelope[] = [];
  const consumer: Consumer = kafka.consumer({ groupId: `test-${randomUUID()}`, sessionTimeout: 6000 });
  await consumer.connect();
  await consumer.subscribe({ topics: [Topics.wallet], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const parsed = parseEvent(message.value, walletEvents);
      if (!parsed.ok) throw new Error(`wallet published an invalid event: ${parsed.reason}`);
      events.push(parsed.event);
    },
  });
  return {
    events,
    of: (type, pred = () => true) => events.filter((e) => e.type === type && pred(e.data as Record<string, unknown>)),
    stop: () => consumer.disconnect(),
  };
}

export type Answer<T = unknown> = { status: number; body: T };

/** The credential the BFF would send when acting for `userId`. */
export const as = (userId: string, role: 'member' | 'staff' | 'admin' = 'member') => callerHeaders({ to: 'wallet', userId, role });

/** A bank notification as the BFF relays it once the bank's signature checked out: a service credential naming no member. */
export async function bankNotice<T>(base: string, body: Record<string, unknown>): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}/deposits/bank`, { method: 'POST', headers: { 'content-type': 'application/json', ...callerHeaders({ to: 'wallet' }) }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T };
}

/** A small HTTP client sending the headers the BFF would. */
export function client(base: string, userId: string, role: 'member' | 'staff' | 'admin' = 'member') {
  const call = async <T = unknown>(method: string, path: string, body?: unknown): Promise<Answer<T>> => {
    const res = await fetch(base + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...as(userId, role) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
  };
  return {
    get: <T = unknown>(path: string) => call<T>('GET', path),
    post: <T = unknown>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
  };
}

/** Waits until the member's account exists (UserRegistered consumed). */
export async function accountOpened(base: string, userId: string): Promise<void> {
  await eventually(() => fetch(`${base}/accounts/${userId}`, { headers: as(userId) }).then((r) => r.status), (s) => s === 200, 20_000);
}

export async function balanceOf(base: string, userId: string): Promise<number> {
  const res = await fetch(`${base}/accounts/${userId}`, { headers: as(userId) });
  return ((await res.json()) as { pointDeci: number }).pointDeci;
}

/** Gives a member `won` points the way production does: a top-up request an operator approves. */
export async function fund(base: string, userId: string, won: number): Promise<number> {
  const member = client(base, userId);
  const admin = client(base, 'operator-1', 'admin');
  const requested = await member.post<{ id: number }>('/top-ups', { name: `입금-${randomUUID().slice(0, 6)}`, point: won, feeType: 'none', feeValue: null });
  if (requested.status !== 201) throw new Error(`top-up request failed: ${JSON.stringify(requested)}`);
  const approved = await admin.post(`/admin/top-ups/${requested.body.id}/approve`);
  if (approved.status !== 200) throw new Error(`approval failed: ${JSON.stringify(approved)}`);
  return requested.body.id;
}

export type WalletEvents = Awaited<ReturnType<typeof collectWalletEvents>>;

/** What a test file shares: its embedded servers, one wallet, a stand-in for the other services' events. */
export type WalletSuite = {
  infra: Infra;
  wallet: Wallet;
  publisher: Publisher;
  /** Every wallet event from the topic's start (only with `collector`). */
  received: WalletEvents;
  /** A new member as auth announces them, once the wallet has opened their account. */
  member(): Promise<string>;
};

/**
 * Starts a wallet over its own embedded servers before the file's tests and stops everything
 * after them. `collector` names the consumer group that reads the wallet's events for `received`.
 */
export function walletSuite(options: { collector?: string; wallet?: Partial<WalletSettings> } = {}): WalletSuite {
  const suite = {
    async member() {
      const userId = `member-${randomUUID().slice(0, 8)}`;
      await suite.publisher.publish(Topics.auth, [suite.publisher.registered(userId)]);
      await accountOpened(suite.wallet.base, userId);
      return userId;
    },
  } as WalletSuite;
  beforeAll(async () => {
    suite.infra = await startInfra();
    suite.wallet = await startWallet(suite.infra, options.wallet);
    suite.publisher = await startPublisher(suite.infra);
    if (options.collector) suite.received = await collectWalletEvents(createKafka([suite.infra.kafka.brokers], options.collector, logger));
  });
  afterAll(async () => {
    await suite.received?.stop();
    await suite.publisher?.stop();
    await suite.wallet?.close();
    await suite.infra?.stop();
  });
  return suite;
}
