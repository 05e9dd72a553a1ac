import { CompressionTypes } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedKafka } from '../src/index.ts';
import { consumeN, kafkaFor, startTestBroker } from './helpers/broker.ts';

describe('kafkajs producers and a group consumer', () => {
  let broker: EmbeddedKafka;

  beforeAll(async () => {
    broker = await startTestBroker({ defaultPartitions: 3 });
  });
  afterAll(async () => {
    await broker.close();
  });

  it('delivers plain messages with keys and headers to a group consumer reading from the beginning', async () => {
    const kafka = kafkaFor(broker.brokers);
    const producer = kafka.producer();
    await producer.connect();
    const messages = Array.from({ length: 30 }, (_, i) => ({ key: `k${i % 5}`, value: `plain-${i}`, headers: { seq: String(i), 'x-kind': '주문' } }));
    const res = await producer.send({ topic: 'plain', acks: -1, messages });
    await producer.disconnect();
    expect(res.every((r) => r.errorCode === 0)).toBe(true);

    const got = await consumeN(kafka, 'plain', 30, 'g-plain');
    expect(got.map((m) => m.value).sort()).toEqual(messages.map((m) => m.value).sort());
    // Same key, same partition, in produce order.
    for (const key of ['k0', 'k1', 'k2', 'k3', 'k4']) {
      const forKey = got.filter((m) => m.key === key);
      expect(new Set(forKey.map((m) => m.partition)).size).toBe(1);
      expect(forKey.map((m) => Number(m.headers.seq))).toEqual([...forKey.map((m) => Number(m.headers.seq))].sort((a, b) => a - b));
    }
    expect(got[0]?.headers['x-kind']).toBe('주문');
    expect(new Set(got.map((m) => m.partition)).size).toBeGreaterThan(1);
  });

  it('passes gzip batches through unchanged', async () => {
    const kafka = kafkaFor(broker.brokers);
    const producer = kafka.producer();
    await producer.connect();
    const big = 'x'.repeat(5000);
    await producer.send({
      topic: 'gzip',
      compression: CompressionTypes.GZIP,
      messages: Array.from({ length: 50 }, (_, i) => ({ key: 'same', value: `${i}:${big}` })),
    });
    await producer.disconnect();
    const got = await consumeN(kafka, 'gzip', 50, 'g-gzip');
    expect(got).toHaveLength(50);
    expect(got.map((m) => Number(m.value?.split(':')[0]))).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(got.every((m) => m.value?.endsWith(big))).toBe(true);
    expect(got.map((m) => m.offset)).toEqual(Array.from({ length: 50 }, (_, i) => String(i)));
  });

  it('accepts an idempotent producer and stores each message exactly once', async () => {
    const kafka = kafkaFor(broker.brokers);
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    for (let i = 0; i < 20; i++) {
      const [r] = await producer.send({ topic: 'idem', acks: -1, messages: [{ key: 'k', value: `idem-${i}` }] });
      expect(r?.errorCode).toBe(0);
      expect(r?.baseOffset).toBe(String(i));
    }
    await producer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    const offsets = await admin.fetchTopicOffsets('idem');
    await admin.disconnect();
    const partition = offsets.find((o) => o.high !== '0');
    expect(partition?.high).toBe('20');
    const got = await consumeN(kafka, 'idem', 20, 'g-idem');
    expect(got.map((m) => m.value)).toEqual(Array.from({ length: 20 }, (_, i) => `idem-${i}`));
  });
});
