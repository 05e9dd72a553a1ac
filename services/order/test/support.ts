import { randomUUID } from 'node:crypto';
import type { Consumer } from 'kafkajs';
import { afterAll, beforeAll } from 'vitest';
import {
  AutoOrderRunDue,
  type EventEnvelope,
  PointDebitRejected,
  PointDebited,
  ServiceRemoved,
  ServiceUpserted,
  SettingChanged,
  Topics,
  orderEvents,
  type ServiceType,
  parseEvent,
} from '@smm/contracts';
import { EventProducer, type Kafka, type RunningServer, createKafka, createLogger, listen } from '@smm/platform';
import { type Infra, callerHeaders, eventually, startInfra, testServiceSecret } from '@smm/testkit';
import { type OrderService, startOrderService } from '../src/service.ts';

export { eventually, startInfra };
export const logger = createLogger({ service: 'order-test', level: 'silent' });

export type Answer<T = unknown> = { status: number; body: T };

/** A small HTTP client that sends the headers the BFF would. */
export function client(base: string, userId: string, role: 'member' | 'staff' | 'admin' = 'member') {
  const call = async <T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> => {
    const res = await fetch(base + path, {
      method,
      headers: { ...callerHeaders({ to: 'order', userId, role }), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
  };
  return {
    get: <T = unknown>(path: string) => call<T>('GET', path),
    post: <T = unknown>(path: string, body: unknown, headers?: Record<string, string>) => call<T>('POST', path, body, headers),
    patch: <T = unknown>(path: string, body: unknown) => call<T>('PATCH', path, body),
    put: <T = unknown>(path: string, body: unknown) => call<T>('PUT', path, body),
    delete: <T = unknown>(path: string) => call<T>('DELETE', path),
  };
}

/**
 * Plays the wallet (and catalog, scheduler): publishes their events to their topics, and answers
 * OrderPlaced from a balance book unless told to hold an order's answer back.
 */
export class StandIns {
  readonly orderEvents: EventEnvelope[] = [];
  readonly balances = new Map<string, number>();
  /** Orders whose payment answer the stand-in wallet holds back (timeout tests). */
  readonly hold = new Set<string>();
  /** OrderPlaced events the wallet held back, by orderId. */
  readonly held = new Map<number, EventEnvelope>();
  /** Every answer the stand-in wallet published. */
  readonly replies: EventEnvelope[] = [];
  private consumer: Consumer | undefined;
  readonly producer: EventProducer;

  constructor(readonly kafka: Kafka) {
    this.producer = new EventProducer(kafka);
  }

  async start(): Promise<void> {
    await this.producer.connect();
    this.consumer = this.kafka.consumer({ groupId: `stand-in-${randomUUID()}`, sessionTimeout: 6000 });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [Topics.order], fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        const parsed = parseEvent(message.value, orderEvents);
        if (!parsed.ok) throw new Error(`order published an invalid event: ${parsed.reason}`);
        const event = parsed.event;
        this.orderEvents.push(event);
        if (event.type === 'OrderPlaced') {
          const placed = event.data as { orderId: number; userId: string; kind: 'order' | 'auto'; chargeDeci: number };
          if (this.hold.has(placed.userId)) {
            this.held.set(placed.orderId, event);
            return;
          }
          await this.answer(event);
        }
      },
    });
  }

  /** The wallet's answer to an OrderPlaced, from the balance book. */
  async answer(event: EventEnvelope): Promise<EventEnvelope> {
    const placed = event.data as { orderId: number; userId: string; kind: 'order' | 'auto'; chargeDeci: number };
    const balance = this.balances.get(placed.userId) ?? 0;
    const origin = { correlationId: event.correlationId, causationId: event.eventId };
    const key = `account-${placed.userId}`;
    let reply: EventEnvelope;
    if (balance >= placed.chargeDeci) {
      this.balances.set(placed.userId, balance - placed.chargeDeci);
      reply = PointDebited.create(key, { userId: placed.userId, kind: placed.kind, orderId: placed.orderId, amountDeci: placed.chargeDeci, balanceAfterDeci: balance - placed.chargeDeci }, origin);
    } else {
      reply = PointDebitRejected.create(key, { userId: placed.userId, kind: placed.kind, orderId: placed.orderId, amountDeci: placed.chargeDeci, balanceDeci: balance, reason: 'INSUFFICIENT_POINTS' }, origin);
    }
    await this.producer.publish(Topics.wallet, [reply]);
    this.replies.push(reply);
    return reply;
  }

  async publish(topic: string, ...events: EventEnvelope[]): Promise<void> {
    await this.producer.publish(topic, events);
  }

  async product(p: Partial<ProductData> & { serviceId: number }): Promise<ProductData> {
    const data: ProductData = { text: `서비스 ${p.serviceId}`, platformId: 1, categoryId: 1, min: 10, max: 1000, unitPriceDeci: 25, enableAuto: true, isReadOnly: false, visible: true, ...p };
    await this.publish(Topics.catalog, ServiceUpserted.create(`service-${data.serviceId}`, data, { correlationId: randomUUID() }));
    return data;
  }

  removeProduct(serviceId: number): Promise<void> {
    return this.publish(Topics.catalog, ServiceRemoved.create(`service-${serviceId}`, { serviceId }, { correlationId: randomUUID() }));
  }

  setting(key: string, value: string): Promise<void> {
    return this.publish(Topics.catalog, SettingChanged.create(`setting-${key}`, { key, value }, { correlationId: randomUUID() }));
  }

  runDue(autoOrderId: number, userId: string, run: number): EventEnvelope {
    return AutoOrderRunDue.create(`order-${autoOrderId}`, { autoOrderId, userId, run, dueAt: new Date().toISOString() }, { correlationId: randomUUID() });
  }

  /** The order events of one aggregate, in topic order. */
  of(orderId: number, type?: string): EventEnvelope[] {
    return this.orderEvents.filter((e) => e.aggregateId === `order-${orderId}` && (type === undefined || e.type === type));
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
    await this.producer.disconnect();
  }
}

export type ProductData = {
  serviceId: number;
  text: string;
  platformId: number;
  categoryId: number;
  min: number;
  max: number;
  unitPriceDeci: number;
  enableAuto: boolean;
  isReadOnly: boolean;
  visible: boolean;
  /** The product's type (service-types.ts); absent: default. */
  type?: ServiceType;
};

export type Harness = { infra: Infra; order: OrderService; server: RunningServer; base: string; stand: StandIns; stop(): Promise<void> };

/** The order service as main.ts wires it, on port 0, with the stand-ins around it. */
export async function startHarness(infra: Infra, database = `order_${randomUUID().slice(0, 8)}`): Promise<Harness> {
  const order = await startOrderService({ mongoUrl: infra.mongo.uri(database), kafkaBrokers: [infra.kafka.brokers], logger, serviceAuthSecret: testServiceSecret, outboxPollMs: 100 });
  const server = await listen(order.app, 0);
  const stand = new StandIns(createKafka([infra.kafka.brokers], 'stand-ins', logger));
  await stand.start();
  return {
    infra,
    order,
    server,
    base: `http://127.0.0.1:${server.port}`,
    stand,
    async stop() {
      await stand.stop();
      await server.close();
      await order.stop();
    },
  };
}

/** Waits until the replica holds the product as published. */
export async function replicated(h: Harness, serviceId: number, check: (p: { unitPriceDeci: number; visible: boolean; isReadOnly: boolean } | null) => boolean = (p) => p !== null): Promise<void> {
  await eventually(() => h.order.store.product(serviceId), check, 20_000);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export type ErrorBody = { code: string; message: string };

/** The product most files order: TikTok likes, 2.5 won each, auto orders allowed. */
export const tiktokLikes = { serviceId: 1, text: '틱톡 좋아요', platformId: 3, min: 10, max: 1000, unitPriceDeci: 25, enableAuto: true };

/**
 * Starts a file's servers and order harness before its tests, with `products` published and
 * replicated, and stops them after. `suite.h` is the harness once the tests run.
 */
export function orderSuite(products: ReadonlyArray<Partial<ProductData> & { serviceId: number }> = [tiktokLikes]): { h: Harness } {
  const suite = {} as { h: Harness; infra: Infra };
  beforeAll(async () => {
    suite.infra = await startInfra();
    suite.h = await startHarness(suite.infra);
    for (const product of products) await suite.h.stand.product(product);
    for (const product of products) await replicated(suite.h, product.serviceId);
  });
  afterAll(async () => {
    await suite.h?.stop();
    await suite.infra?.stop();
  });
  return suite;
}
