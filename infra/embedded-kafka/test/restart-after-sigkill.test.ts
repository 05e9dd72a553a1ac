import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { FAST_GROUP, kafkaFor, tempDir, waitFor } from './helpers/broker.ts';
import { startCli, type CliBroker } from './helpers/cli.ts';

const running: CliBroker[] = [];
afterEach(() => {
  for (const b of running.splice(0)) if (b.child.exitCode === null) b.child.kill('SIGKILL');
});

it('keeps every acknowledged message and committed offset across kill -9 and restart', async () => {
  const dataDir = tempDir('ek-sigkill-');
  const first = await startCli(dataDir);
  running.push(first);
  let kafka = kafkaFor(first.brokers);

  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'durable', numPartitions: 3 }] });
  await admin.disconnect();

  const acked: string[] = [];
  // Few retries: once the broker is killed, the send loop should give up quickly.
  const producer = kafka.producer({ retry: { retries: 1, initialRetryTime: 50 } });
  await producer.connect();
  for (let i = 0; i < 30; i++) {
    const messages = Array.from({ length: 10 }, (_, j) => ({ key: `k${j}`, value: `a-${i * 10 + j}` }));
    await producer.send({ topic: 'durable', acks: -1, messages });
    acked.push(...messages.map((m) => m.value));
  }

  // A group member consumes part of the topic and commits what it processed.
  const consumed = new Set<string>();
  const consumer = kafka.consumer({ groupId: 'g-durable', ...FAST_GROUP });
  await consumer.connect();
  await consumer.subscribe({ topic: 'durable', fromBeginning: true });
  await consumer.run({ eachBatchAutoResolve: true, eachMessage: async ({ message }) => void consumed.add(message.value?.toString() ?? '') });
  await waitFor(() => consumed.size >= 120, 15_000, 'the first consumer');
  await consumer.disconnect();
  const admin2 = kafka.admin();
  await admin2.connect();
  const committed = await admin2.fetchOffsets({ groupId: 'g-durable', topics: ['durable'] });
  await admin2.disconnect();
  // kafkajs reports -1 for a partition without a commit.
  const committedTotal = committed[0]?.partitions.reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
  expect(committedTotal).toBe(consumed.size);

  // Keep producing with acks=-1 and kill the broker mid-stream: only acknowledged sends count.
  const producing = (async () => {
    for (let i = 0; i < 5000; i++) {
      const value = `b-${i}`;
      try {
        await producer.send({ topic: 'durable', acks: -1, messages: [{ key: String(i % 7), value }] });
      } catch {
        return;
      }
      acked.push(value);
    }
  })();
  await new Promise((r) => setTimeout(r, 400));
  first.child.kill('SIGKILL');
  await first.exited;
  await producing;
  await producer.disconnect().catch(() => undefined);
  expect(acked.length).toBeGreaterThan(300);

  // A crash can also leave a torn write behind; the broker must cut it off, not refuse to start.
  const p0 = path.join(dataDir, 'topics', 'durable', '0');
  const segment = fs.readdirSync(p0).sort().at(-1) as string;
  fs.appendFileSync(path.join(p0, segment), Buffer.from('00000000000003e8000000ff', 'hex'));
  fs.appendFileSync(path.join(dataDir, 'offsets', 'commits.jsonl'), '{"g":"g-durable","t":"dura');

  const second = await startCli(dataDir);
  running.push(second);
  kafka = kafkaFor(second.brokers);
  const admin3 = kafka.admin();
  await admin3.connect();
  const after = await admin3.fetchOffsets({ groupId: 'g-durable', topics: ['durable'] });
  const high = await admin3.fetchTopicOffsets('durable');
  await admin3.disconnect();
  expect(after).toEqual(committed);
  expect(high.reduce((n, p) => n + Number(p.high), 0)).toBeGreaterThanOrEqual(acked.length);

  // The group resumes at its commit: nothing it already processed comes back, nothing acknowledged is missing.
  const resumed = new Set<string>();
  const again = kafka.consumer({ groupId: 'g-durable', ...FAST_GROUP });
  await again.connect();
  await again.subscribe({ topic: 'durable', fromBeginning: true });
  await again.run({ eachMessage: async ({ message }) => void resumed.add(message.value?.toString() ?? '') });
  const expected = acked.filter((v) => !consumed.has(v));
  await waitFor(() => expected.every((v) => resumed.has(v)), 20_000, `${expected.length} acknowledged, unconsumed messages`);
  await again.disconnect();
  expect([...resumed].filter((v) => consumed.has(v))).toEqual([]);

  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
  expect(second.stdout()).toContain('truncated log tail');
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

it('keeps running clients working across a broker restart on the same port', async () => {
  const dataDir = tempDir('ek-restart-');
  const port = await freePort();
  const first = await startCli(dataDir, ['--port', String(port)]);
  running.push(first);
  const kafka = kafkaFor(first.brokers);
  const producer = kafka.producer({ retry: { retries: 10, initialRetryTime: 100 } });
  await producer.connect();
  await producer.send({ topic: 'restarted', messages: [{ value: 'before' }] });

  const got: string[] = [];
  const consumer = kafka.consumer({ groupId: 'g-restarted', ...FAST_GROUP, retry: { retries: 20, initialRetryTime: 100 } });
  await consumer.connect();
  await consumer.subscribe({ topic: 'restarted', fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void got.push(message.value?.toString() ?? '') });
  await waitFor(() => got.includes('before'), 15_000, 'the first message');

  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  const second = await startCli(dataDir, ['--port', String(port)]);
  running.push(second);

  await producer.send({ topic: 'restarted', messages: [{ value: 'after' }] });
  await waitFor(() => got.includes('after'), 30_000, 'the message sent after the restart');
  await consumer.disconnect();
  await producer.disconnect();
  expect(got.filter((v) => v === 'before')).toHaveLength(1); // its commit survived the restart
});
