import { Kafka, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { eventually } from '@smm/testkit';
import { api, devstackKafkaSasl, newMember, stack } from './support/client.ts';

type Envelope = { eventId: string; type: string; aggregateId: string; data: { userId: string } };

describe('UserRegistered → wallet account, delivered more than once', () => {
  it('opens exactly one account and keeps it as it was when the same event arrives again', async () => {
    const member = await newMember();
    const kafka = new Kafka({ brokers: stack().kafkaBrokers.split(','), clientId: 'bff-e2e', sasl: devstackKafkaSasl(), logLevel: logLevel.NOTHING });
    const mongo = new MongoClient(stack().mongoUrl);
    const accounts = mongo.db('wallet').collection<{ _id: string; balanceDeci: number; openedAt: Date }>('point_accounts');
    const consumer = kafka.consumer({ groupId: `bff-e2e-${Date.now()}` });
    const producer = kafka.producer();
    try {
      const opened = await eventually(() => accounts.findOne({ _id: member.userId }), (doc) => doc !== null);

      // The event exactly as auth published it (same eventId, key and value).
      let original: { key: Buffer | null; value: Buffer } | undefined;
      await consumer.connect();
      await consumer.subscribe({ topic: 'auth.events.v1', fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          if (!message.value) return;
          const event = JSON.parse(message.value.toString()) as Envelope;
          if (event.type === 'UserRegistered' && event.data.userId === member.userId) original = { key: message.key, value: message.value };
        },
      });
      await eventually(() => original, (found) => found !== undefined, 30_000);
      await consumer.disconnect();

      await producer.connect();
      await producer.send({ topic: 'auth.events.v1', messages: [original!, original!] });

      // wallet has read past the copies once its group's committed offsets reach the topic's end
      const admin = kafka.admin();
      await admin.connect();
      const ends = await admin.fetchTopicOffsets('auth.events.v1');
      await eventually(
        async () => (await admin.fetchOffsets({ groupId: 'wallet', topics: ['auth.events.v1'] }))[0]!.partitions,
        (partitions) => ends.every((end) => Number(end.high) === 0 || Number(partitions.find((p) => p.partition === end.partition)?.offset ?? -1) >= Number(end.high)),
        30_000,
      );
      await admin.disconnect();

      expect(await accounts.countDocuments({ _id: member.userId })).toBe(1);
      expect(await accounts.findOne({ _id: member.userId })).toEqual(opened);
      const profile = await api('GET', '/auth/profile', { token: member.token });
      expect(profile.body).toMatchObject({ id: member.id, point: 0 });
    } finally {
      await producer.disconnect().catch(() => undefined);
      await consumer.disconnect().catch(() => undefined);
      await mongo.close();
    }
  });
});
