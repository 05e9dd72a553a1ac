import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedKafka } from '../src/index.ts';
import { kafkaFor, startTestBroker, waitFor } from './helpers/broker.ts';
import { kcat } from './helpers/kcat.ts';
import { pythonHas, runPython, startPython, type PythonProcess } from './helpers/python.ts';

type Event = Record<string, unknown>;

const values = (events: Event[]): string[] => events.filter((e) => typeof e.value === 'string').map((e) => e.value as string);
const lastAssignment = (events: Event[]): number[] | undefined => events.filter((e) => Array.isArray(e.assigned)).at(-1)?.assigned as number[] | undefined;
const range = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

// kafka-python 2.0 does not negotiate versions per API: it infers a Kafka release from the
// ApiVersions ranges and sends that release's requests (JoinGroup v2, Fetch v4, Produce v7).
describe.skipIf(!pythonHas('kafka'))('kafka-python 2.0 (Debian python3-kafka)', () => {
  let broker: EmbeddedKafka;
  const members: PythonProcess[] = [];

  beforeAll(async () => {
    broker = await startTestBroker({ fsync: false });
  });
  afterAll(async () => {
    for (const m of members) if (m.child.exitCode === null) m.child.kill('SIGKILL');
    await broker.close();
  });

  it('infers Kafka 2.4 and runs a two-member group: rebalance, commits, resume after restart', async () => {
    const admin = kafkaFor(broker.brokers).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'kp-orders', numPartitions: 2 }] });
    await admin.disconnect();

    const [sent] = await runPython('kafka_python_produce.py', [broker.brokers, 'kp-orders', 'a', '40', 'gzip']);
    expect(sent?.apiVersion).toEqual([2, 4, 0]);

    const first = startPython('kafka_python_consume.py', [broker.brokers, 'kp-orders', 'kp-group']);
    members.push(first);
    await waitFor(() => values(first.events()).length >= 40, 30_000, 'the first member to read the 40 first messages');
    expect(lastAssignment(first.events())).toEqual([0, 1]);
    expect(first.events()[0]?.apiVersion).toEqual([2, 4, 0]);

    // A second member joins: the group rebalances to one partition each.
    const second = startPython('kafka_python_consume.py', [broker.brokers, 'kp-orders', 'kp-group']);
    members.push(second);
    await waitFor(
      () => lastAssignment(first.events())?.length === 1 && lastAssignment(second.events())?.length === 1,
      30_000,
      'a rebalance giving each member one partition',
    );
    expect([...(lastAssignment(first.events()) ?? []), ...(lastAssignment(second.events()) ?? [])].sort()).toEqual([0, 1]);

    await runPython('kafka_python_produce.py', [broker.brokers, 'kp-orders', 'b', '40', 'none']);
    const both = (): string[] => [...values(first.events()), ...values(second.events())];
    await waitFor(() => both().filter((v) => v.startsWith('b-')).length >= 40, 30_000, 'the 40 next messages across both members');
    // Every message once: the second member resumed from the first one's commits.
    expect(both().sort()).toEqual([...range('a', 40), ...range('b', 40)].sort());
    await Promise.all([first.stop(), second.stop()]);

    // A new member of the same group resumes exactly at the committed offsets.
    await runPython('kafka_python_produce.py', [broker.brokers, 'kp-orders', 'c', '10', 'none']);
    const third = startPython('kafka_python_consume.py', [broker.brokers, 'kp-orders', 'kp-group']);
    members.push(third);
    await waitFor(() => values(third.events()).length >= 10, 30_000, 'the 10 messages produced while the group was empty');
    await new Promise((r) => setTimeout(r, 500)); // anything re-delivered would arrive by now
    await third.stop();
    expect(values(third.events()).sort()).toEqual(range('c', 10).sort());

    // Admin: configs, the group's offsets for all partitions (OffsetFetch with null topics), the group list.
    const [adminView] = await runPython('kafka_python_admin.py', [broker.brokers, 'kp-orders', 'kp-group']);
    const kjs = kafkaFor(broker.brokers).admin();
    await kjs.connect();
    const ends = await kjs.fetchTopicOffsets('kp-orders');
    await kjs.disconnect();
    expect(adminView?.offsets).toEqual(Object.fromEntries(ends.map((e) => [`kp-orders:${e.partition}`, Number(e.high)])));
    expect(ends.reduce((n, e) => n + Number(e.high), 0)).toBe(90);
    expect(adminView?.groups).toContainEqual(['kp-group', 'consumer']);
    const configs = adminView?.configs as Record<string, { error: number; entries: Record<string, string> }>;
    expect(configs['2:kp-orders']?.error).toBe(0);
    expect(configs['2:kp-orders']?.entries['cleanup.policy']).toBe('delete');
    expect(configs['2:kp-orders']?.entries['retention.ms']).toBe(String(7 * 24 * 3600_000));
    expect(configs['4:0']?.entries['num.partitions']).toBe('1');
  });

  it.skipIf(!pythonHas('zstandard'))('produces zstd (Produce v7), which librdkafka consumers read', async () => {
    const [sent] = await runPython('kafka_python_produce.py', [broker.brokers, 'kp-zstd', 'z', '20', 'zstd']);
    expect(sent?.offsets).toEqual(Array.from({ length: 20 }, (_, i) => i));
    const res = await kcat(['-b', broker.brokers, '-C', '-t', 'kp-zstd', '-o', 'beginning', '-c', '20', '-e', '-f', '%s\\n']);
    expect(res.stdout.trim().split('\n')).toEqual(range('z', 20));
  });
});
