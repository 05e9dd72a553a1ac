import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KafkaMessage } from 'kafkajs';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderAccepted, Topics, orderEvents } from '@smm/contracts';
import { type EmbeddedKafka, startEmbeddedKafka } from '@smm/embedded-kafka';
import { EventProducer, createKafka, ensureTopics, eventSorter } from '@smm/platform';
import { DeadLetterReader } from '../src/ops/dead-letters.ts';
import { type Harness, call, startHarness } from './support/harness.ts';

const silent = pino({ level: 'silent' });

/**
 * The dashboard's dead-letter figure over real Kafka: events dead-lettered through the platform's
 * own path (eventSorter.deadLetter, as every consumer does) are counted per consumer group from
 * the dead-letter topics' offsets, and shown to admins on GET /api/admin/dashboard.
 */
describe('dead-lettered events on the dashboard', () => {
  let kafkaServer: EmbeddedKafka;
  let kafkaDir: string;
  let reader: DeadLetterReader;
  let h: Harness;

  beforeAll(async () => {
    kafkaDir = mkdtempSync(join(tmpdir(), 'bff-dlq-kafka-'));
    kafkaServer = await startEmbeddedKafka({ port: 0, dataDir: kafkaDir, defaultPartitions: 3, fsync: false, logger: silent });
    const kafka = createKafka([kafkaServer.brokers], 'bff-dlq-test', silent);
    reader = new DeadLetterReader(kafka, 0);
    h = await startHarness({ deadLetters: reader });
    h.wallet.on('GET /admin/dashboard', { body: { days: [], pendingTopUps: 0 } });
    h.order.on('GET /admin/dashboard', { body: { byStatus: {} } });
    h.fulfillment.on('GET /admin/forwards', { body: [] });
    h.fulfillment.on('GET /admin/providers', { body: [] });
    h.fulfillment.on('GET /admin/notices', { body: { unread: 3, items: [] } });
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    await reader?.close();
    await kafkaServer?.close();
    rmSync(kafkaDir, { recursive: true, force: true });
  });

  it('counts what consumers dead-lettered, per group (other topics not), and shows it on the admin dashboard', async () => {
    const kafka = createKafka([kafkaServer.brokers], 'bff-dlq-writer', silent);
    await ensureTopics(kafka, [{ topic: 'dlq.order-svc.v1', numPartitions: 1 }, { topic: 'dlq.wallet-svc.v1', numPartitions: 2 }, { topic: 'not-a-dlq', numPartitions: 1 }]);
    expect(await reader.counts()).toEqual({ total: 0, topics: [] });

    const producer = new EventProducer(kafka);
    await producer.connect();
    const message = (value: string): KafkaMessage => ({ key: Buffer.from('k'), value: Buffer.from(value), headers: {}, offset: '0', timestamp: String(Date.now()), attributes: 0 });
    const sorterOf = (groupId: string) => eventSorter({ groupId, topics: [Topics.order], definitions: orderEvents, producer, logger: silent });
    await sorterOf('order-svc').deadLetter(Topics.order, 0, message('{"not":"an event"}'), 'INVALID');
    await sorterOf('order-svc').deadLetter(Topics.order, 1, message('garbage'), 'INVALID');
    await sorterOf('wallet-svc').deadLetter(Topics.order, 0, message(JSON.stringify(OrderAccepted.create('order-1', { orderId: 1, kind: 'order', userId: 'u', runs: 0, interval: 0 }, { correlationId: 'c' }))), 'REFUSED');
    await producer.disconnect();

    expect(await reader.counts()).toEqual({
      total: 3,
      topics: [
        { consumer: 'order-svc', topic: 'dlq.order-svc.v1', count: 2 },
        { consumer: 'wallet-svc', topic: 'dlq.wallet-svc.v1', count: 1 },
      ],
    });
    const admin = await call<{ deadLetters: unknown; fulfillment: { notices: number } }>(h.url, 'GET', '/api/admin/dashboard', { token: h.keys.admin() });
    expect(admin.status).toBe(200);
    expect(admin.body.deadLetters).toEqual({ total: 3, topics: expect.arrayContaining([expect.objectContaining({ consumer: 'order-svc', count: 2 })]) });
    expect(admin.body.fulfillment.notices).toBe(3);
  });

  it('leaves the rest of the dashboard standing when Kafka does not answer', async () => {
    const dead = new DeadLetterReader(createKafka(['127.0.0.1:1'], 'bff-dlq-nowhere', silent), 0);
    const other = await startHarness({ deadLetters: dead });
    try {
      other.wallet.on('GET /admin/dashboard', { body: { days: [], pendingTopUps: 0 } });
      other.order.on('GET /admin/dashboard', { body: { byStatus: {} } });
      const res = await call<{ deadLetters: unknown; pendingTopUps: number }>(other.url, 'GET', '/api/admin/dashboard', { token: other.keys.admin() });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ deadLetters: null, pendingTopUps: 0 });
    } finally {
      await other.stop();
      await dead.close();
    }
  }, 60_000);
});
