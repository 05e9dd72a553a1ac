import { CompressionTypes } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedKafka } from '../src/index.ts';
import { kafkaFor, startTestBroker } from './helpers/broker.ts';

describe('ListOffsets by timestamp', () => {
  let broker: EmbeddedKafka;

  beforeAll(async () => {
    broker = await startTestBroker({ fsync: false });
  });
  afterAll(async () => {
    await broker.close();
  });

  // Kafka answers the first record with timestamp >= t, also inside a multi-record batch.
  it.each([
    ['uncompressed', CompressionTypes.None],
    ['gzip', CompressionTypes.GZIP],
  ])('finds the record, not its batch (%s)', async (name, compression) => {
    const topic = `times-${name}`;
    const kafka = kafkaFor(broker.brokers);
    const producer = kafka.producer();
    await producer.connect();
    const base = Date.now() - 60_000;
    await producer.send({ topic, messages: [{ value: 'first', timestamp: String(base - 10_000) }], compression }); // offset 0, its own batch
    // One batch holding offsets 1..4.
    const stamps = [base, base + 1000, base + 2000, base + 3000];
    await producer.send({ topic, compression, messages: stamps.map((t) => ({ value: `at-${t}`, timestamp: String(t) })) });
    await producer.disconnect();

    const admin = kafka.admin();
    await admin.connect();
    const at = async (ts: number): Promise<string | undefined> => (await admin.fetchTopicOffsetsByTimestamp(topic, ts))[0]?.offset;
    expect(await at(base + 1500)).toBe('3');
    expect(await at(base + 1000)).toBe('2');
    expect(await at(base + 3000)).toBe('4');
    expect(await at(base - 20_000)).toBe('0');
    // Later than every record: the broker answers -1, which kafkajs replaces by the high watermark.
    expect(await at(base + 3001)).toBe('5');

    await admin.disconnect();
  });
});
