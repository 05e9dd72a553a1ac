import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { Consumer } from 'kafkajs';
import { type EventEnvelope, Topics, catalogEvents, parseEvent } from '@smm/contracts';
import { type Infra, callerHeaders, eventually, startInfra, testServiceSecret } from '@smm/testkit';
import { type Connection, type Kafka, createLogger, outboxModel } from '@smm/platform';
import { startCatalogService } from '../src/service.ts';

export { eventually, startInfra };
import { type SeedData } from '../src/seed/seed-data.ts';
import type { Store } from '../src/store/store.ts';
import { seedCatalog } from '../src/use-cases/seed-catalog.ts';

export const logger = createLogger({ service: 'catalog-test', level: 'silent' });

export type Catalog = {
  base: string;
  database: string;
  store: Store;
  connection: Connection;
  kafka: Kafka;
  seed(data?: SeedData): ReturnType<typeof seedCatalog>;
  /** Publishes everything committed so far (the relay also runs on its own). */
  flush(): Promise<void>;
  close(): Promise<void>;
};

/** The catalog as main.ts starts it (without the default seed), on port 0, over its own database. */
export async function startCatalog(infra: Pick<Infra, 'kafka' | 'mongo'>, database = `catalog_${randomUUID().slice(0, 8)}`): Promise<Catalog> {
  const service = await startCatalogService({
    mongoUrl: infra.mongo.uri(database),
    kafkaBrokers: [infra.kafka.brokers],
    logger,
    serviceAuthSecret: testServiceSecret,
    seed: false,
    relayIntervalMs: 100,
    listen: { port: 0 },
  });
  const { connection, kafka } = service;
  const store = service.deps.store;
  const { defaultSeed } = await import('../src/seed/seed-data.ts');
  return {
    base: `http://127.0.0.1:${String(service.port)}`,
    database,
    store,
    connection,
    kafka,
    seed: (data = defaultSeed) => seedCatalog({ store, logger }, data),
    async flush() {
      await eventually(() => outboxModel(connection).countDocuments({ publishedAt: null }), (n) => n === 0);
    },
    close: () => service.stop(),
  };
}

/** Every catalog event on the topic from the beginning, as consumers would parse them. */
export async function collectEvents(kafka: Kafka): Promise<{ events: EventEnvelope[]; stop(): Promise<void> }> {
  const events: EventEnvelope[] = [];
  const consumer: Consumer = kafka.consumer({ groupId: `test-${randomUUID()}`, sessionTimeout: 6000 });
  await consumer.connect();
  await consumer.subscribe({ topics: [Topics.catalog], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const parsed = parseEvent(message.value, catalogEvents);
      if (!parsed.ok) throw new Error(`catalog published an invalid event: ${parsed.reason}`);
      events.push(parsed.event);
    },
  });
  return { events, stop: () => consumer.disconnect() };
}

export type Answer<T = unknown> = { status: number; body: T; headers: Headers };

/** A small HTTP client sending the credential the BFF would: for a guest without `role`, else for a member or admin. */
export function client(base: string, role?: 'admin' | 'staff' | 'member') {
  const call = async <T = unknown>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> => {
    const res = await fetch(base + path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...callerHeaders(role ? { to: 'catalog', userId: `${role}-1`, role } : { to: 'catalog' }),
        ...headers,
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T, headers: res.headers };
  };
  return {
    get: <T = unknown>(path: string, headers?: Record<string, string>) => call<T>('GET', path, undefined, headers),
    post: <T = unknown>(path: string, body: unknown, headers?: Record<string, string>) => call<T>('POST', path, body, headers),
    patch: <T = unknown>(path: string, body: unknown, headers?: Record<string, string>) => call<T>('PATCH', path, body, headers),
    put: <T = unknown>(path: string, body: unknown, headers?: Record<string, string>) => call<T>('PUT', path, body, headers),
    del: <T = unknown>(path: string, headers?: Record<string, string>) => call<T>('DELETE', path, undefined, headers),
  };
}

export type ErrorBody = { code: string; message: string };

/** What a test file shares: its servers, one catalog, an admin and a visitor client, its events. */
export type CatalogSuite = {
  infra: Infra;
  catalog: Catalog;
  admin: ReturnType<typeof client>;
  visitor: ReturnType<typeof client>;
  /** Every catalog event from the start (only with `events`). */
  received: Awaited<ReturnType<typeof collectEvents>>;
};

/**
 * Starts a catalog over its own embedded servers before the file's tests (seeded with `seed`,
 * its events collected with `events`) and stops everything after them.
 */
export function catalogSuite(options: { seed?: boolean; events?: boolean } = {}): CatalogSuite {
  const suite = {} as CatalogSuite;
  beforeAll(async () => {
    suite.infra = await startInfra();
    suite.catalog = await startCatalog(suite.infra);
    if (options.seed) await suite.catalog.seed();
    suite.visitor = client(suite.catalog.base);
    suite.admin = client(suite.catalog.base, 'admin');
    if (options.events) suite.received = await collectEvents(suite.catalog.kafka);
  });
  afterAll(async () => {
    await suite.received?.stop();
    await suite.catalog?.close();
    await suite.infra?.stop();
  });
  return suite;
}
