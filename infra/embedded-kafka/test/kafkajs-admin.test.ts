import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedKafka } from '../src/index.ts';
import { FAST_GROUP, kafkaFor, startTestBroker, waitFor } from './helpers/broker.ts';

describe('kafkajs admin', () => {
  let broker: EmbeddedKafka;

  beforeAll(async () => {
    broker = await startTestBroker({ autoCreateTopics: false });
  });
  afterAll(async () => {
    await broker.close();
  });

  it('creates topics, reports their offsets and deletes them', async () => {
    const kafka = kafkaFor(broker.brokers);
    const admin = kafka.admin();
    await admin.connect();
    try {
      expect(await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 3 }] })).toBe(true);
      expect(await admin.createTopics({ topics: [{ topic: 'orders', numPartitions: 3 }] })).toBe(false); // already exists
      expect(await admin.listTopics()).toContain('orders');

      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic: 'orders', messages: [0, 1, 2, 3, 4].map((i) => ({ value: `o${i}`, partition: i % 3 })) });
      await producer.disconnect();

      const offsets = await admin.fetchTopicOffsets('orders');
      expect(offsets.map((o) => ({ partition: o.partition, low: o.low, high: o.high })).sort((a, b) => a.partition - b.partition)).toEqual([
        { partition: 0, low: '0', high: '2' },
        { partition: 1, low: '0', high: '2' },
        { partition: 2, low: '0', high: '1' },
      ]);

      await admin.createPartitions({ topicPartitions: [{ topic: 'orders', count: 5 }] });
      await expect(admin.createPartitions({ topicPartitions: [{ topic: 'orders', count: 2 }] })).rejects.toThrow();
      const grown = await admin.fetchTopicOffsets('orders');
      expect(grown.map((o) => [o.partition, o.high]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
        [0, '2'],
        [1, '2'],
        [2, '1'],
        [3, '0'],
        [4, '0'],
      ]);

      await admin.deleteTopics({ topics: ['orders'] });
      expect(await admin.listTopics()).not.toContain('orders');
      await expect(admin.deleteTopics({ topics: ['orders'] })).rejects.toThrow(/does not host this topic-partition/);
    } finally {
      await admin.disconnect();
    }
  });

  it('describes topic and broker configs (with synonyms) and fetches a group offsets for all topics', async () => {
    const kafka = kafkaFor(broker.brokers);
    const admin = kafka.admin();
    await admin.connect();
    try {
      await admin.createTopics({ topics: [{ topic: 'configured', numPartitions: 1 }] });
      // A per-topic value the broker would not apply is refused, not stored and ignored.
      await expect(admin.createTopics({ topics: [{ topic: 'compacted', configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }] })).rejects.toThrow();
      expect(await admin.listTopics()).not.toContain('compacted');
      // The broker-wide value itself is accepted.
      expect(await admin.createTopics({ topics: [{ topic: 'deleting', configEntries: [{ name: 'cleanup.policy', value: 'delete' }] }] })).toBe(true);

      const { resources } = await admin.describeConfigs({
        includeSynonyms: true,
        resources: [
          { type: 2, name: 'configured', configNames: ['retention.ms', 'no.such.config'] },
          { type: 4, name: '0' },
        ],
      });
      const [topic, brokerRes] = resources;
      expect(topic?.configEntries.map((c) => [c.configName, c.configValue, c.configSynonyms.map((s) => s.configName)])).toEqual([
        ['retention.ms', String(7 * 24 * 3600_000), ['log.retention.ms']],
      ]);
      expect(brokerRes?.configEntries.find((c) => c.configName === 'auto.create.topics.enable')?.configValue).toBe('false');
      await expect(admin.describeConfigs({ includeSynonyms: false, resources: [{ type: 2, name: 'missing-topic' }] })).rejects.toThrow(/does not host/);

      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic: 'configured', messages: [{ value: 'x' }, { value: 'y' }] });
      await producer.disconnect();
      const consumer = kafka.consumer({ groupId: 'configured-group', ...FAST_GROUP });
      await consumer.connect();
      await consumer.subscribe({ topic: 'configured', fromBeginning: true });
      let seen = 0;
      await consumer.run({ eachMessage: async () => void seen++ });
      await waitFor(() => seen === 2, 15_000, 'two messages');
      await consumer.disconnect();
      const committed = await admin.fetchOffsets({ groupId: 'configured-group' }); // OffsetFetch with null topics
      expect(committed.map((t) => [t.topic, t.partitions.map((p) => p.offset)])).toEqual([['configured', ['2']]]);
    } finally {
      await admin.disconnect();
    }
  });

  it('lists, describes and deletes consumer groups', async () => {
    const kafka = kafkaFor(broker.brokers);
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'grouped-admin', numPartitions: 2 }] });
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: 'grouped-admin', messages: [{ value: 'one' }] });
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: 'g-admin', ...FAST_GROUP });
    let got = 0;
    await consumer.connect();
    await consumer.subscribe({ topic: 'grouped-admin', fromBeginning: true });
    await consumer.run({ eachMessage: async () => void got++ });
    await waitFor(() => got === 1, 10_000, 'the message');
    try {
      expect((await admin.listGroups()).groups).toContainEqual({ groupId: 'g-admin', protocolType: 'consumer' });
      const { groups } = await admin.describeGroups(['g-admin']);
      expect(groups[0]).toMatchObject({ groupId: 'g-admin', state: 'Stable', protocolType: 'consumer', protocol: 'RoundRobinAssigner' });
      expect(groups[0]?.members).toHaveLength(1);
      expect(groups[0]?.members[0]?.clientId).toBe('test');
      await expect(admin.deleteGroups(['g-admin'])).rejects.toThrow();
    } finally {
      await consumer.disconnect();
    }
    expect((await admin.describeGroups(['g-admin'])).groups[0]?.state).toBe('Empty');
    expect(await admin.deleteGroups(['g-admin'])).toEqual([{ groupId: 'g-admin', errorCode: 0 }]);
    const offsets = await admin.fetchOffsets({ groupId: 'g-admin', topics: ['grouped-admin'] });
    expect(offsets[0]?.partitions.map((p) => p.offset)).toEqual(['-1', '-1']);
    await admin.disconnect();
  });

  it('refuses to produce to an unknown topic when auto-creation is off', async () => {
    const kafka = kafkaFor(broker.brokers);
    const producer = kafka.producer({ retry: { retries: 1, initialRetryTime: 50 } });
    await producer.connect();
    try {
      await expect(producer.send({ topic: 'never-created', messages: [{ value: 'x' }] })).rejects.toThrow();
    } finally {
      await producer.disconnect();
    }
    const admin = kafka.admin();
    await admin.connect();
    expect(await admin.listTopics()).not.toContain('never-created');
    await admin.disconnect();
  });
});

describe('retention', () => {
  it('deletes old segments once a partition exceeds its size limit, and consumers start at the new log start', async () => {
    const broker = await startTestBroker({ segmentBytes: 16 * 1024, retentionBytes: 32 * 1024 });
    try {
      const kafka = kafkaFor(broker.brokers);
      const producer = kafka.producer();
      await producer.connect();
      for (let i = 0; i < 40; i++) await producer.send({ topic: 'bounded', messages: [{ value: `${i}:${'r'.repeat(2000)}` }] });
      await producer.disconnect();
      const admin = kafka.admin();
      await admin.connect();
      const [p0] = await admin.fetchTopicOffsets('bounded');
      await admin.disconnect();
      expect(p0?.high).toBe('40');
      const low = Number(p0?.low);
      expect(low).toBeGreaterThan(0);
      // Kept: at least the size limit (about 16 messages) and at most limit + one segment.
      expect(40 - low).toBeGreaterThanOrEqual(14);
      expect(40 - low).toBeLessThanOrEqual(32);

      const consumer = kafka.consumer({ groupId: 'g-bounded', maxWaitTimeInMs: 100, sessionTimeout: 3000, heartbeatInterval: 300 });
      const first: number[] = [];
      await consumer.connect();
      await consumer.subscribe({ topic: 'bounded', fromBeginning: true });
      await consumer.run({ eachMessage: async ({ message }) => void first.push(Number(message.offset)) });
      const deadline = Date.now() + 10_000;
      while (first.length < 40 - low && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await consumer.disconnect();
      expect(first[0]).toBe(low);
      expect(first).toHaveLength(40 - low);
    } finally {
      await broker.close();
    }
  });

  it('deletes data older than the age limit', async () => {
    const broker = await startTestBroker({ retentionMs: 300, retentionCheckIntervalMs: 100 });
    try {
      const kafka = kafkaFor(broker.brokers);
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic: 'aged', messages: [1, 2, 3, 4, 5].map((i) => ({ value: `old-${i}` })) });
      await producer.disconnect();
      const admin = kafka.admin();
      await admin.connect();
      const offsets = async () => (await admin.fetchTopicOffsets('aged'))[0];
      expect(await offsets()).toMatchObject({ low: '0', high: '5' });
      const deadline = Date.now() + 5000;
      while ((await offsets())?.low !== '5' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await offsets()).toMatchObject({ low: '5', high: '5' });
      await admin.disconnect();
    } finally {
      await broker.close();
    }
  });
});
