import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { FAST_GROUP, kafkaFor, startTestBroker, tempDir, waitFor } from './helpers/broker.ts';
import { startCli, type CliBroker } from './helpers/cli.ts';

/** A broker logger whose lines the test reads (the `request stats` line counts the fdatasyncs). */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

function syncCount(lines: Array<Record<string, unknown>>): number {
  const stats = lines.find((l) => l.msg === 'request stats') as { fsync?: { count?: number } } | undefined;
  if (!stats) throw new Error('no request stats line');
  return stats.fsync?.count ?? 0;
}

async function produceOneByOne(brokers: string, topic: string, n: number): Promise<string[]> {
  const producer = kafkaFor(brokers).producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const acked: string[] = [];
  for (let i = 0; i < n; i++) {
    await producer.send({ topic, acks: -1, messages: [{ key: `k${i % 3}`, value: `m-${i}` }] });
    acked.push(`m-${i}`);
  }
  await producer.disconnect();
  return acked;
}

describe('interval flush (Kafka-like durability)', () => {
  it('acknowledges acks=-1 produces and offset commits without an fdatasync each, and flushes them within the interval', async () => {
    const slow = capturingLogger();
    const broker = await startTestBroker({ flushIntervalMs: 600_000, logger: slow.logger });
    await produceOneByOne(broker.brokers, 'acked-unsynced', 40);
    const kafka = kafkaFor(broker.brokers);
    const admin = kafka.admin();
    await admin.connect();
    await admin.setOffsets({ groupId: 'g-unsynced', topic: 'acked-unsynced', partitions: [{ partition: 0, offset: '5' }] });
    await admin.disconnect();
    await broker.close();
    // 40 produces and a commit answered, and not one fdatasync while running (close syncs without counting).
    expect(syncCount(slow.lines)).toBe(0);

    const quick = capturingLogger();
    const second = await startTestBroker({ flushIntervalMs: 100, logger: quick.logger });
    await produceOneByOne(second.brokers, 'acked-flushed', 5);
    await new Promise((r) => setTimeout(r, 400));
    await second.close();
    // The interval flush ran: fewer syncs than produces (one per interval with appends), but some.
    const flushed = syncCount(quick.lines);
    expect(flushed).toBeGreaterThan(0);
    expect(flushed).toBeLessThan(5);
  });

  it('rejects a negative flush interval', async () => {
    await expect(startTestBroker({ flushIntervalMs: -1 })).rejects.toMatchObject({ code: 'BAD_OPTION' });
  });
});

describe('restarts with an unflushed tail', () => {
  const running: CliBroker[] = [];
  afterEach(() => {
    for (const b of running.splice(0)) if (b.child.exitCode === null) b.child.kill('SIGKILL');
  });

  it('loses no acknowledged record or commit when the broker is SIGKILLed before any flush', async () => {
    const dataDir = tempDir('ek-flush-kill-');
    const first = await startCli(dataDir, ['--flush-interval-ms', '600000']);
    running.push(first);
    const acked = await produceOneByOne(first.brokers, 'kill-unflushed', 60);
    const kafka = kafkaFor(first.brokers);
    const admin = kafka.admin();
    await admin.connect();
    await admin.setOffsets({ groupId: 'g-kill', topic: 'kill-unflushed', partitions: [{ partition: 0, offset: '17' }] });
    await admin.disconnect();
    first.child.kill('SIGKILL');
    await first.exited;

    const second = await startCli(dataDir, ['--flush-interval-ms', '600000']);
    running.push(second);
    const again = kafkaFor(second.brokers);
    const admin2 = again.admin();
    await admin2.connect();
    const committed = await admin2.fetchOffsets({ groupId: 'g-kill', topics: ['kill-unflushed'] });
    await admin2.disconnect();
    expect(committed[0]?.partitions[0]?.offset).toBe('17');
    const consumer = again.consumer({ groupId: 'g-read-all', ...FAST_GROUP });
    const seen: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: 'kill-unflushed', fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value?.toString() ?? '') });
    await waitFor(() => seen.length >= acked.length, 15_000, 'every acknowledged record');
    await consumer.disconnect();
    expect(seen).toEqual(acked);
  });

  it('moves a committed offset past the log end (a machine crash lost the unflushed tail) back to the end', async () => {
    const dataDir = tempDir('ek-flush-crash-');
    const first = await startCli(dataDir, ['--flush-interval-ms', '600000']);
    running.push(first);
    await produceOneByOne(first.brokers, 'crash-tail', 20);
    const admin = kafkaFor(first.brokers).admin();
    await admin.connect();
    await admin.setOffsets({ groupId: 'g-crash', topic: 'crash-tail', partitions: [{ partition: 0, offset: '20' }] });
    await admin.disconnect();
    first.child.kill('SIGKILL');
    await first.exited;
    // The page cache lost the log's last records but the kernel had written the commit: cut the
    // segment back to its first 8 batches (one record each), as a crash before the flush would.
    const dir = path.join(dataDir, 'topics', 'crash-tail', '0');
    const file = path.join(dir, fs.readdirSync(dir).sort().at(-1) as string);
    const data = fs.readFileSync(file);
    let pos = 0;
    for (let i = 0; i < 8; i++) pos += 12 + data.readInt32BE(pos + 8);
    fs.truncateSync(file, pos);

    const second = await startCli(dataDir, ['--flush-interval-ms', '600000']);
    running.push(second);
    const kafka = kafkaFor(second.brokers);
    const admin2 = kafka.admin();
    await admin2.connect();
    const ends = await admin2.fetchTopicOffsets('crash-tail');
    const committed = await admin2.fetchOffsets({ groupId: 'g-crash', topics: ['crash-tail'] });
    await admin2.disconnect();
    expect(ends[0]?.high).toBe('8');
    expect(committed[0]?.partitions[0]?.offset).toBe('8');
    expect(second.stdout()).toContain('committed offsets past their log end moved back');

    // The group reads what is published at the end again (a relay re-publishing the lost window).
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: 'crash-tail', acks: -1, messages: [{ key: 'k', value: 'republished' }] });
    await producer.disconnect();
    const consumer = kafka.consumer({ groupId: 'g-crash', ...FAST_GROUP });
    const seen: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: 'crash-tail' });
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(message.value?.toString() ?? '') });
    await waitFor(() => seen.length >= 1, 15_000, 'the re-published record');
    await consumer.disconnect();
    expect(seen).toEqual(['republished']);
  });
});
