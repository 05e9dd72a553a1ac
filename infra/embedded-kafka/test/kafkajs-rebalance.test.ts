import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Consumer } from 'kafkajs';
import type { EmbeddedKafka } from '../src/index.ts';
import { FAST_GROUP, kafkaFor, startTestBroker, waitFor } from './helpers/broker.ts';

let broker: EmbeddedKafka;

beforeAll(async () => {
  broker = await startTestBroker();
});
afterAll(async () => {
  await broker.close();
});

it('loses and duplicates nothing while a second member joins and the first leaves', async () => {
  const kafka = kafkaFor(broker.brokers);
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'flow', numPartitions: 4 }] });
  await admin.disconnect();

  const seen = new Map<string, number>();
  const byMember = { a: 0, b: 0 };
  const startMember = async (name: 'a' | 'b'): Promise<Consumer> => {
    const c = kafka.consumer({ groupId: 'g-flow', ...FAST_GROUP });
    await c.connect();
    await c.subscribe({ topic: 'flow', fromBeginning: true });
    await c.run({
      eachMessage: async ({ message }) => {
        const id = message.value?.toString() ?? '';
        seen.set(id, (seen.get(id) ?? 0) + 1);
        byMember[name]++;
      },
    });
    return c;
  };

  const producer = kafka.producer();
  await producer.connect();
  const total = 1200;
  let sent = 0;
  const producing = (async () => {
    // Bounded: 120 rounds of 10 messages, ~25 ms apart, so messages flow during both rebalances.
    for (let round = 0; round < total / 10; round++) {
      await producer.send({ topic: 'flow', messages: Array.from({ length: 10 }, (_, i) => ({ key: String(i), value: `m-${round * 10 + i}` })) });
      sent += 10;
      await new Promise((r) => setTimeout(r, 25));
    }
  })();

  const a = await startMember('a');
  await waitFor(() => byMember.a > 100, 15_000, 'member a to consume');
  const b = await startMember('b');
  await waitFor(() => byMember.b > 50, 20_000, 'member b to receive its share');
  const aBeforeLeave = byMember.a;
  await a.disconnect();
  const bAtLeave = byMember.b;
  await producing;
  await producer.disconnect();
  await waitFor(() => seen.size >= total, 20_000, `all ${total} messages (seen ${seen.size})`);
  await new Promise((r) => setTimeout(r, 500)); // a duplicate, if any, would arrive now
  await b.disconnect();

  expect(sent).toBe(total);
  expect(seen.size).toBe(total);
  const duplicates = [...seen.entries()].filter(([, n]) => n > 1);
  expect(duplicates).toEqual([]);
  expect(aBeforeLeave).toBeGreaterThan(100);
  expect(byMember.b).toBeGreaterThan(bAtLeave); // b took over a's partitions after it left
});
