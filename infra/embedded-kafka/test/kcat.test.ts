import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import type { EmbeddedKafka } from '../src/index.ts';
import { consumeN, kafkaFor, startTestBroker, waitFor } from './helpers/broker.ts';
import { kcat, kcatBackground } from './helpers/kcat.ts';

describe('kcat (librdkafka)', () => {
  let broker: EmbeddedKafka;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    broker = await startTestBroker();
  });
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
  });
  afterAll(async () => {
    await broker.close();
  });

  it('-L lists brokers and topics with their partitions', async () => {
    const admin = kafkaFor(broker.brokers).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'listed', numPartitions: 3 }] });
    await admin.disconnect();
    const res = await kcat(['-b', broker.brokers, '-L']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`broker 0 at ${broker.brokers}`);
    expect(res.stdout).toMatch(/topic "listed" with 3 partitions/);
  });

  it('-P messages with keys and headers are read by kafkajs', async () => {
    const input = ['k1:v1', 'k2:v2', 'k3:값3'].join('\n') + '\n';
    const res = await kcat(['-b', broker.brokers, '-P', '-t', 'from-kcat', '-K', ':', '-H', 'source=kcat', '-H', 'trace=t-1'], input);
    expect(res.code).toBe(0);
    const got = await consumeN(kafkaFor(broker.brokers), 'from-kcat', 3, 'g-from-kcat');
    expect(got.map((m) => [m.key, m.value])).toEqual([
      ['k1', 'v1'],
      ['k2', 'v2'],
      ['k3', '값3'],
    ]);
    expect(got.every((m) => m.headers.source === 'kcat' && m.headers.trace === 't-1')).toBe(true);
  });

  it('-P with librdkafka compression and idempotence round-trips through -C', async () => {
    const values = Array.from({ length: 20 }, (_, i) => `z-${i}`);
    for (const codec of ['snappy', 'lz4', 'zstd']) {
      const res = await kcat(['-b', broker.brokers, '-P', '-t', `codec-${codec}`, '-z', codec, '-X', 'enable.idempotence=true'], values.join('\n') + '\n');
      expect(res.code).toBe(0);
      const read = await kcat(['-b', broker.brokers, '-C', '-t', `codec-${codec}`, '-o', 'beginning', '-e', '-q', '-f', '%o:%s\n']);
      expect(read.stdout.trim().split('\n')).toEqual(values.map((v, i) => `${i}:${v}`));
    }
  });

  it('-C reads kafkajs messages with keys and headers', async () => {
    const producer = kafkaFor(broker.brokers).producer();
    await producer.connect();
    await producer.send({
      topic: 'from-kafkajs',
      messages: [
        { key: 'a', value: 'first', headers: { h: 'one' } },
        { key: 'b', value: 'second', headers: { h: 'two', extra: 'x' } },
      ],
    });
    await producer.disconnect();
    const res = await kcat(['-b', broker.brokers, '-C', '-t', 'from-kafkajs', '-o', 'beginning', '-e', '-f', '%p|%o|%k|%s|%h\\n']);
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toEqual(['0|0|a|first|h=one', '0|1|b|second|h=two,extra=x']);
  });

  it('-G consumes as a group and resumes from its committed offset', async () => {
    await kcat(['-b', broker.brokers, '-P', '-t', 'grouped'], 'g1\ng2\ng3\n');
    const group = ['-b', broker.brokers, '-G', 'g-kcat', '-X', 'auto.offset.reset=earliest', '-e', '-f', '%s\\n', 'grouped'];
    const first = await kcat(group);
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split('\n')).toEqual(['g1', 'g2', 'g3']);

    await kcat(['-b', broker.brokers, '-P', '-t', 'grouped'], 'g4\ng5\n');
    const second = await kcat(group);
    expect(second.stdout.trim().split('\n')).toEqual(['g4', 'g5']);

    // The commit is visible to other clients of the group too.
    const admin = kafkaFor(broker.brokers).admin();
    await admin.connect();
    const offsets = await admin.fetchOffsets({ groupId: 'g-kcat', topics: ['grouped'] });
    await admin.disconnect();
    expect(offsets[0]?.partitions[0]?.offset).toBe('5');
  });

  it('expels a member that stops heartbeating and gives its partitions to the others', async () => {
    const admin = kafkaFor(broker.brokers).admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'expiry', numPartitions: 2 }] });
    await admin.disconnect();
    const member = (session: number) => [
      '-b', broker.brokers, '-G', 'g-expiry', '-X', 'auto.offset.reset=earliest',
      '-X', `session.timeout.ms=${session}`, '-X', 'heartbeat.interval.ms=200', '-X', 'max.poll.interval.ms=10000',
      '-u', '-f', '%p:%s\\n', 'expiry',
    ];
    const a = kcatBackground(member(1500));
    children.push(a.child);
    await waitFor(() => /assigned: expiry \[0\], expiry \[1\]/.test(a.output().stderr), 15_000, 'member a to own both partitions');
    const b = kcatBackground(member(6000));
    children.push(b.child);
    await waitFor(() => (b.output().stderr.match(/assigned: expiry \[\d\]\n/g) ?? []).length >= 1, 15_000, 'the group to split between a and b');

    a.child.kill('SIGKILL'); // no LeaveGroup: only the session timeout can remove it
    await waitFor(() => /assigned: expiry \[0\], expiry \[1\]/.test(b.output().stderr), 15_000, 'b to take over both partitions');

    await kcat(['-b', broker.brokers, '-P', '-t', 'expiry', '-p', '0'], 'p0-after\n');
    await kcat(['-b', broker.brokers, '-P', '-t', 'expiry', '-p', '1'], 'p1-after\n');
    await waitFor(() => b.output().stdout.includes('0:p0-after') && b.output().stdout.includes('1:p1-after'), 10_000, 'b to read both partitions');
  });
});

describe('advertised address', () => {
  it('tells clients the advertised host, not the bind address', async () => {
    const broker = await startTestBroker({ advertisedHost: 'localhost' });
    try {
      expect(broker.brokers).toBe(`localhost:${broker.port}`);
      const res = await kcat(['-b', `127.0.0.1:${broker.port}`, '-L']);
      expect(res.stdout).toContain(`broker 0 at localhost:${broker.port}`);
    } finally {
      await broker.close();
    }
  });
});
